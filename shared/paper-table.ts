/**
 * A suite as a benchmark paper tables it: per model, per mode, the success rate and the average number of
 * turns (model requests) over every task and trial, as the CodeAct paper tables M3ToolEval, beside what only
 * Parallax measures: tokens per task (a run's total), per step (a run's total over its steps) and in all.
 * Each mode is set against the first with the same interval and paired permutation test as a comparison's
 * trials (trial-differences.ts), runs paired by task and trial.
 */
import { matrixRowOf } from './matrix.js';
import { COLUMN_MODE_IDS, type ModeId } from './modes.js';
import { aggregateByMode, countsInFigures, type RunSummary, type Stat } from './summary.js';
import { differencesByMode, type ModeDifference, type TrialRun } from './trial-differences.js';
import type { RateStat } from './trial-stats.js';
import { meanStat } from './trial-stats.js';

export interface PaperCell {
  readonly mode: ModeId;
  /** Runs in the cell (every task × trial that ran this mode for this model). */
  readonly runs: number;
  readonly passed: number;
  /** Passed over the runs that ran, with Wilson's 95 % interval. */
  readonly success: RateStat | null;
  /** Model requests per run (the paper's turns), over the runs that ended by themselves. */
  readonly turns: Stat | null;
  /** Total tokens per run. */
  readonly tokensPerTask: Stat | null;
  /** Each run's total tokens over its steps, averaged over the runs. */
  readonly tokensPerStep: Stat | null;
  /** Every counted run's tokens added up. */
  readonly tokensInAll: number | null;
}

export interface PaperRow {
  /** The model (or what else the columns vary besides the mode). */
  readonly model: string;
  /** One per mode of `PaperTable.modes`; null where the model did not run that mode. */
  readonly cells: readonly (PaperCell | null)[];
  /** Each mode against the first mode of the row, on success, turns and total tokens. */
  readonly differences: readonly ModeDifference[];
}

export interface PaperTable {
  readonly modes: readonly ModeId[];
  readonly rows: readonly PaperRow[];
}

export interface PaperTaskRuns {
  readonly taskId: string;
  /** The task's runs with their trial numbers, each judged (RunSummary.validation). */
  readonly runs: readonly { readonly trial: number; readonly summary: RunSummary }[];
}

const DIFFERENCE_FIGURES = new Set(['passRate', 'steps', 'total']);

/** The table over a suite's tasks; `order` puts the modes in the order asked (the paper's: text, JSON, code). */
export function paperTable(tasks: readonly PaperTaskRuns[], order: readonly ModeId[] = COLUMN_MODE_IDS): PaperTable {
  const all = tasks.flatMap((t) => t.runs.map((r) => r.summary));
  const present = new Set(all.map((r) => r.mode));
  const modes = [...order.filter((m) => present.has(m)), ...COLUMN_MODE_IDS.filter((m) => present.has(m) && !order.includes(m))];
  const models: string[] = [];
  for (const r of all) if (!models.includes(matrixRowOf(r))) models.push(matrixRowOf(r));
  const maxTrial = Math.max(1, ...tasks.flatMap((t) => t.runs.map((r) => r.trial)));
  const rows = models.map((model): PaperRow => {
    const cells = modes.map((mode): PaperCell | null => {
      const runs = all.filter((r) => r.mode === mode && matrixRowOf(r) === model);
      if (runs.length === 0) return null;
      const a = aggregateByMode(runs.map((r) => ({ ...r, column: { key: 'cell', label: mode } })))[0]!;
      const counted = runs.filter(countsInFigures);
      const perStep = counted.filter((r) => r.totals.steps > 0).map((r) => r.totals.total / r.totals.steps);
      return {
        mode, runs: runs.length, passed: a.passed, success: a.passRate, turns: a.steps, tokensPerTask: a.total,
        tokensPerStep: meanStat(perStep), tokensInAll: counted.length ? counted.reduce((s, r) => s + r.totals.total, 0) : null,
      };
    });
    // Pairs by task and trial: round = task index × trials + trial, so a mode's run meets its baseline's on the same task.
    const trialRuns: TrialRun[] = tasks.flatMap((t, i) => t.runs
      .filter((r) => matrixRowOf(r.summary) === model)
      .map((r) => ({ trial: i * maxTrial + r.trial, summary: { ...r.summary, column: { key: r.summary.mode, label: r.summary.column.label.split(' · ')[0] ?? r.summary.mode } } })));
    const baseline = modes.find((m) => trialRuns.some((r) => r.summary.mode === m)) ?? null;
    const differences = differencesByMode(trialRuns, baseline).filter((d) => DIFFERENCE_FIGURES.has(d.figure));
    return { model, cells, differences };
  });
  return { modes, rows };
}
