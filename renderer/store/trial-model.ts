/**
 * Trials: a comparison may run each mode N times, in rounds (round k = one run of every mode, released
 * together; round k + 1 starts once every run of round k ended). Everything here is derived from
 * `meta.runs[].trial` and the runs' events, so a comparison reopened from history rebuilds the same trials.
 * Pure: no React, no DOM.
 */
import type { ComparisonMeta } from '../../shared/ipc-contract.js';
import type { RunStatus } from '../../shared/step-event.js';
import { runStatus, type RunMap, type RunView } from './run-model.js';

/** A trial number (1-based), or every trial at once. */
export type TrialChoice = number | 'all';

/** A round's state: 'waiting' until an earlier round ended, 'running' while any of its runs is open. */
export type TrialState = 'waiting' | 'running' | 'done';

/** What a run's badge says: its own status, or 'waiting' while its round has not started. */
export type DisplayStatus = RunStatus | 'running' | 'pending' | 'interrupted' | 'never-started' | 'waiting';

type MetaRun = ComparisonMeta['runs'][number];

/** Comparisons stored before trials existed have no `trial`: they are trial 1. */
export const trialOf = (r: Pick<MetaRun, 'trial'>): number => r.trial ?? 1;

export function trialCount(meta: Pick<ComparisonMeta, 'runs'> | null | undefined): number {
  let n = 0;
  for (const r of meta?.runs ?? []) n = Math.max(n, trialOf(r));
  return Math.max(1, n);
}

/** A run is closed once it finished, or history found it interrupted (it will never finish). */
export function runClosed(runs: RunMap, runId: string, interrupted: readonly string[]): boolean {
  if (interrupted.includes(runId)) return true;
  const s = runStatus(runs[runId]);
  return s !== 'running' && s !== 'pending';
}

/** One state per trial, index k - 1 for trial k. */
export function trialStates(
  meta: Pick<ComparisonMeta, 'runs'>,
  runs: RunMap,
  interrupted: readonly string[],
): TrialState[] {
  const n = trialCount(meta);
  const states: TrialState[] = [];
  let earlierOpen = false;
  for (let k = 1; k <= n; k++) {
    const ids = meta.runs.filter((r) => trialOf(r) === k).map((r) => r.runId);
    const done = ids.every((id) => runClosed(runs, id, interrupted));
    // A round begins only after every earlier one ended; a run of it cancelled before then is closed, not begun.
    states.push(done ? 'done' : earlierOpen ? 'waiting' : 'running');
    if (!done) earlierOpen = true;
  }
  return states;
}

/**
 * Whether a run never ran: cancelled before its first model request, or closed with nothing stored (its round
 * never began). Such a run tried nothing; a trial of only such runs "never ran".
 */
export function runNeverRan(run: RunView | undefined): boolean {
  if (!run || run.events.length === 0) return true;
  return run.finished?.status === 'cancelled' && !run.events.some((e) => e.type === 'model-request');
}

/** Per trial (index k - 1): whether any of its runs ran. A trial still waiting or running counts as ran. */
export function trialsRan(meta: Pick<ComparisonMeta, 'runs'>, runs: RunMap, states: readonly TrialState[]): boolean[] {
  return states.map(
    (state, i) => state !== 'done' || meta.runs.some((r) => trialOf(r) === i + 1 && !runNeverRan(runs[r.runId])),
  );
}

/** The trial in progress (the first one still running), or null when none is. */
export function liveTrial(states: readonly TrialState[]): number | null {
  const i = states.indexOf('running');
  return i < 0 ? null : i + 1;
}

/**
 * The trial the columns and charts show. A pick of the user's wins; otherwise the view follows the trial in
 * progress, stays on the last one when a live comparison ends, and opens a stored one on trial 1.
 */
export function shownTrial(
  choice: TrialChoice | null,
  states: readonly TrialState[],
  source: 'live' | 'history',
  ran: readonly boolean[] = [],
): TrialChoice {
  const n = states.length;
  if (n <= 1) return 1;
  if (choice === 'all') return 'all';
  if (choice !== null && choice >= 1 && choice <= n) return choice;
  const live = liveTrial(states);
  if (live !== null) return live;
  // Never open on a trial that never ran (a comparison cancelled before its last rounds began).
  const ranList = states.map((_, i) => i + 1).filter((k) => ran[k - 1] !== false);
  if (ranList.length === 0) return 1;
  return source === 'live' ? ranList.at(-1)! : ranList[0]!;
}

/** The badge of one run: 'waiting' for a run whose round has not started yet, else its own status. */
export function displayStatus(
  run: RunView | undefined,
  runId: string,
  trial: number,
  states: readonly TrialState[],
  interrupted: readonly string[],
): DisplayStatus {
  if (states[trial - 1] === 'waiting' && (run?.events.length ?? 0) === 0) return 'waiting';
  const s = runStatus(run);
  if ((s !== 'running' && s !== 'pending') || !interrupted.includes(runId)) return s;
  return (run?.events.length ?? 0) === 0 ? 'never-started' : 'interrupted';
}
