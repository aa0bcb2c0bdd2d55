import type { BrowserWindow, BrowserWindowConstructorOptions } from 'electron';
import { EventEmitter } from 'node:events';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { openMainWindow } from '../../../electron/main/main-window.js';
import { secureWebPreferences } from '../../../electron/main/security.js';

class FakeWindow extends EventEmitter {
  webContents = Object.assign(new EventEmitter(), {
    reload: vi.fn(),
    url: '',
    getURL(this: { url: string }) {
      return this.url;
    },
  });
  bounds = { x: 0, y: 0, width: 0, height: 0 };
  maximized = false;
  shown = false;
  loaded: string[] = [];
  constructor(readonly options: BrowserWindowConstructorOptions) {
    super();
    this.bounds = { x: options.x ?? -1, y: options.y ?? -1, width: options.width!, height: options.height! };
  }
  maximize() {
    this.maximized = true;
  }
  isMaximized() {
    return this.maximized;
  }
  show() {
    this.shown = true;
  }
  isDestroyed() {
    return false;
  }
  getNormalBounds() {
    return this.bounds;
  }
  async loadURL(url: string) {
    this.loaded.push(url);
  }
}

function setup(saved?: object) {
  const dir = mkdtempSync(path.join(tmpdir(), 'parallax-window-'));
  const stateFile = path.join(dir, 'window-state.json');
  if (saved) writeFileSync(stateFile, JSON.stringify(saved));
  const gate = { markNotReady: vi.fn() };
  let made: FakeWindow | null = null;
  const open = () =>
    openMainWindow({
      createWindow: (options) => (made = new FakeWindow(options)) as unknown as BrowserWindow,
      workAreas: () => [{ x: 0, y: 0, width: 1920, height: 1080 }],
      stateFile,
      preloadPath: '/app/preload.cjs',
      darkBackground: true,
      url: 'app://parallax/index.html',
      gate,
      log: () => undefined,
    }).then(() => made!);
  return { open, gate, stateFile };
}

afterEach(() => vi.useRealTimers());

describe('openMainWindow', () => {
  it('creates a hidden, secure window at the restored bounds and loads the app', async () => {
    const { open } = setup({ x: 100, y: 50, width: 1100, height: 700, maximized: true });
    const win = await open();
    expect(win.options.webPreferences).toEqual(secureWebPreferences('/app/preload.cjs'));
    expect(win.bounds).toEqual({ x: 100, y: 50, width: 1100, height: 700 });
    expect(win.maximized).toBe(true);
    expect(win.loaded).toEqual(['app://parallax/index.html']);
    expect(win.shown).toBe(false);
    win.emit('ready-to-show');
    expect(win.shown).toBe(true);
  });

  it('saves its bounds when it closes', async () => {
    const { open, stateFile } = setup();
    const win = await open();
    win.bounds = { x: 10, y: 20, width: 1000, height: 650 };
    win.emit('close');
    await vi.waitFor(() =>
      expect(JSON.parse(readFileSync(stateFile, 'utf8'))).toEqual({
        x: 10,
        y: 20,
        width: 1000,
        height: 650,
        maximized: false,
      }),
    );
  });

  it('keeps the open view (the page hash) with its bounds, and opens on it next time', async () => {
    const { open, stateFile } = setup();
    const win = await open();
    win.webContents.url = 'app://parallax/index.html#/comparison/20261201-1?tab=charts';
    win.emit('close');
    await vi.waitFor(() =>
      expect(JSON.parse(readFileSync(stateFile, 'utf8')).view).toBe('#/comparison/20261201-1?tab=charts'),
    );
    const again = await open();
    expect(again.loaded).toEqual(['app://parallax/index.html#/comparison/20261201-1?tab=charts']);
  });

  it('holds events while a new document loads, not on in-page navigation', async () => {
    const { open, gate } = setup();
    const win = await open();
    win.webContents.emit('did-start-navigation', { isMainFrame: true, isSameDocument: true });
    win.webContents.emit('did-start-navigation', { isMainFrame: false, isSameDocument: false });
    expect(gate.markNotReady).not.toHaveBeenCalled();
    win.webContents.emit('did-start-navigation', { isMainFrame: true, isSameDocument: false });
    expect(gate.markNotReady).toHaveBeenCalledTimes(1);
  });

  it('reloads a crashed renderer, but not in a loop', async () => {
    const { open, gate } = setup();
    const win = await open();
    win.webContents.emit('render-process-gone', {}, { reason: 'crashed', exitCode: 139 });
    win.webContents.emit('render-process-gone', {}, { reason: 'crashed', exitCode: 139 });
    expect(win.webContents.reload).toHaveBeenCalledTimes(1);
    expect(gate.markNotReady).toHaveBeenCalledTimes(2);
    win.webContents.emit('render-process-gone', {}, { reason: 'clean-exit', exitCode: 0 });
    expect(win.webContents.reload).toHaveBeenCalledTimes(1);
  });
});
