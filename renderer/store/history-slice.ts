/**
 * The stored comparisons as far as loaded (history:page, newest first, the list's filter applied by the host),
 * how many there are in all, the suite runs (suites:list), and the suite run on screen.
 */
import type { StateCreator } from 'zustand';
import type { ComparisonListItem, DamagedComparison, HistoryPage } from '../../shared/ipc-contract.js';
import type { SuiteRecord } from '../../shared/suite.js';
import type { SuiteView } from '../../shared/suite-leaderboard.js';
import type { AppState } from './app-store.js';
import { NO_FILTER, type HistoryFilter } from './history-filter.js';

export interface HistorySlice {
  /** The pages loaded so far, in order. */
  readonly historyItems: readonly ComparisonListItem[];
  /** How many comparisons match the filter (all pages), and how many are stored. */
  readonly historyMatching: number;
  readonly historyStored: number;
  /** Where the next page starts; null: every match is loaded. */
  readonly historyNext: number | null;
  /** A further page being loaded, or the error that stopped it. */
  readonly historyMore: 'idle' | 'loading' | { readonly error: string };
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
  /** The first page (replacing what was loaded), or a further one appended (`append`). */
  setHistoryPage(
    page: Pick<HistoryPage, 'items' | 'total' | 'stored' | 'nextOffset'>,
    options?: { damaged?: readonly DamagedComparison[]; append?: boolean },
  ): void;
  setHistoryMore(state: HistorySlice['historyMore']): void;
  setHistoryLoading(): void;
  setHistoryError(message: string): void;
  setOpening(id: string | null): void;
}

export const createHistorySlice: StateCreator<AppState, [], [], HistorySlice> = (set) => ({
  historyItems: [],
  historyMatching: 0,
  historyStored: 0,
  historyNext: null,
  historyMore: 'idle',
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
  setHistoryPage: (page, options = {}) =>
    set((s) => {
      // A comparison stored meanwhile shifts the pages by one: one already loaded is not listed twice.
      const loaded = options.append ? new Set(s.historyItems.map((i) => i.meta.id)) : null;
      const items = loaded ? [...s.historyItems, ...page.items.filter((i) => !loaded.has(i.meta.id))] : page.items;
      return {
        historyItems: items,
        historyMatching: page.total,
        historyStored: page.stored,
        historyNext: page.nextOffset,
        historyMore: 'idle',
        ...(options.damaged ? { damagedItems: options.damaged } : {}),
        ...(options.append ? {} : { historyStatus: 'ready' as const, historyError: null }),
      };
    }),
  setHistoryMore: (historyMore) => set({ historyMore }),
  setHistoryLoading: () => set((s) => ({ historyStatus: s.historyStatus === 'ready' ? 'ready' : 'loading' })),
  setHistoryError: (historyError) => set({ historyStatus: 'error', historyError }),
  setOpening: (openingId) => set({ openingId }),
});
