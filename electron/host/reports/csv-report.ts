/**
 * The CSV export: one row per step per run, every usage field, through papaparse (quoting and escaping of
 * commas, quotes and line breaks is its job, not ours). A `simulated` column labels simulated figures; `trial`
 * (1-based, 1 for comparisons stored before trials existed) lets a spreadsheet group runs of several trials.
 * The last columns say where each step's usage came from (reported, estimated or missing), its cost in USD
 * (empty when unknown), where the cost came from (provider, price, or why there is none) and the date of
 * the price used; they were added after the others, so older readers that pick columns by name still work.
 *
 * With several trials, rows of statistics follow the steps (`row` says which kind a row is: step, mode or
 * difference), their step columns empty so a sum over a step column still adds steps only: one `mode` row
 * per mode and figure (n, mean, sd, 95 % interval; the pass rate's with Wilson's interval) and one
 * `difference` row per mode and figure against the first mode (difference, interval, percent, exact p).
 *
 * A `summarize:K` run adds one `history-summary` row per summary request (its tokens in the step columns, what
 * it replaced in `sentence`): the step rows plus these make the run's totals; filter on `row` for steps only.
 *
 * A comparison of variants adds columns at the end (so a comparison of modes is written as before): each row's
 * column key and label, and one `matrix` row per cell of the models × modes matrix with its row, its runs and
 * its figures (mean total tokens, mean cost, pass rate, mean steps).
 */
import Papa from 'papaparse';
import type { ReportData } from './report-data.js';
import { matrixCsvCells } from './matrix-report.js';
import { NO_PRICE_TEXT } from '../../../shared/pricing.js';
import { historySummaryText } from '../../../shared/history-summary-words.js';

export const CSV_COLUMNS = [
  'comparison_id',
  'run_id',
  'mode',
  'trial',
  'status',
  'step',
  'prompt',
  'completion',
  'cached',
  'reasoning',
  'total',
  'usage_missing',
  'latency_ms',
  'attempts',
  'tool_calls',
  'provider',
  'model',
  'simulated',
  'cache_write',
  'usage_source',
  'cost_usd',
  'cost_source',
  'price_date',
  'row',
  'figure',
  'n',
  'mean',
  'sd',
  'ci95_low',
  'ci95_high',
  'baseline',
  'diff',
  'percent',
  'percent_ci95_low',
  'percent_ci95_high',
  'p',
  'test',
  'sentence',
] as const;

/** Appended when the comparison ran variants. */
export const CSV_VARIANT_COLUMNS = [
  'variant_key',
  'variant_label',
  'matrix_row',
  'run_ids',
  'mean_total',
  'mean_cost',
  'pass_rate',
  'mean_steps',
] as const;

type Cell = string | number | boolean;
const STEP_COLUMNS = CSV_COLUMNS.indexOf('row');
const num = (v: number | null | undefined): Cell => (v === null || v === undefined ? '' : Number(v.toPrecision(12)));

/** A statistics row: the comparison, run-less, then the statistics columns. */
function statRow(
  d: ReportData,
  mode: string,
  cells: Partial<Record<(typeof CSV_COLUMNS)[number], Cell>>,
  column?: { key: string; label: string },
): Cell[] {
  const row: Cell[] = CSV_COLUMNS.map((c) => cells[c] ?? '');
  if (d.variants)
    row.push(column?.key ?? '', column?.label ?? '', ...Array<Cell>(CSV_VARIANT_COLUMNS.length - 2).fill(''));
  row[0] = d.meta.id;
  row[CSV_COLUMNS.indexOf('mode')] = mode;
  row[CSV_COLUMNS.indexOf('simulated')] = d.simulated;
  return row;
}

function statRows(d: ReportData): Cell[][] {
  if (d.trials < 2) return [];
  const rows: Cell[][] = [];
  for (const a of d.byMode) {
    for (const figure of ['steps', 'prompt', 'completion', 'total', 'wallMs', 'cost'] as const) {
      const s = a[figure];
      if (s)
        rows.push(
          statRow(
            d,
            a.mode,
            {
              row: 'mode',
              figure,
              n: s.n,
              mean: num(s.mean),
              sd: num(s.sd),
              ci95_low: num(s.ci95?.[0]),
              ci95_high: num(s.ci95?.[1]),
            },
            a.column,
          ),
        );
    }
    if (a.passRate)
      rows.push(
        statRow(
          d,
          a.mode,
          {
            row: 'mode',
            figure: 'passRate',
            n: a.passRate.n,
            mean: num(a.passRate.rate),
            ci95_low: num(a.passRate.ci95[0]),
            ci95_high: num(a.passRate.ci95[1]),
            test: 'wilson',
          },
          a.column,
        ),
      );
  }
  for (const x of d.differences) {
    rows.push(
      statRow(
        d,
        x.mode,
        {
          row: 'difference',
          figure: x.figure,
          n: x.n,
          baseline: x.baselineColumn.key,
          diff: num(x.diff),
          ci95_low: num(x.ci95?.[0]),
          ci95_high: num(x.ci95?.[1]),
          percent: num(x.percent),
          percent_ci95_low: num(x.percentCi95?.[0]),
          percent_ci95_high: num(x.percentCi95?.[1]),
          p: num(x.p),
          test: x.test ?? '',
          sentence: x.sentence,
        },
        x.column,
      ),
    );
  }
  return rows;
}

