/** The side panel folds away for room while a comparison is open, and comes back whenever it is asked for. */
import { describe, expect, it, vi } from 'vitest';
import type { ComparisonMeta } from '../../../shared/ipc-contract.js';
import { MODE_IDS } from '../../../shared/run-spec.js';
import { loadPrefs } from '../../../renderer/app/prefs.js';
import { createAppStore } from '../../../renderer/store/app-store.js';
import { uiSelectors } from '../../../renderer/store/selectors.js';

const meta: ComparisonMeta = {
  id: 'c1',
  createdAt: 0,
  task: { id: 'time-and-title', text: 'x' },
  provider: { name: 'simulated', baseUrl: '', model: 'sim', simulated: true },
  settings: {} as never,
  runs: MODE_IDS.map((mode, i) => ({ runId: `r${i}`, mode })),
  workspaceSource: 'time-and-title',
};

describe('side panel', () => {
  it('folds only while a comparison is open: without one it is all there is', () => {
    const store = createAppStore();
    store.getState().setSidebarHidden(true);
    expect(uiSelectors.sidebarHidden(store.getState())).toBe(false);
    store.getState().showComparison({ meta, source: 'history', interrupted: [] }, []);
    expect(uiSelectors.sidebarHidden(store.getState())).toBe(true);
    store.getState().clearComparison();
    expect(uiSelectors.sidebarHidden(store.getState())).toBe(false);
  });

  it('comes back for New comparison and for History', () => {
    const store = createAppStore();
    store.getState().showComparison({ meta, source: 'history', interrupted: [] }, []);
    store.getState().setSidebarHidden(true);
    store.getState().requestComposerFocus();
    expect(uiSelectors.sidebarHidden(store.getState())).toBe(false);
    store.getState().setSidebarHidden(true);
    store.getState().setSidebarTab('history');
    expect(uiSelectors.sidebarHidden(store.getState())).toBe(false);
  });

  it('folds by itself in a narrow window, and a click of the user wins until the window changes again', () => {
    const store = createAppStore();
    store.getState().showComparison({ meta, source: 'history', interrupted: [] }, []);
    store.getState().setNarrowFold(true);
    expect(uiSelectors.sidebarHidden(store.getState())).toBe(true);
    // The user opens it (the toolbar's toggle): shown, and the fold is let go, though the window is still narrow.
    store.getState().setSidebarHidden(false);
    expect(uiSelectors.sidebarHidden(store.getState())).toBe(false);
    // Widened again: the user's own choice (shown) stands; narrowed: folded again.
    store.getState().setNarrowFold(false);
    expect(uiSelectors.sidebarHidden(store.getState())).toBe(false);
    store.getState().setNarrowFold(true);
    expect(uiSelectors.sidebarHidden(store.getState())).toBe(true);
    // New comparison brings it back at once.
    store.getState().requestComposerFocus();
    expect(uiSelectors.sidebarHidden(store.getState())).toBe(false);
    // The fold is never the saved choice: only sidebarHidden is.
    expect(store.getState().sidebarHidden).toBe(false);
  });

  it('remembers the choice across restarts', () => {
    const data = new Map([['parallax.prefs.v1', JSON.stringify({ sidebarHidden: true })]]);
    vi.stubGlobal('localStorage', { getItem: (k: string) => data.get(k) ?? null, setItem: () => {} });
    try {
      expect(loadPrefs().sidebarHidden).toBe(true);
      data.set('parallax.prefs.v1', JSON.stringify({ theme: 'dark' }));
      expect(loadPrefs().sidebarHidden).toBe(false);
    } finally {
      vi.unstubAllGlobals();
    }
  });
});
