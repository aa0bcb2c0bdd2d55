/**
 * Two modes' answers side by side, word by word (the `diff` package). Whitespace counts as a token, so each
 * side put back together is exactly its answer: the diff marks differences, it never rewrites the text.
 */
import { diffWordsWithSpace } from 'diff';

export type DiffPart = { readonly text: string; readonly kind: 'same' | 'removed' | 'added' };

export interface AnswerDiff {
  /** The left answer: its parts the right lacks are 'removed'. */
  readonly left: readonly DiffPart[];
  /** The right answer: its parts the left lacks are 'added'. */
  readonly right: readonly DiffPart[];
  /** Words (and runs of spaces) only one side has. */
  readonly changed: { readonly removed: number; readonly added: number };
  readonly identical: boolean;
}

/** Longer pairs are not diffed: a word diff of two long, unlike texts costs seconds and reads as noise. */
export const DIFF_MAX_CHARS = 60_000;
const DIFF_TIMEOUT_MS = 250;

export type AnswerDiffResult =
  | { readonly ok: true; readonly diff: AnswerDiff }
  | { readonly ok: false; readonly reason: string };

export function diffAnswers(left: string, right: string): AnswerDiffResult {
  if (left.length + right.length > DIFF_MAX_CHARS)
    return {
      ok: false,
      reason: `These answers are too long to compare word by word (over ${DIFF_MAX_CHARS.toLocaleString('en-US')} characters together); they are shown side by side.`,
    };
  const changes = diffWordsWithSpace(left, right, { timeout: DIFF_TIMEOUT_MS });
  if (!changes)
    return { ok: false, reason: 'These answers differ too much to compare word by word; they are shown side by side.' };
  const l: DiffPart[] = [];
  const r: DiffPart[] = [];
  let removed = 0;
  let added = 0;
  for (const c of changes) {
    if (c.removed) {
      l.push({ text: c.value, kind: 'removed' });
      removed += c.count;
    } else if (c.added) {
      r.push({ text: c.value, kind: 'added' });
      added += c.count;
    } else {
      l.push({ text: c.value, kind: 'same' });
      r.push({ text: c.value, kind: 'same' });
    }
  }
  return {
    ok: true,
    diff: { left: l, right: r, changed: { removed, added }, identical: removed === 0 && added === 0 },
  };
}

/**
 * The pair shown by default: the first two runs that answered (in the comparison's mode order); when fewer
 * than two answered, the first two with any final text (a last reply), so there is still something to compare.
 */
export function defaultDiffPair<T extends { readonly answer: string; readonly answered: boolean }>(
  runs: readonly T[],
): [T, T] | null {
  const answered = runs.filter((r) => r.answered && r.answer !== '');
  const pool = answered.length >= 2 ? answered : runs.filter((r) => r.answer !== '');
  return pool.length >= 2 ? [pool[0]!, pool[1]!] : null;
}