/** One row per matrix cell (variants only). */
function matrixRows(d: ReportData): Cell[][] {
  if (!d.matrix) return [];
  return matrixCsvCells(d.matrix).map((c) => {
    const row = statRow(d, c.mode, { row: 'matrix', n: c.runs });
    row.splice(
      CSV_COLUMNS.length + 2,
      CSV_VARIANT_COLUMNS.length - 2,
      c.row,
      c.runIds,
      num(c.total),
      num(c.cost),
      num(c.passRate),
      num(c.steps),
    );
    return row;
  });
}

export function renderCsv(d: ReportData): string {
  const rows: Cell[][] = [];
  for (const r of d.runs) {
    const status = r.summary.status === 'running' ? 'unfinished' : r.summary.status;
    const provider = r.started?.provider ?? d.meta.provider;
    const cost = r.summary.cost;
    const variant: Cell[] = d.variants
      ? [r.column.key, r.column.label, ...Array<Cell>(CSV_VARIANT_COLUMNS.length - 2).fill('')]
      : [];
    for (const s of r.summary.perStep) {
      const source =
        s.cost.from === 'provider'
          ? 'provider'
          : s.cost.from === 'price'
            ? 'price'
            : s.usageMissing
              ? 'no usage'
              : cost.kind === 'priced'
                ? 'no usage'
                : NO_PRICE_TEXT[cost.kind];
      rows.push([
        d.meta.id,
        r.runId,
        r.mode,
        r.trial,
        status,
        s.step,
        s.prompt,
        s.completion,
        s.cached,
        s.reasoning,
        s.prompt + s.completion,
        s.usageMissing,
        s.latencyMs,
        s.attempts,
        s.toolCalls,
        provider.name,
        provider.model,
        provider.simulated,
        s.cacheWrite ?? 0,
        s.usageSource,
        s.cost.usd === null ? '' : Number(s.cost.usd.toPrecision(12)),
        source,
        s.cost.from === 'price' ? (cost.price?.tableDate ?? '') : '',
        'step',
        ...Array<Cell>(CSV_COLUMNS.length - STEP_COLUMNS - 1).fill(''),
        ...variant,
      ]);
    }
    // A summarize:K run's summary requests: rows of their own (row history-summary) so the step rows plus them
    // make the run's totals, with what each replaced in `sentence`.
    for (const e of r.events) {
      if (e.type !== 'history-summary') continue;
      const u = e.usage;
      const row: Cell[] = [
        d.meta.id,
        r.runId,
        r.mode,
        r.trial,
        status,
        e.step,
        u?.prompt ?? 0,
        u?.completion ?? 0,
        u?.cached ?? 0,
        u?.reasoning ?? 0,
        (u?.prompt ?? 0) + (u?.completion ?? 0),
        u === null,
        e.latencyMs,
        1,
        0,
        provider.name,
        provider.model,
        provider.simulated,
        u?.cacheWrite ?? 0,
        u === null ? 'missing' : (e.usageSource ?? 'reported'),
        '',
        '',
        '',
        'history-summary',
        ...Array<Cell>(CSV_COLUMNS.length - STEP_COLUMNS - 1).fill(''),
        ...variant,
      ];
      row[CSV_COLUMNS.indexOf('sentence')] = historySummaryText(e, provider.simulated);
      rows.push(row);
    }
  }
  // CRLF per RFC 4180; escapeFormulae keeps a user-typed model name like "=HYPERLINK(…)" from running as a
  // spreadsheet formula (it only touches strings, never the numbers).
  rows.push(...statRows(d), ...matrixRows(d));
  const fields = d.variants ? [...CSV_COLUMNS, ...CSV_VARIANT_COLUMNS] : [...CSV_COLUMNS];
  return Papa.unparse({ fields, data: rows }, { newline: '\r\n', escapeFormulae: true }) + '\r\n';
}
