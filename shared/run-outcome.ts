/**
 * What a run's end means for every surface that shows it: whether it passed (answered, and its answer did not
 * fail validation), the one word it is shown with, its tone, and why it does not compete. A run passes only
 * by answering; any other status — a new one included — is a failure or not yet finished, never success.
 */
import type { RunSummary } from './summary.js';

export type OutcomeTone = 'ok' | 'fail' | 'warn' | 'live' | 'muted';

export interface RunOutcome {
  /** Answered and not failed validation (a task without a validator passes by answering). */
  readonly passed: boolean;
  /** Answered, but the answer failed validation. */
  readonly wrongAnswer: boolean;
  /** Short word for a badge: "Passed", "Answered", "Wrong answer", "Step limit", … */
  readonly word: string;
  readonly tone: OutcomeTone;
  /** Why it does not compete, as a clause after its name ("its answer failed validation (…)"); null when it passed. */
  readonly reason: string | null;
  /** It never made a model request (cancelled or failed before its first step): it has no figures at all. */
  readonly neverStarted: boolean;
}

type Summary = Pick<RunSummary, 'status' | 'validation' | 'error' | 'totals'>;

/** Shortened for a clause: the first sentence of a detail, at most 120 characters. */
function brief(text: string): string {
  const first = text
    .split(/(?<=[.!?])\s/)[0]!
    .trim()
    .replace(/\.$/, '');
  return first.length > 120 ? `${first.slice(0, 117)}…` : first;
}

/**
 * Whether a run ran at all: false for one cancelled (or whose round never began) before its first model
 * request. Such a run has no figures and no place in a pass rate or a test: nothing was tried.
 */
export function ranAtAll(r: Pick<RunSummary, 'status' | 'totals'>): boolean {
  const never = r.totals.requests === 0 && r.totals.steps === 0;
  return !(never && (r.status === 'cancelled' || r.status === 'never-started'));
}

export function runOutcome(r: Summary): RunOutcome {
  const neverStarted = r.totals.requests === 0 && r.totals.steps === 0;
  const base = { passed: false, wrongAnswer: false, neverStarted };
  switch (r.status) {
    case 'answered':
      if (r.validation?.ok === false) {
        return {
          ...base,
          wrongAnswer: true,
          word: 'Wrong answer',
          tone: 'fail',
          reason: `its answer failed validation (${brief(r.validation.detail)})`,
        };
      }
      return { ...base, passed: true, word: r.validation?.ok ? 'Passed' : 'Answered', tone: 'ok', reason: null };
    case 'running':
      return { ...base, word: 'Running', tone: 'live', reason: 'it has not finished' };
    case 'max-steps':
      return {
        ...base,
        word: 'Step limit',
        tone: 'fail',
        reason: `it hit the step limit after ${r.totals.steps} step${r.totals.steps === 1 ? '' : 's'} without an answer`,
      };
    case 'cancelled':
      return {
        ...base,
        word: 'Cancelled',
        tone: 'muted',
        reason: neverStarted
          ? 'it was cancelled before it started'
          : `it was cancelled after ${r.totals.steps} step${r.totals.steps === 1 ? '' : 's'}`,
      };
    case 'never-started':
      return { ...base, word: 'Never started', tone: 'muted', reason: 'it never started (its round did not begin)' };
    case 'interrupted':
      return { ...base, word: 'Interrupted', tone: 'fail', reason: 'it never finished (its host stopped)' };
    case 'no-policy':
      return {
        ...base,
        word: 'No policy (simulated)',
        tone: 'fail',
        reason: 'the simulated model has no policy for this task, so its reply is not an answer',
      };
    case 'error':
      return {
        ...base,
        word: 'Error',
        tone: 'fail',
        reason: r.error ? `it stopped on an error (${brief(r.error)})` : 'it stopped on an error',
      };
    case 'refused':
      return {
        ...base,
        word: 'Refused',
        tone: 'fail',
        reason: 'the provider refused the reply or filtered it, so what it wrote is not an answer',
      };
    case 'truncated':
      return {
        ...base,
        word: 'Cut short',
        tone: 'fail',
        reason: 'its final reply was cut short at the token limit, so its fragment is not an answer',
      };
    case 'empty':
      return {
        ...base,
        word: 'Empty reply',
        tone: 'fail',
        reason: 'its final reply was empty: no text and no tool call',
      };
    case 'crashed':
      return { ...base, word: 'Crashed', tone: 'fail', reason: 'its worker crashed' };
    default:
      // A status this code does not know yet (a refusal, …): not an answer, so a failure.
      return {
        ...base,
        word: String(r.status),
        tone: 'fail',
        reason: `it ended as "${String(r.status)}", not with an answer`,
      };
  }
}
