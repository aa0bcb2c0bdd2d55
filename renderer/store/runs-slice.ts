/** Runs keyed by runId, built from StepEvents, and the comparison the main view shows. */
import type { StateCreator } from 'zustand';
import type { ComparisonMeta } from '../../shared/ipc-contract.js';
import type { StepEvent } from '../../shared/step-event.js';
import { applyEvents, type RunMap } from './run-model.js';
import type { TrialChoice } from './trial-model.js';
import type { AppState } from './app-store.js';

export interface ActiveComparison {
  readonly meta: ComparisonMeta;
  /** 'live' when started from this window; 'history' when reopened. */
  readonly source: 'live' | 'history';
  /** Runs history reports as never finished (their worker died with the host). */
  readonly interrupted: readonly string[];
}

export interface RunsSlice {
  readonly runs: RunMap;
  readonly active: ActiveComparison | null;
  readonly starting: boolean;
  readonly startError: string | null;
  /** The trial the user picked for the columns and charts; null follows the trial in progress. */
  readonly trialChoice: TrialChoice | null;
  /** Apply one batch of events in a single store update. */
  applyEvents(events: readonly StepEvent[]): void;
  showComparison(active: ActiveComparison, events?: readonly StepEvent[]): void;
  clearComparison(): void;
  setStarting(starting: boolean, error?: string | null): void;
  chooseTrial(choice: TrialChoice | null): void;
}

export const createRunsSlice: StateCreator<AppState, [], [], RunsSlice> = (set) => ({
  runs: {},
  active: null,
  starting: false,
  startError: null,
  trialChoice: null,
  applyEvents: (events) =>
    set((s) => {
      const runs = applyEvents(s.runs, events);
      return runs === s.runs ? s : { runs };
    }),
  // A resync of the open comparison (same id) keeps the user's trial pick and opened columns; another starts fresh.
  showComparison: (active, events = []) =>
    set((s) => {
      const same = s.active?.meta.id === active.meta.id;
      return {
        active,
        runs: applyEvents(s.runs, events),
        trialChoice: same ? s.trialChoice : null,
        focusedColumns: same ? s.focusedColumns : null,
      };
    }),
  clearComparison: () => set({ active: null, startError: null, trialChoice: null, focusedColumns: null }),
  setStarting: (starting, error = null) => set({ starting, startError: error }),
  chooseTrial: (trialChoice) => set({ trialChoice }),
});
