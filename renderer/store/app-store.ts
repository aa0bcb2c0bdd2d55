/**
 * The one store, composed of slices. Components read it through the selector objects in selectors.ts;
 * stream events reach it only through the frame-batched buffer (stream/event-buffer.ts).
 */
import { createStore, useStore, type StoreApi } from 'zustand';
import { createComposerSlice, type ComposerSlice } from './composer-slice.js';
import { createHistorySlice, type HistorySlice } from './history-slice.js';
import { createPricesSlice, type PricesSlice } from './prices-slice.js';
import { createRunsSlice, type RunsSlice } from './runs-slice.js';
import { createUiSlice, type UiSlice } from './ui-slice.js';

export type AppState = RunsSlice & ComposerSlice & HistorySlice & UiSlice & PricesSlice;

export function createAppStore(): StoreApi<AppState> {
  return createStore<AppState>()((...a) => ({
    ...createRunsSlice(...a),
    ...createComposerSlice(...a),
    ...createHistorySlice(...a),
    ...createUiSlice(...a),
    ...createPricesSlice(...a),
  }));
}

export const appStore = createAppStore();

export function useApp<T>(selector: (s: AppState) => T): T {
  return useStore(appStore, selector);
}
