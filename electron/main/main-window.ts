/**
 * The one Parallax window: secure preferences, restored bounds, ready-gated event delivery and a reload
 * path when its renderer dies.
 */
import type { BrowserWindow, BrowserWindowConstructorOptions } from 'electron';
import type { PageGate } from '../host/page-gate.js';
import { mainWindowOptions } from './security.js';
import { loadWindowState, saveWindowState, type Rect, type WindowState } from './window-state.js';

export interface MainWindowDeps {
  readonly createWindow: (options: BrowserWindowConstructorOptions) => BrowserWindow;
  /** Work areas of the displays, the primary first. */
  readonly workAreas: () => Rect[];
  readonly stateFile: string;
  readonly preloadPath: string;
  readonly iconPath?: string;
  readonly darkBackground: boolean;
  /** app://parallax/index.html, or the dev server URL. */
  readonly url: string;
  readonly gate: Pick<PageGate, 'markNotReady'>;
  readonly log: (message: string) => void;
}

const SAVE_DELAY_MS = 500;

/** The hash of the page's URL, or '' (a URL that does not parse has none). */
export function viewOf(url: string): string {
  try {
    return new URL(url).hash;
  } catch {
    return '';
  }
}

export async function openMainWindow(deps: MainWindowDeps): Promise<BrowserWindow> {
  const state = await loadWindowState(deps.stateFile, deps.workAreas());
  const win = deps.createWindow(
    mainWindowOptions({
      preloadPath: deps.preloadPath,
      bounds: { x: state.x, y: state.y, width: state.width, height: state.height },
      iconPath: deps.iconPath,
      darkBackground: deps.darkBackground,
    }),
  );
  if (state.maximized) win.maximize();
  win.once('ready-to-show', () => win.show());

  let saveTimer: NodeJS.Timeout | null = null;
  const save = (): void => {
    if (saveTimer) clearTimeout(saveTimer);
    saveTimer = null;
    if (win.isDestroyed()) return;
    const b = win.getNormalBounds();
    const hash = viewOf(win.webContents.getURL());
    const next: WindowState = {
      x: b.x,
      y: b.y,
      width: b.width,
      height: b.height,
      maximized: win.isMaximized(),
      ...(hash ? { view: hash } : {}),
    };
    void saveWindowState(deps.stateFile, next).catch((err: unknown) =>
      deps.log(`could not save the window state: ${String(err)}`),
    );
  };
  const saveSoon = (): void => {
    if (saveTimer) clearTimeout(saveTimer);
    saveTimer = setTimeout(save, SAVE_DELAY_MS);
  };
  win.on('resize', saveSoon);
  win.on('move', saveSoon);
  win.on('close', save);
  // The renderer moves the hash as views open (url-state.ts): kept with the window for the next start.
  win.webContents.on('did-navigate-in-page', saveSoon);

  const contents = win.webContents;
  // A new document will not have the old page's state: hold events until it says 'app:ready' again.
  contents.on('did-start-navigation', (details) => {
    if (details.isMainFrame && !details.isSameDocument) deps.gate.markNotReady();
  });
  win.on('closed', () => deps.gate.markNotReady());

  let lastCrash = 0;
  contents.on('render-process-gone', (_event, details) => {
    deps.gate.markNotReady();
    deps.log(`the window's renderer ended (${details.reason}, exit code ${details.exitCode})`);
    if (details.reason === 'clean-exit' || win.isDestroyed()) return;
    // Reload once per ten seconds at most, so a page that crashes on load does not spin.
    const now = Date.now();
    if (now - lastCrash > 10_000) contents.reload();
    lastCrash = now;
  });

  const url = state.view && !deps.url.includes('#') ? `${deps.url}${state.view}` : deps.url;
  await win.loadURL(url).catch((err: unknown) => {
    deps.log(`could not load ${deps.url}: ${err instanceof Error ? err.message : String(err)}`);
  });
  return win;
}
