/** Selector objects: components pick what they need through these, never by reaching into the state ad hoc. */
import type { ColumnSlot } from '../../shared/column-shades.js';
import type { ModeAggregate } from '../../shared/summary.js';
import type { ModeDifference } from '../../shared/trial-differences.js';
import type { AppState } from './app-store.js';
import { comparisonSummary, trialAggregates, trialDifferences, type ModeRun } from './derived.js';
import { resultStatement, type ResultStatement } from '../../shared/result-statement.js';
import { runStatus } from './run-model.js';
import { runColumn, slotsOf } from './columns.js';
import {
  displayStatus,
  liveTrial,
  shownTrial,
  trialCount,
  trialOf,
  trialsRan,
  trialStates,
  type DisplayStatus,
  type TrialChoice,
  type TrialState,
} from './trial-model.js';

const EMPTY: readonly ModeRun[] = [];
const NO_IDS: readonly string[] = [];

/**
 * A selector that recomputes only when one of its inputs changed (by identity), and keeps its previous result
 * when `same` says the new one is equal: React re-renders on a new identity, so a stable one spares the work.
 */
function memo<T>(
  inputs: (s: AppState) => readonly unknown[],
  compute: (s: AppState) => T,
  same?: (a: T, b: T) => boolean,
): (s: AppState) => T {
  let lastInputs: readonly unknown[] | null = null;
  let last!: T;
  return (s) => {
    const now = inputs(s);
    if (lastInputs && now.length === lastInputs.length && now.every((v, i) => v === lastInputs![i])) return last;
    const next = compute(s);
    if (!lastInputs || !same || !same(last, next)) last = next;
    lastInputs = now;
    return last;
  };
}

const sameModeRuns = (a: readonly ModeRun[], b: readonly ModeRun[]) =>
  a.length === b.length &&
  a.every(
    (m, i) =>
      m.run === b[i]!.run &&
      m.runId === b[i]!.runId &&
      m.column.key === b[i]!.column.key &&
      m.column.label === b[i]!.column.label &&
      m.slot === b[i]!.slot,
  );
const sameList = <T>(a: readonly T[], b: readonly T[]) => a.length === b.length && a.every((v, i) => v === b[i]);

const allModeRuns = memo(
  (s) => [s.active, s.runs],
  (s): readonly ModeRun[] => {
    const meta = s.active?.meta;
    if (!meta) return EMPTY;
    const slots = slotsOf(meta);
    return meta.runs.map((r) => {
      const run = s.runs[r.runId];
      const column = runColumn(meta, r, run);
      return { runId: r.runId, mode: r.mode, trial: trialOf(r), run, column, slot: slots.get(column.key) ?? r.mode };
    });
  },
  sameModeRuns,
);

const states = memo(
  (s) => [s.active, s.runs],
  (s): readonly TrialState[] => (s.active ? trialStates(s.active.meta, s.runs, s.active.interrupted) : []),
  sameList,
);

const ran = memo(
  (s) => [s.active, s.runs],
  (s): readonly boolean[] => (s.active ? trialsRan(s.active.meta, s.runs, states(s)) : []),
  sameList,
);

const shown = (s: AppState): TrialChoice => shownTrial(s.trialChoice, states(s), s.active?.source ?? 'history', ran(s));

const shownModeRuns = memo(
  (s) => [allModeRuns(s), shown(s)],
  (s): readonly ModeRun[] => {
    const t = shown(s);
    const all = allModeRuns(s);
    return t === 'all' ? all : all.filter((m) => m.trial === t);
  },
  sameModeRuns,
);

export const comparisonSelectors = {
  active: (s: AppState) => s.active,
  meta: (s: AppState) => s.active?.meta ?? null,
  starting: (s: AppState) => s.starting,
  startError: (s: AppState) => s.startError,
  /** The runs the columns and charts show (the shown trial's, one per mode), in column order; stable identity. */
  modeRuns: shownModeRuns,
  /** Every run of the active comparison, all trials, in start order. */
  allModeRuns,
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
  /** Each column key's palette slot (store/columns.ts); empty without a comparison. */
  slots: memo(
    (s) => [s.active?.meta],
    (s): ReadonlyMap<string, ColumnSlot> => slotsOf(s.active?.meta),
  ),
  interrupted: (s: AppState) => s.active?.interrupted ?? NO_IDS,
};

