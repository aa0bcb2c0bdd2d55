/** The stored comparisons (history:list) and suite runs (suites:list), and the suite run on screen. */
import type { StateCreator } from 'zustand';
import type { ComparisonListItem, DamagedComparison } from '../../shared/ipc-contract.js';
import type { SuiteRecord } from '../../shared/suite.js';
import type { SuiteView } from '../../shared/suite-leaderboard.js';
import type { AppState } from './app-store.js';
import { NO_FILTER, type HistoryFilter } from './history-filter.js';

export interface HistorySlice {
  readonly historyItems: readonly ComparisonListItem[];
  /** Comparisons whose record is damaged: listed with the reason so they can be deleted. */
  readonly damagedItems: readonly DamagedComparison[];
  readonly historyStatus: 'idle' | 'loading' | 'ready' | 'error';
  readonly historyError: string | null;
  /** The comparison being opened (history:open in flight). */
  readonly openingId: string | null;
  /** What the history list is narrowed to (history-filter.ts). */
  readonly historyFilter: HistoryFilter;
  /** Comparisons deleted in the list but not yet on disk: the Undo window of their toast. */
  readonly pendingDeletes: ReadonlySet<string>;
  setPendingDelete(id: string, pending: boolean): void;
  setHistoryFilter(patch: Partial<HistoryFilter>): void;
  readonly suiteItems: readonly SuiteRecord[];
  /** A suite run's leaderboard shown in the main area instead of a comparison; null: none. */
  readonly activeSuite: SuiteView | null;
  setSuites(items: readonly SuiteRecord[]): void;
  setActiveSuite(view: SuiteView | null): void;
  setHistory(items: readonly ComparisonListItem[], damaged?: readonly DamagedComparison[]): void;
  setHistoryLoading(): void;
  setHistoryError(message: string): void;
  setOpening(id: string | null): void;
}

export const createHistorySlice: StateCreator<AppState, [], [], HistorySlice> = (set) => ({
  historyItems: [],
  damagedItems: [],
  historyStatus: 'idle',
  historyError: null,
  openingId: null,
  historyFilter: NO_FILTER,
  pendingDeletes: new Set<string>(),
  setPendingDelete: (id, pending) =>
    set((s) => {
      const next = new Set(s.pendingDeletes);
      if (pending) next.add(id);
      else next.delete(id);
      return { pendingDeletes: next };
    }),
  setHistoryFilter: (patch) => set((s) => ({ historyFilter: { ...s.historyFilter, ...patch } })),
  suiteItems: [],
  activeSuite: null,
  setSuites: (suiteItems) => set({ suiteItems }),
  setActiveSuite: (activeSuite) => set({ activeSuite }),
  setHistory: (historyItems, damagedItems = []) => set({ historyItems, damagedItems, historyStatus: 'ready', historyError: null }),
  setHistoryLoading: () => set((s) => ({ historyStatus: s.historyStatus === 'ready' ? 'ready' : 'loading' })),
  setHistoryError: (historyError) => set({ historyStatus: 'error', historyError }),
  setOpening: (openingId) => set({ openingId }),
});
