/**
 * The scoring against the original itself: tests/fixtures/m3tooleval/check-answer.json holds what the
 * original harness's Task.check_answer, run with CPython, said for 2,678 answer/expected pairs (from
 * tests/fixtures/m3tooleval/README.md's script); the port must say the same for every one.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { answerText, checkAnswer, scoreAnswer } from '../../../../electron/tasks/m3tooleval/score.js';
import { literalEval } from '../../../../electron/tasks/m3tooleval/py-expr.js';
import type { PyValue } from '../../../../electron/tasks/m3tooleval/py-value.js';

const fixture = JSON.parse(
  readFileSync(new URL('../../../fixtures/m3tooleval/check-answer.json', import.meta.url), 'utf8'),
) as {
  source: string;
  rows: [answer: string, expectedRepr: string, ok: boolean][];
};

const valueOf = (text: string): PyValue => (text === 'inf' ? Infinity : literalEval(text));

describe('M3ToolEval scoring', () => {
  it('agrees with the original check_answer on every recorded pair', () => {
    expect(fixture.rows.length).toBeGreaterThan(2000);
    const disagreements = fixture.rows.filter(
      ([answer, expected, ok]) => checkAnswer(answer, valueOf(expected)).ok !== ok,
    );
    expect(disagreements).toEqual([]);
  });

  it("keeps the original's quirks: an int answer matches a float by truncation, a list only by its exact text", () => {
    expect(checkAnswer('161', 161.25).ok).toBe(true);
    expect(checkAnswer('380.42', 380.41999999999996).ok).toBe(false);
    expect(checkAnswer('[36380, 48150, 68480]', [36380, 48150, 68480]).ok).toBe(false);
    expect(checkAnswer('[36380.0, 48150.0, 68480.0]', [36380, 48150, 68480]).ok).toBe(true);
  });

  it('reads the answer after "Answer:" as the harness parses a generation, else the whole reply', () => {
    expect(answerText('Thought: done.\nAnswer: 42 ')).toBe('42');
    expect(answerText('Answer: 1\nAnswer: 2')).toBe('1');
    expect(answerText('  UUU\n')).toBe('UUU');
    expect(scoreAnswer('The total is 161.25.', 161.25).ok).toBe(false);
    expect(scoreAnswer('Answer: 161.25', 161.25)).toMatchObject({ ok: true, answer: '161.25' });
  });
});
