/**
 * A suite as a benchmark paper tables it: per model, per mode, the success rate and the average number of
 * turns (model requests) over every task and trial, as the CodeAct paper tables M3ToolEval, beside what only
 * Parallax measures: tokens per task (a run's total), per step (a run's total over its steps) and in all.
 * Each mode is set against the first with the same interval and paired permutation test as a comparison's
 * trials (trial-differences.ts), runs paired by task and trial.
 */
import { matrixRowOf } from './matrix.js';
import { COLUMN_MODE_IDS, type ModeId } from './modes.js';
import { aggregateByColumn, countsInFigures, type RunSummary, type Stat } from './summary.js';
import { differencesByMode, type ModeDifference, type TrialRun } from './trial-differences.js';
import type { RateStat } from './trial-stats.js';
import { meanStat } from './trial-stats.js';
import { formatWithInterval } from './trial-differences.js';
import { formatInt, formatMean } from './number-format.js';
import type { BoardTable } from './suite-leaderboard.js';

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
const FIGURE_ORDER: readonly string[] = ['passRate', 'steps', 'total'];

/** The table over a suite's tasks; `order` puts the modes in the order asked (the paper's: text, JSON, code). */
export function paperTable(tasks: readonly PaperTaskRuns[], order: readonly ModeId[] = COLUMN_MODE_IDS): PaperTable {
  const all = tasks.flatMap((t) => t.runs.map((r) => r.summary));
  const present = new Set(all.map((r) => r.mode));
  const modes = [
    ...order.filter((m) => present.has(m)),
    ...COLUMN_MODE_IDS.filter((m) => present.has(m) && !order.includes(m)),
  ];
  const models: string[] = [];
  for (const r of all) if (!models.includes(matrixRowOf(r))) models.push(matrixRowOf(r));
  const maxTrial = Math.max(1, ...tasks.flatMap((t) => t.runs.map((r) => r.trial)));
  const rows = models.map((model): PaperRow => {
    const cells = modes.map((mode): PaperCell | null => {
      const runs = all.filter((r) => r.mode === mode && matrixRowOf(r) === model);
      if (runs.length === 0) return null;
      const a = aggregateByColumn(runs.map((r) => ({ ...r, column: { key: 'cell', label: mode } })))[0]!;
      const counted = runs.filter(countsInFigures);
      const perStep = counted.filter((r) => r.totals.steps > 0).map((r) => r.totals.total / r.totals.steps);
      return {
        mode,
        runs: runs.length,
        passed: a.passed,
        success: a.passRate,
        turns: a.steps,
        tokensPerTask: a.total,
        tokensPerStep: meanStat(perStep),
        tokensInAll: counted.length ? counted.reduce((s, r) => s + r.totals.total, 0) : null,
      };
    });
    // Pairs by task and trial: round = task index × trials + trial, so a mode's run meets its baseline's on the same task.
    const trialRuns: TrialRun[] = tasks.flatMap((t, i) =>
      t.runs
        .filter((r) => matrixRowOf(r.summary) === model)
        .map((r) => ({
          trial: i * maxTrial + r.trial,
          summary: {
            ...r.summary,
            column: { key: r.summary.mode, label: r.summary.column.label.split(' · ')[0] ?? r.summary.mode },
          },
        })),
    );
    const baseline = modes.find((m) => trialRuns.some((r) => r.summary.mode === m)) ?? null;
    // Success first, then turns, then tokens, as the paper reads; its pairs are runs of one task and trial, not trials.
    const differences = differencesByMode(trialRuns, baseline)
      .filter((d) => DIFFERENCE_FIGURES.has(d.figure))
      .sort((a, b) => FIGURE_ORDER.indexOf(a.figure) - FIGURE_ORDER.indexOf(b.figure))
      .map((d) => ({
        ...d,
        sentence: d.sentence
          .replace(/(\d+) paired trials/g, '$1 pairs of runs, one per task and trial')
          .replace(/(\d+) trials cannot/g, '$1 pairs cannot'),
      }));
    return { model, cells, differences };
  });
  return { modes, rows };
}

const pct = (v: number) => `${(v * 100).toFixed(1)} %`;

/** "41/82 · 50.0 % (39.4–60.6 %)": passed of the runs, the rate and Wilson's interval. */
function successCell(c: PaperCell): string {
  if (!c.success) return '—';
  return `${c.passed}/${c.success.n} · ${pct(c.success.rate)} (${(c.success.ci95[0] * 100).toFixed(1)}–${pct(c.success.ci95[1])})`;
}

/** The table as rows of words (one per model and mode), as every surface prints it. */
export function paperBoard(table: PaperTable, simulated: boolean, label: (m: ModeId) => string): BoardTable {
  const sim = simulated ? ' (simulated)' : '';
  const stat = (s: Stat | null, digits = 0) =>
    s ? formatWithInterval(s, (n) => (digits ? n.toFixed(digits) : formatMean(n))) : '—';
  return {
    head: [
      'Model',
      'Mode',
      'Success (95 % CI)',
      'Avg turns',
      `Tokens per task${sim}`,
      `Tokens per step${sim}`,
      `Tokens in all${sim}`,
    ],
    align: ['l', 'l', 'r', 'r', 'r', 'r', 'r'],
    rows: table.rows.flatMap((row) =>
      row.cells.flatMap((c, i) =>
        c
          ? [
              [
                i === row.cells.findIndex((x) => x !== null) ? row.model : '',
                label(c.mode),
                successCell(c),
                stat(c.turns, 1),
                stat(c.tokensPerTask),
                stat(c.tokensPerStep),
                c.tokensInAll === null ? '—' : formatInt(c.tokensInAll),
              ],
            ]
          : [],
      ),
    ),
  };
}

/** Each row's differences in words: success and turns (and tokens) of each mode against the first. */
export function paperSentences(table: PaperTable): string[] {
  return table.rows.flatMap((row) => row.differences.map((d) => `${row.model}: ${d.sentence}`));
}

export const PAPER_NOTE =
  "Success: answers right by the task set's own scoring, over every task and trial, with Wilson's 95 % interval. Avg turns: model requests per run (the paper's turns), failures included; " +
  'figures are mean ± half the 95 % t interval. Each mode is set against the first with an exact paired permutation test, runs paired by task and trial.';
