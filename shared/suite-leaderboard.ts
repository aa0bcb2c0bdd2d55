/**
 * A suite's leaderboard: per task, each column's figures over its trials (a column is a mode, or a variant),
 * and overall each column's figures over every run of every task, and the models × modes matrix over all tasks. All of it is aggregateByColumn (shared/summary.ts) over run summaries whose
 * validation is the suite's judgement, so a suite shows the same statistics as a comparison.
 */
import { formatUsd, isEstimated, markEstimated } from './cost.js';
import { formatDuration, formatMean } from './number-format.js';
import type { ModeId } from './run-spec.js';
import { buildMatrix, hasMatrix, type Matrix } from './matrix.js';
import type { SuiteRecord } from './suite.js';
import type { PaperTable } from './paper-table.js';
import { aggregateByColumn, type ModeAggregate, type RunSummary, type Stat } from './summary.js';
import { formatWithInterval } from './trial-differences.js';

/** A stored suite run as the app shows it (suites:open): the record, the leaderboard, what could not be read. */
export interface SuiteView {
  readonly record: SuiteRecord;
  readonly leaderboard: SuiteLeaderboard;
  readonly simulated: boolean;
  /** One sentence per task without figures (did not start, comparison unreadable). */
  readonly problems: readonly string[];
  /** A task set's table as its paper has it (shared/paper-table.ts); absent for other suites. */
  readonly paper?: PaperTable | null;
}

export interface SuiteTaskRuns {
  readonly taskId: string;
  /** The task's runs, each with the suite's validation in `validation`. */
  readonly runs: readonly RunSummary[];
}

export interface SuiteLeaderboard {
  readonly tasks: readonly { readonly taskId: string; readonly byMode: readonly ModeAggregate[] }[];
  /** Every mode over all tasks, best first: highest pass rate, then fewest mean tokens. */
  readonly overall: readonly ModeAggregate[];
  /** Rows × modes over every run of every task (shared/matrix.ts) when the columns make one; else null. */
  readonly matrix: Matrix | null;
}

/** Higher pass rate first, then fewer mean total tokens; modes without figures last, in suite order. */
export function rankModes(rows: readonly ModeAggregate[], order: readonly ModeId[]): ModeAggregate[] {
  const pos = (m: ModeId) => (order.indexOf(m) + order.length + 1) % (order.length + 1);
  return [...rows].sort(
    (a, b) =>
      (b.passRate?.rate ?? -1) - (a.passRate?.rate ?? -1) ||
      (a.total?.mean ?? Infinity) - (b.total?.mean ?? Infinity) ||
      pos(a.mode) - pos(b.mode),
  );
}

export function suiteLeaderboard(tasks: readonly SuiteTaskRuns[], modes: readonly ModeId[]): SuiteLeaderboard {
  const inOrder = (rows: ModeAggregate[]) => [...rows].sort((a, b) => modes.indexOf(a.mode) - modes.indexOf(b.mode));
  return {
    tasks: tasks.map((t) => ({ taskId: t.taskId, byMode: inOrder(aggregateByColumn(t.runs)) })),
    overall: rankModes(aggregateByColumn(tasks.flatMap((t) => t.runs)), modes),
    matrix: hasMatrix(tasks.flatMap((t) => t.runs)) ? buildMatrix(tasks.flatMap((t) => t.runs)) : null,
  };
}

/** A leaderboard table as text cells: the CLI, the reports and the app write the same words. */
export interface BoardTable {
  readonly head: readonly string[];
  /** 'r' for figures. */
  readonly align: readonly ('l' | 'r')[];
  readonly rows: readonly (readonly string[])[];
}

const pct = (v: number) => `${Math.round(v * 100)} %`;

/** "3/4 · 75 % (30–95 %)": passed of all runs, with Wilson's 95 % interval. */
export function passCell(a: ModeAggregate): string {
  if (!a.passRate) return '—';
  return `${a.passed}/${a.trials} · ${pct(a.passRate.rate)} (${pct(a.passRate.ci95[0])}–${pct(a.passRate.ci95[1])})`;
}

function statCell(s: Stat | null, f: (n: number) => string): string {
  return s ? formatWithInterval(s, f) : '—';
}

function costCell(a: ModeAggregate, simulated: boolean): string {
  if (a.cost) return markEstimated(formatWithInterval(a.cost, formatUsd), a.costEstimated);
  return simulated ? 'simulated: no price' : 'no price';
}

const HEAD = ['Passed (95 % CI)', 'Tokens', 'Cost', 'Steps', 'Time'];
const ALIGN = ['r', 'r', 'r', 'r', 'r'] as const;

function figureCells(a: ModeAggregate, simulated: boolean): string[] {
  const tokens = statCell(a.total, formatMean);
  return [
    passCell(a),
    isEstimated(a.usageSource) ? markEstimated(tokens, true) : tokens,
    costCell(a, simulated),
    statCell(a.steps, formatMean),
    statCell(a.wallMs, formatDuration),
  ];
}

/** "Mode", or "Column" when a column is not simply its mode (variants). */
const columnsHead = (lb: SuiteLeaderboard): string =>
  lb.overall.some((a) => a.column.key !== a.mode) ? 'Column' : 'Mode';

/** The overall ranking and one row per task and mode; figures are mean ± half the 95 % t interval. */
export function boardTables(lb: SuiteLeaderboard, simulated: boolean): { overall: BoardTable; tasks: BoardTable } {
  const sim = simulated ? ' (simulated)' : '';
  const head = HEAD.map((h) => (h === 'Tokens' ? `Tokens${sim}` : h));
  return {
    overall: {
      head: ['#', columnsHead(lb), ...head],
      align: ['r', 'l', ...ALIGN],
      rows: lb.overall.map((a, i) => [String(i + 1), a.column.label, ...figureCells(a, simulated)]),
    },
    tasks: {
      head: ['Task', columnsHead(lb), ...head],
      align: ['l', 'l', ...ALIGN],
      rows: lb.tasks.flatMap((t) =>
        t.byMode.map((a, i) => [i === 0 ? t.taskId : '', a.column.label, ...figureCells(a, simulated)]),
      ),
    },
  };
}

export const BOARD_NOTE =
  "Figures: mean ± half the 95 % t interval over the runs; pass rate with Wilson's 95 % interval. Overall pools every run of every task. ";