export const trialSelectors = {
  /** Trials per mode of the active comparison (1 when it has none). */
  count: (s: AppState) => trialCount(s.active?.meta),
  states,
  /** Per trial: whether any of its runs ran (false: every run was cancelled before it started). */
  ran,
  /** The user's pick, or null while following the trial in progress. */
  choice: (s: AppState) => s.trialChoice,
  shown,
  live: (s: AppState) => liveTrial(states(s)),
  /** Per-mode averages over every trial (shared aggregateByColumn), for the "Average over N trials" table. */
  aggregates: memo(
    (s) => [allModeRuns(s), s.active?.interrupted],
    (s): readonly ModeAggregate[] => trialAggregates(allModeRuns(s), s.active?.interrupted ?? NO_IDS),
  ),
  /** Each column against the baseline (the chosen column, else the first) over every trial, for the sentences under the averages. */
  differences: memo(
    (s) => [allModeRuns(s), s.active?.interrupted, s.baselineColumn],
    (s): readonly ModeDifference[] =>
      trialDifferences(allModeRuns(s), s.active?.interrupted ?? NO_IDS, s.baselineColumn),
  ),
  /** What a run's badge says, 'waiting' included. */
  status:
    (runId: string) =>
    (s: AppState): DisplayStatus => {
      const r = s.active?.meta.runs.find((x) => x.runId === runId);
      return displayStatus(s.runs[runId], runId, r ? trialOf(r) : 1, states(s), s.active?.interrupted ?? NO_IDS);
    },
};

export const resultSelectors = {
  /** The result in words over every run of the active comparison (shared/result-statement.ts), as the reports and CLI give it. */
  statement: memo(
    (s) => [allModeRuns(s), s.active?.interrupted, s.active?.meta.provider.simulated],
    (s): ResultStatement | null => {
      const all = allModeRuns(s);
      if (!s.active || all.length === 0) return null;
      const runs = comparisonSummary(all, s.active.interrupted);
      return resultStatement({
        runs: runs.runs.map((summary, i) => ({ trial: all[i]!.trial, summary })),
        simulated: s.active.meta.provider.simulated,
      });
    },
  ),
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
  /** Comparisons stored, and those matching the filter (the loaded pages are some of them). */
  stored: (s: AppState) => s.historyStored,
  matching: (s: AppState) => s.historyMatching,
  next: (s: AppState) => s.historyNext,
  damaged: (s: AppState) => s.damagedItems,
  status: (s: AppState) => s.historyStatus,
  error: (s: AppState) => s.historyError,
  openingId: (s: AppState) => s.openingId,
  suites: (s: AppState) => s.suiteItems,
  activeSuite: (s: AppState) => s.activeSuite,
};

export const uiSelectors = {
  theme: (s: AppState) => s.theme,
  sidebarTab: (s: AppState) => s.sidebarTab,
  /** Folded only while a comparison is open: without one the panel is all there is to use. */
  sidebarHidden: (s: AppState) => (s.sidebarHidden || s.narrowFold) && s.active !== null,
  mainTab: (s: AppState) => s.mainTab,
  toasts: (s: AppState) => s.toasts,
  confirm: (s: AppState) => s.confirm,
  connection: (s: AppState) => s.connection,
  appInfo: (s: AppState) => s.appInfo,
  exportMenuOpen: (s: AppState) => s.exportMenuOpen,
  otlpDialog: (s: AppState) => s.otlpDialog,
  diffDialog: (s: AppState) => s.diffDialog,
  otlpTarget: (s: AppState) => s.otlpTarget,
};

export const priceSelectors = {
  view: (s: AppState) => s.prices,
  status: (s: AppState) => s.pricesStatus,
  error: (s: AppState) => s.pricesError,
  editorOpen: (s: AppState) => s.priceEditorOpen,
  editorModel: (s: AppState) => s.priceEditorModel,
};
