/**
 * The models × modes matrix: one cell per combination, with its runs' tokens, cost, pass rate and steps over
 * trials (and over a suite's tasks when given the runs of several comparisons). Rows are what a column varies
 * besides its mode — its model in a models × modes comparison, its settings in a settings comparison — read from
 * the column's label (shared/variants.ts), so the app, the reports and the CLI draw the same cells.
 */
import { COLUMN_MODE_IDS, MODE_LABELS, modeLabel, type ModeId } from './modes.js';
import { aggregateByColumn, type ModeAggregate, type RunSummary } from './summary.js';

export const MATRIX_METRICS = ['total', 'cost', 'passRate', 'steps'] as const;
export type MatrixMetric = (typeof MATRIX_METRICS)[number];

/** What each metric is called, and which way is better (the colour scale shades the better end darker). */
export const MATRIX_METRIC_INFO: Record<MatrixMetric, { readonly label: string; readonly better: 'lower' | 'higher' }> =
  {
    total: { label: 'Mean total tokens', better: 'lower' },
    cost: { label: 'Mean cost (USD)', better: 'lower' },
    passRate: { label: 'Pass rate', better: 'higher' },
    steps: { label: 'Mean steps', better: 'lower' },
  };

export interface MatrixCell {
  readonly row: string;
  readonly mode: ModeId;
  /** The runs it covers, in the order given (each opens in the app's timeline). */
  readonly runIds: readonly string[];
  /** Figures over its runs, as the trials table computes them (aggregateByColumn: failures count in pass rate). */
  readonly figures: ModeAggregate;
}

export interface Matrix {
  /** Row labels in order of first appearance. */
  readonly rows: readonly string[];
  /** Modes present, in the palette's order. */
  readonly modes: readonly ModeId[];
  /** cells[row][mode index]; null where that combination did not run. */
  readonly cells: readonly (readonly (MatrixCell | null)[])[];
}

/** The row of a run: its column label without the mode's name; the model when nothing else is left. */
export function matrixRowOf(run: Pick<RunSummary, 'mode' | 'column' | 'provider'>): string {
  const mode = modeLabel(run.mode);
  const label = run.column.label;
  const rest = label.startsWith(`${mode} · `) ? label.slice(mode.length + 3) : label === mode ? '' : label;
  return rest || run.provider?.model || '—';
}

/** Runs of one or several comparisons into the matrix; a cell aggregates every run of its row and mode. */
export function buildMatrix(runs: readonly RunSummary[]): Matrix {
  const rows: string[] = [];
  const groups = new Map<string, RunSummary[]>();
  for (const r of runs) {
    const row = matrixRowOf(r);
    if (!rows.includes(row)) rows.push(row);
    const key = `${row}\u0000${r.mode}`;
    let list = groups.get(key);
    if (!list) groups.set(key, (list = []));
    list.push(r);
  }
  const modes = COLUMN_MODE_IDS.filter((m) => runs.some((r) => r.mode === m));
  const cells = rows.map((row) =>
    modes.map((mode) => {
      const list = groups.get(`${row}\u0000${mode}`);
      if (!list) return null;
      // One aggregate over the cell: its runs share one column key here, whatever columns they came from.
      const figures = aggregateByColumn(
        list.map((r) => ({ ...r, column: { key: 'cell', label: `${MODE_LABELS[mode]} · ${row}` } })),
      )[0]!;
      return { row, mode, runIds: list.map((r) => r.runId), figures };
    }),
  );
  return { rows, modes, cells };
}

/** A cell's figure for a metric (the mean, or the pass rate's point estimate); null when it has none. */
export function cellValue(cell: MatrixCell | null, metric: MatrixMetric): number | null {
  if (!cell) return null;
  const f = cell.figures;
  if (metric === 'passRate') return f.passRate ? f.passRate.rate : null;
  return f[metric]?.mean ?? null;
}

/**
 * Where a cell's figure sits between the worst and best cells of the matrix for that metric: 1 is the best, 0
 * the worst; null without a figure. All cells equal: every one is 1 (none is worse).
 */
export function cellShade(matrix: Matrix, cell: MatrixCell | null, metric: MatrixMetric): number | null {
  // A cell none of whose runs passed is not ranked on tokens, cost or steps: few tokens spent on wrong answers
  // are not the best; the pass rate still ranks it (as the worst).
  const ranked = (c: MatrixCell | null) => metric === 'passRate' || !cellFailing(c);
  if (!ranked(cell)) return null;
  const value = cellValue(cell, metric);
  if (value === null) return null;
  const values = matrix.cells
    .flat()
    .filter(ranked)
    .map((c) => cellValue(c, metric))
    .filter((v): v is number => v !== null);
  const min = Math.min(...values);
  const max = Math.max(...values);
  if (max === min) return 1;
  const t = (value - min) / (max - min);
  return MATRIX_METRIC_INFO[metric].better === 'lower' ? 1 - t : t;
}

/** A cell with runs of which none passed. */
export function cellFailing(cell: MatrixCell | null): boolean {
  return cell !== null && cell.figures.trials > 0 && cell.figures.passed === 0;
}

/** Whether the runs make a matrix worth drawing: more than one row, or more than one column of one mode. */
export function hasMatrix(runs: readonly RunSummary[]): boolean {
  return new Set(runs.map(matrixRowOf)).size > 1;
}
