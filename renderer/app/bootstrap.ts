/**
 * Wires the host to the store once at startup: connection state, the frame-batched event stream, menu
 * commands, keyboard shortcuts, saved preferences, and the first reads (app info, keys, history).
 */
import type { KeyStatus } from '../../shared/ipc-contract.js';
import { findPreset } from '../../shared/providers.js';
import { getTransport, invoke } from '../api/client.js';
import { appStore } from '../store/app-store.js';
import { savedForm } from '../store/composer-model.js';
import { comparisonSelectors } from '../store/selectors.js';
import { createEventBuffer } from '../stream/event-buffer.js';
import {
  cancelComparison,
  loadModels,
  openComparison,
  refreshHistory,
  refreshHistorySoon,
  runCommand,
  runComparison,
  toggleSidebar,
  viewAsks,
} from './actions.js';
import { loadPrefs, savePrefs } from './prefs.js';
import { loadPrices } from './price-actions.js';
import { followStoreInUrl, restoreFromUrl } from './url-state.js';

const st = () => appStore.getState();

export const eventBuffer = createEventBuffer((events) => {
  st().applyEvents(events);
  if (events.some((e) => e.type === 'run-finished')) refreshHistorySoon();
});

function installShortcuts(): void {
  window.addEventListener('keydown', (e) => {
    if (e.defaultPrevented) return;
    if (e.key === 'Enter' && (e.ctrlKey || e.metaKey)) {
      e.preventDefault();
      void runComparison();
      return;
    }
    // Mod+B folds the side panel while a comparison is open (nothing else would fill the window without one).
    if (e.key.toLowerCase() === 'b' && (e.ctrlKey || e.metaKey) && !e.shiftKey && !e.altKey && st().active) {
      e.preventDefault();
      toggleSidebar();
      return;
    }
    if (e.key === 'Escape' && !st().confirm && !st().exportMenuOpen && comparisonSelectors.isRunning(st())) {
      e.preventDefault();
      void cancelComparison();
    }
  });
}

function applyTheme(): void {
  let current = '';
  const set = () => {
    const theme = st().theme;
    if (theme === current) return;
    current = theme;
    document.documentElement.dataset.theme = theme;
    document.documentElement.style.colorScheme = theme;
  };
  set();
  appStore.subscribe(set);
}

/** The simulated model is the default unless the saved provider is usable (its key is stored, or it needs none). */
function chooseStartingProvider(keys: Readonly<Record<string, KeyStatus>>): void {
  const form = st().form;
  const preset = findPreset(form.providerName);
  if (!preset || (preset.needsKey && !keys[preset.name]?.available)) st().chooseProvider('simulated');
}

/** Below this window width the side panel beside a comparison would leave its columns too little room. */
export const NARROW_WINDOW = '(max-width: 1099px)';

/**
 * The side panel folds by itself when the window is narrow: on becoming narrow, and when a comparison opens in a
 * narrow window. It comes back when the window widens again (unless the user folded it), or at one click.
 */
function foldWhenNarrow(): void {
  const query = window.matchMedia?.(NARROW_WINDOW);
  if (!query) return;
  st().setNarrowFold(query.matches);
  query.addEventListener('change', (e) => st().setNarrowFold(e.matches));
  appStore.subscribe((s, prev) => {
    if (query.matches && s.active && s.active.meta.id !== prev.active?.meta.id) st().setNarrowFold(true);
  });
}

export async function bootstrap(): Promise<void> {
  const prefs = loadPrefs();
  if (prefs.form) st().setForm(savedForm(prefs.form));
  st().setTheme(prefs.theme ?? (window.matchMedia?.('(prefers-color-scheme: dark)').matches ? 'dark' : 'light'));
  st().setSidebarHidden(prefs.sidebarHidden ?? false);
  applyTheme();
  appStore.subscribe((s, prev) => {
    if (s.form !== prev.form || s.theme !== prev.theme || s.sidebarHidden !== prev.sidebarHidden)
      savePrefs({ form: savedForm(s.form), theme: s.theme, sidebarHidden: s.sidebarHidden });
  });
  foldWhenNarrow();

  const transport = getTransport();
  st().setConnection(transport.connection());
  let wasOpen = transport.connection().status === 'open';
  transport.onConnection((state) => {
    st().setConnection(state);
    if (state.status === 'open' && !wasOpen) void onConnected(true);
    wasOpen = state.status === 'open';
  });
  transport.on('run:events', (batch) => eventBuffer.push(batch));
  transport.on('menu:command', (command) => runCommand(command));
  installShortcuts();
  // Read before the store moves the hash: what the URL opened with is what to restore, unless the user asks the
  // main view for something (Run is live as soon as the socket is) before the host has answered.
  const openedWith = location.hash;
  const asksBefore = viewAsks();
  followStoreInUrl();
  await onConnected(false);
  if (st().appInfo) await restoreFromUrl(openedWith, asksBefore);
}

/** First connection, and every reconnection: announce readiness, re-read state the host owns. */
async function onConnected(reconnect: boolean): Promise<void> {
  try {
    st().setAppInfo(await invoke('app:info'));
    await invoke('app:ready');
  } catch {
    return; // The banner shows the connection problem; the next reconnection retries.
  }
  const keys = await invoke('keys:status').catch(() => ({}));
  st().setKeyStatus(keys);
  if (!reconnect) chooseStartingProvider(keys);
  void refreshHistory();
  void loadModels();
  void loadPrices();
  // Events pushed while the socket was down are lost; the host's stored copy fills the gap (seq dedupes).
  const active = st().active;
  if (reconnect && active) void openComparison(active.meta.id, active.source);
}
