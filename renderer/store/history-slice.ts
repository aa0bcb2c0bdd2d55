/** The stored comparisons (history:list). */
import type { StateCreator } from 'zustand';
import type { ComparisonListItem } from '../../shared/ipc-contract.js';
import type { AppState } from './app-store.js';

export interface HistorySlice {
  readonly historyItems: readonly ComparisonListItem[];
  readonly historyStatus: 'idle' | 'loading' | 'ready' | 'error';
  readonly historyError: string | null;
  /** The comparison being opened (history:open in flight). */
  readonly openingId: string | null;
  setHistory(items: readonly ComparisonListItem[]): void;
  setHistoryLoading(): void;
  setHistoryError(message: string): void;
  setOpening(id: string | null): void;
}

export const createHistorySlice: StateCreator<AppState, [], [], HistorySlice> = (set) => ({
  historyItems: [],
  historyStatus: 'idle',
  historyError: null,
  openingId: null,
  setHistory: (historyItems) => set({ historyItems, historyStatus: 'ready', historyError: null }),
  setHistoryLoading: () => set((s) => ({ historyStatus: s.historyStatus === 'ready' ? 'ready' : 'loading' })),
  setHistoryError: (historyError) => set({ historyStatus: 'error', historyError }),
  setOpening: (openingId) => set({ openingId }),
});
