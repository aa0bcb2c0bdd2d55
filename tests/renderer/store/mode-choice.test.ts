/** Which modes a comparison runs: in the app's order whatever the ticking order, at least one, saved across restarts. */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { DEFAULT_MODES, MODE_IDS } from '../../../shared/run-spec.js';
import { loadPrefs } from '../../../renderer/app/prefs.js';
import { createAppStore } from '../../../renderer/store/app-store.js';
import { buildRequest, orderModes } from '../../../renderer/store/composer-model.js';

function withSaved(prefs: unknown): void {
  const data = new Map([['parallax.prefs.v1', JSON.stringify(prefs)]]);
  vi.stubGlobal('localStorage', { getItem: (k: string) => data.get(k) ?? null, setItem: () => {} });
}

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('mode choice', () => {
  it('keeps the chosen modes in MODE_IDS order and drops names it does not know', () => {
    expect(orderModes([...MODE_IDS].reverse())).toEqual([...MODE_IDS]);
    expect(orderModes(['not-a-mode', MODE_IDS[MODE_IDS.length - 1]!, MODE_IDS[0]!])).toEqual([
      MODE_IDS[0],
      MODE_IDS[MODE_IDS.length - 1],
    ]);
    expect(orderModes([])).toEqual([]);
  });

  it('starts with the default modes picked', () => {
    expect(createAppStore().getState().form.modes).toEqual([...DEFAULT_MODES]);
    expect(DEFAULT_MODES.length).toBeGreaterThan(0);
  });

  it('ticking modes in any order gives columns in MODE_IDS order, so the first mode stays the baseline', () => {
    const store = createAppStore();
    for (const m of MODE_IDS) store.getState().toggleMode(m, false);
    expect(store.getState().form.modes).toEqual([]);
    for (const m of [...MODE_IDS].reverse()) store.getState().toggleMode(m, true);
    expect(store.getState().form.modes).toEqual([...MODE_IDS]);
    expect(buildRequest(store.getState().form).request?.modes).toEqual([...MODE_IDS]);
    store.getState().toggleMode(MODE_IDS[0]!, false);
    expect(store.getState().form.modes).toEqual(MODE_IDS.slice(1));
  });

  it('refuses to build a request with no mode', () => {
    const store = createAppStore();
    for (const m of MODE_IDS) store.getState().toggleMode(m, false);
    const { request, errors } = buildRequest(store.getState().form);
    expect(request).toBeNull();
    expect(errors.modes).toBe('Pick at least one mode.');
  });

  it('restores saved modes in order, without ones this version does not know', () => {
    withSaved({ form: { modes: [MODE_IDS[1], 'retired-mode', MODE_IDS[0]] } });
    expect(loadPrefs().form?.modes).toEqual([MODE_IDS[0], MODE_IDS[1]]);
    // Only unknown names: the defaults stay rather than an empty choice the user never made.
    withSaved({ form: { modes: ['retired-mode'] } });
    expect(loadPrefs().form).not.toHaveProperty('modes');
    // An empty choice the user did make is kept (the composer then asks for a mode).
    withSaved({ form: { modes: [] } });
    expect(loadPrefs().form?.modes).toEqual([]);
  });
});
