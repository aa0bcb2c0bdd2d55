import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  DEFAULT_WINDOW_SIZE,
  fitToDisplays,
  loadWindowState,
  parseWindowState,
  saveWindowState,
} from '../../../electron/main/window-state.js';

const laptop = { x: 0, y: 0, width: 1440, height: 875 };
const rightMonitor = { x: 1440, y: 0, width: 2560, height: 1415 };

describe('parseWindowState', () => {
  it('rejects anything malformed', () => {
    for (const bad of [
      null,
      'x',
      [],
      {},
      { width: 'wide', height: 600 },
      { width: 0, height: 600 },
      { width: Infinity, height: 600 },
    ]) {
      expect(parseWindowState(bad), JSON.stringify(bad)).toBeNull();
    }
  });

  it('keeps a position only when both coordinates are numbers', () => {
    expect(parseWindowState({ x: 10.4, y: 'top', width: 900, height: 600, maximized: 'yes' })).toEqual({
      width: 900,
      height: 600,
      maximized: false,
    });
    expect(parseWindowState({ x: 10.4, y: 20, width: 900, height: 600, maximized: true })).toEqual({
      x: 10,
      y: 20,
      width: 900,
      height: 600,
      maximized: true,
    });
  });
});

describe('the open view', () => {
  it("keeps the renderer's hash and drops anything else", () => {
    const base = { width: 900, height: 600 };
    expect(parseWindowState({ ...base, view: '#/comparison/20261201-1?tab=charts' })).toMatchObject({
      view: '#/comparison/20261201-1?tab=charts',
    });
    for (const bad of ['javascript:alert(1)', '#/other', `#/comparison/${'x'.repeat(500)}`, '#/comparison/a b', 42]) {
      expect(parseWindowState({ ...base, view: bad }), String(bad)).not.toHaveProperty('view');
    }
    expect(fitToDisplays({ ...base, maximized: false, view: '#/comparison/a' }, [laptop]).view).toBe('#/comparison/a');
    expect(fitToDisplays({ x: 10, y: 10, ...base, maximized: false, view: '#/comparison/a' }, [laptop]).view).toBe(
      '#/comparison/a',
    );
  });
});

describe('fitToDisplays', () => {
  it('uses the defaults, centred, when nothing was saved', () => {
    expect(fitToDisplays(null, [laptop])).toEqual({ ...DEFAULT_WINDOW_SIZE, maximized: false });
  });

  it('keeps a window that is on a display', () => {
    const s = { x: 1600, y: 100, width: 1200, height: 800, maximized: false };
    expect(fitToDisplays(s, [laptop, rightMonitor])).toEqual(s);
  });

  it('re-centres a window whose display is gone', () => {
    const s = { x: 2000, y: 100, width: 1200, height: 800, maximized: true };
    expect(fitToDisplays(s, [laptop])).toEqual({ width: 1200, height: 800, maximized: true });
  });

  it('pulls a window that hangs off the edge fully onto its display', () => {
    const s = { x: 1300, y: -50, width: 1000, height: 700, maximized: false };
    expect(fitToDisplays(s, [laptop])).toEqual({ x: 440, y: 0, width: 1000, height: 700, maximized: false });
  });

  it('shrinks a window larger than its display and grows one below the minimum', () => {
    expect(fitToDisplays({ x: 0, y: 0, width: 5000, height: 3000, maximized: false }, [laptop])).toEqual({
      x: 0,
      y: 0,
      width: 1440,
      height: 875,
      maximized: false,
    });
    expect(fitToDisplays({ x: 0, y: 0, width: 200, height: 100, maximized: false }, [laptop])).toMatchObject({
      width: 880,
      height: 560,
    });
  });

  it('ignores a sliver of overlap: too little of the window would be visible to grab', () => {
    const s = { x: 1400, y: 0, width: 1000, height: 700, maximized: false };
    expect(fitToDisplays(s, [laptop])).toEqual({ width: 1000, height: 700, maximized: false });
  });
});

describe('load and save', () => {
  it('round-trips through the file and survives a damaged one', async () => {
    const file = path.join(mkdtempSync(path.join(tmpdir(), 'parallax-win-')), 'sub', 'window-state.json');
    expect(await loadWindowState(file, [laptop])).toEqual({ ...DEFAULT_WINDOW_SIZE, maximized: false });
    await saveWindowState(file, { x: 50, y: 60, width: 1000, height: 700, maximized: true });
    expect(await loadWindowState(file, [laptop])).toEqual({ x: 50, y: 60, width: 1000, height: 700, maximized: true });
    writeFileSync(file, '{"width":');
    expect(await loadWindowState(file, [laptop])).toEqual({ ...DEFAULT_WINDOW_SIZE, maximized: false });
  });
});
