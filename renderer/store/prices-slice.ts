/** The price table (prices:get) and the price editor's state. */
import type { StateCreator } from 'zustand';
import type { PricesView } from '../../shared/ipc-contract.js';
import type { AppState } from './app-store.js';

export interface PricesSlice {
  readonly prices: PricesView | null;
  readonly pricesStatus: 'idle' | 'loading' | 'ready' | 'error';
  /** Why the table could not be loaded or the last edit failed (the host's own sentence). */
  readonly pricesError: string | null;
  readonly priceEditorOpen: boolean;
  /** The model the editor should start on (from the composer's model field), if any. */
  readonly priceEditorModel: string | null;
  setPrices(view: PricesView): void;
  setPricesLoading(): void;
  setPricesError(message: string | null): void;
  setPriceEditor(open: boolean, model?: string | null): void;
}

export const createPricesSlice: StateCreator<AppState, [], [], PricesSlice> = (set) => ({
  prices: null,
  pricesStatus: 'idle',
  pricesError: null,
  priceEditorOpen: false,
  priceEditorModel: null,
  setPrices: (prices) => set({ prices, pricesStatus: 'ready', pricesError: null }),
  setPricesLoading: () => set((s) => ({ pricesStatus: s.prices ? 'ready' : 'loading' })),
  setPricesError: (pricesError) => set((s) => ({ pricesError, pricesStatus: s.prices ? 'ready' : 'error' })),
  setPriceEditor: (priceEditorOpen, model = null) => set({ priceEditorOpen, priceEditorModel: model }),
});
