/** Selector objects: components pick what they need through these, never by reaching into the state ad hoc. */
import type { AppState } from './app-store.js';
import type { ModeRun } from './derived.js';
import { runStatus } from './run-model.js';

const EMPTY: readonly ModeRun[] = [];
const NO_IDS: readonly string[] = [];
let lastActive: AppState['active'] = null;
let lastRuns: AppState['runs'] | null = null;
let lastModeRuns: readonly ModeRun[] = EMPTY;

export const comparisonSelectors = {
  active: (s: AppState) => s.active,
  meta: (s: AppState) => s.active?.meta ?? null,
  starting: (s: AppState) => s.starting,
  startError: (s: AppState) => s.startError,
  /** The active comparison's runs in column order; stable identity while nothing relevant changed. */
  modeRuns: (s: AppState): readonly ModeRun[] => {
    if (s.active === lastActive && s.runs === lastRuns) return lastModeRuns;
    const next = s.active ? s.active.meta.runs.map((r) => ({ runId: r.runId, mode: r.mode, run: s.runs[r.runId] })) : EMPTY;
    const same = next.length === lastModeRuns.length && next.every((m, i) => m.run === lastModeRuns[i]?.run && m.runId === lastModeRuns[i]?.runId);
    lastActive = s.active;
    lastRuns = s.runs;
    if (!same) lastModeRuns = next;
    return lastModeRuns;
  },
  /** True while any run of the active comparison has not finished (and was not found interrupted). */
  isRunning: (s: AppState): boolean => {
    const a = s.active;
    if (!a) return false;
    return a.meta.runs.some((r) => {
      if (a.interrupted.includes(r.runId)) return false;
      const st = runStatus(s.runs[r.runId]);
      return st === 'running' || st === 'pending';
    });
  },
  simulated: (s: AppState) => s.active?.meta.provider.simulated ?? false,
  interrupted: (s: AppState) => s.active?.interrupted ?? NO_IDS,
};

export const runSelectors = {
  run: (runId: string) => (s: AppState) => s.runs[runId],
  isInterrupted: (runId: string) => (s: AppState) => s.active?.interrupted.includes(runId) ?? false,
};

export const composerSelectors = {
  form: (s: AppState) => s.form,
  settings: (s: AppState) => s.form.settings,
  showErrors: (s: AppState) => s.showErrors,
  modelList: (s: AppState) => s.modelList,
  connectionTest: (s: AppState) => s.connectionTest,
  keyStatus: (s: AppState) => s.keyStatus,
  focusRequest: (s: AppState) => s.focusComposer,
};

export const historySelectors = {
  items: (s: AppState) => s.historyItems,
  status: (s: AppState) => s.historyStatus,
  error: (s: AppState) => s.historyError,
  openingId: (s: AppState) => s.openingId,
};

export const uiSelectors = {
  theme: (s: AppState) => s.theme,
  sidebarTab: (s: AppState) => s.sidebarTab,
  mainTab: (s: AppState) => s.mainTab,
  toasts: (s: AppState) => s.toasts,
  confirm: (s: AppState) => s.confirm,
  connection: (s: AppState) => s.connection,
  appInfo: (s: AppState) => s.appInfo,
  exportMenuOpen: (s: AppState) => s.exportMenuOpen,
};
