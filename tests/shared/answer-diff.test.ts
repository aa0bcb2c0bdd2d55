import { describe, expect, it } from 'vitest';
import { defaultDiffPair, diffAnswers, DIFF_MAX_CHARS } from '../../shared/answer-diff.js';

const join = (parts: readonly { text: string }[]) => parts.map((p) => p.text).join('');

describe('diffAnswers', () => {
  it('marks the words each side lacks and keeps both texts exactly', () => {
    const a = 'The answer is  42.\nSee   a.txt for more.';
    const b = 'The answer is 43.\nSee b.txt for more, really.';
    const r = diffAnswers(a, b);
    if (!r.ok) throw new Error(r.reason);
    expect(join(r.diff.left)).toBe(a);
    expect(join(r.diff.right)).toBe(b);
    expect(r.diff.left.filter((p) => p.kind === 'removed').map((p) => p.text.trim())).toContain('42');
    expect(r.diff.right.filter((p) => p.kind === 'added').map((p) => p.text.trim())).toContain('43');
    expect(r.diff.left.some((p) => p.kind === 'added')).toBe(false);
    expect(r.diff.right.some((p) => p.kind === 'removed')).toBe(false);
    expect(r.diff.identical).toBe(false);
  });

  it('says when the answers are the same', () => {
    const r = diffAnswers('same words', 'same words');
    expect(r.ok && r.diff.identical).toBe(true);
  });

  it('refuses pairs too long to compare, with the reason', () => {
    const r = diffAnswers('a '.repeat(DIFF_MAX_CHARS / 2), 'b');
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.reason).toMatch(/too long/);
  });
});

describe('defaultDiffPair', () => {
  const run = (id: string, answer: string, answered = true) => ({ id, answer, answered });
  it('takes the first two runs that answered', () => {
    expect(
      defaultDiffPair([run('a', 'x', false), run('b', 'y'), run('c', ''), run('d', 'z')])?.map((r) => r.id),
    ).toEqual(['b', 'd']);
  });
  it('falls back to runs with any final text, and to none', () => {
    expect(defaultDiffPair([run('a', 'x', false), run('b', 'y')])?.map((r) => r.id)).toEqual(['a', 'b']);
    expect(defaultDiffPair([run('a', 'x')])).toBeNull();
  });
});
