/**
 * Variants in the reports: the columns and what each set away from the comparison, and the models × modes
 * matrix (shared/matrix.ts) as HTML tables (one per metric, colour-scaled), a Markdown table and CSV rows.
 * Nothing here is drawn for a comparison of modes: its reports stay as they were.
 */
import { ranOfAggregate } from '../../../shared/summary.js';
import { formatUsd } from '../../../shared/cost.js';
import { MODE_LABELS } from '../../../shared/modes.js';
import {
  cellShade,
  cellValue,
  MATRIX_METRIC_INFO,
  MATRIX_METRICS,
  type Matrix,
  type MatrixCell,
  type MatrixMetric,
} from '../../../shared/matrix.js';
import { settingPhrase } from '../../../shared/variants.js';
import { html, type SafeHtml } from './html-escape.js';
import { mdCell, table } from './markdown-table.js';
import { formatMean } from './trial-figures.js';
import type { ReportData } from './report-data.js';

/** The metrics a matrix shows: cost only when the report shows costs. */
const metricsOf = (d: ReportData): MatrixMetric[] => MATRIX_METRICS.filter((m) => m !== 'cost' || d.costShown);

/** A cell's figure in words; "—" without one. */
export function cellText(cell: MatrixCell | null, metric: MatrixMetric): string {
  const v = cellValue(cell, metric);
  if (v === null || !cell) return '—';
  if (metric === 'passRate')
    return `${Math.round(v * 100)} % (${cell.figures.passed} of ${ranOfAggregate(cell.figures)})`;
  if (metric === 'cost') return formatUsd(v);
  return formatMean(v);
}

/** What a column set away from the comparison, in the words of its label. */
function overrides(v: NonNullable<ReportData['variants']>[number]): string {
  const parts = [
    ...(v.provider ? [`provider ${v.provider}`] : []),
    ...(v.baseUrl ? [`base URL ${v.baseUrl}`] : []),
    ...(v.model ? [`model ${v.model}`] : []),
    ...Object.entries(v.settings ?? {}).map(([name, value]) => settingPhrase(name, value)),
  ];
  return parts.length ? parts.join(', ') : "nothing: the comparison's model and settings";
}

export function variantsHtml(d: ReportData): SafeHtml | null {
  if (!d.variants) return null;
  return html`<h2>Columns</h2><p class="muted">Each column is a mode with what it sets away from the comparison's model and settings; its runs' own settings are in their timelines.</p><table class="variants"><thead><tr><th scope="col">Column</th><th scope="col">Mode</th><th scope="col">Sets</th></tr></thead><tbody>${d.variants.map(
    (v) =>
      html`<tr data-column="${v.key}"><th scope="row">${v.label}</th><td>${MODE_LABELS[v.mode] ?? v.mode}</td><td>${overrides(v)}</td></tr>`,
  )}</tbody></table>`;
}

export function variantsMarkdown(d: ReportData): string[] {
  if (!d.variants) return [];
  return [
    '## Columns',
    '',
    table(
      ['Column', 'Mode', 'Sets'],
      ['l', 'l', 'l'],
      d.variants.map((v) => [mdCell(v.label), mdCell(MODE_LABELS[v.mode] ?? v.mode), mdCell(overrides(v))]),
    ),
    '',
  ];
}

export const MATRIX_CSS = `
div.matrices { display: flex; flex-wrap: wrap; gap: 4px 28px; align-items: flex-start; }
table.matrix { margin: 6px 0 14px; }
table.matrix caption { text-align: left; }
table.matrix td { min-width: 150px; }
table.matrix td .shade { display: block; padding: 4px 8px; border-radius: 4px; }
table.matrix td a { color: inherit; }
table.matrix td .runs { display: block; font-size: 12px; color: var(--fg); }
table.matrix td .runs a { color: inherit; text-decoration: underline; }
@media print { table.matrix td .shade { filter: grayscale(1); -webkit-print-color-adjust: exact; print-color-adjust: exact; } }
`;

/** One matrix table for one metric: the value in text, its shade a hint (darker is better), each cell linking to its runs. */
function matrixTable(d: ReportData, m: Matrix, metric: MatrixMetric): SafeHtml {
  const info = MATRIX_METRIC_INFO[metric];
  const anchor = (runId: string) => `#mode-${d.runs.findIndex((r) => r.runId === runId)}`;
  const cell = (c: MatrixCell | null) => {
    if (!c) return html`<td class="num muted" data-metric="${metric}">did not run</td>`;
    const shade = cellShade(m, c, metric);
    const alpha = shade === null ? 0 : 0.06 + 0.34 * shade;
    const value = cellValue(c, metric);
    const links = c.runIds.map(
      (id, i) =>
        html`${i ? ' ' : ''}<a href="${anchor(id)}">${c.runIds.length === 1 ? 'timeline' : `run ${i + 1}`}</a>`,
    );
    return html`<td class="num" data-metric="${metric}" data-mode="${c.mode}" data-row="${c.row}" data-value="${value ?? ''}" data-shade="${shade === null ? '' : shade.toFixed(3)}"><span class="shade" style="background: rgba(9, 105, 218, ${alpha.toFixed(3)})">${cellText(c, metric)}<span class="runs">${c.runIds.length} run${c.runIds.length === 1 ? '' : 's'}: ${links}</span></span></td>`;
  };
  return html`<table class="matrix" data-metric="${metric}"><caption>${info.label}${d.simulated && metric === 'total' ? ' (simulated)' : ''} — ${info.better} is better, drawn darker</caption><thead><tr><th></th>${m.modes.map((mode) => html`<th class="num" scope="col">${MODE_LABELS[mode] ?? mode}</th>`)}</tr></thead><tbody>${m.rows.map(
    (row, i) => html`<tr><th scope="row">${row}</th>${m.cells[i]!.map(cell)}</tr>`,
  )}</tbody></table>`;
}

export function matrixHtml(d: ReportData): SafeHtml | null {
  const m = d.matrix;
  if (!m) return null;
  return html`<section class="matrix" id="matrix"><h2>Matrix</h2><p class="muted">One row per ${d.variants?.some((v) => v.model) ? 'model' : 'setting'}, one column per mode; each cell aggregates its runs (means over the runs that ended by themselves; the pass rate over all). The shade only hints at the order: the figure is the text.</p><div class="matrices">${metricsOf(d).map((metric) => matrixTable(d, m, metric))}</div></section>`;
}

/** The matrix as a Markdown table, each cell its metrics one per line. */
export function matrixMarkdownTable(m: Matrix, metrics: readonly MatrixMetric[]): string {
  const rows = m.rows.map((row, i) => [
    mdCell(row),
    ...m.cells[i]!.map((c) =>
      c ? metrics.map((x) => `${MATRIX_METRIC_INFO[x].label.toLowerCase()} ${cellText(c, x)}`).join('<br>') : '—',
    ),
  ]);
  return table(['', ...m.modes.map((x) => MODE_LABELS[x] ?? x)], ['l', ...m.modes.map(() => 'r' as const)], rows);
}

export function matrixMarkdown(d: ReportData): string[] {
  const m = d.matrix;
  if (!m) return [];
  return [
    `## Matrix${d.simulated ? ' (simulated)' : ''}`,
    '',
    'One row per model or setting, one column per mode; each cell aggregates its runs.',
    '',
    matrixMarkdownTable(m, metricsOf(d)),
    '',
  ];
}

/** The matrix as aligned text (the CLI): rows × modes, each cell mean total tokens and pass rate. */
export function matrixTextLines(m: Matrix, sim: string): string[] {
  const cell = (c: MatrixCell | null) =>
    c
      ? `${cellText(c, 'total')} tok · ${cellValue(c, 'passRate') === null ? 'no validation' : `${Math.round(cellValue(c, 'passRate')! * 100)} % pass`}`
      : '—';
  const head = ['', ...m.modes.map((x) => MODE_LABELS[x] ?? x)];
  const rows = m.rows.map((row, i) => [row, ...m.cells[i]!.map(cell)]);
  const w = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const line = (cells: readonly string[]) =>
    cells
      .map((c, i) => c.padEnd(w[i]!))
      .join('  ')
      .trimEnd();
  return [`matrix: mean total tokens${sim} and pass rate per cell, over its runs`, line(head), ...rows.map(line)];
}

/** CSV: one row per cell, its figures by name (the CSV's matrix columns). */
export function matrixCsvCells(m: Matrix): {
  row: string;
  mode: string;
  runIds: string;
  total: number | null;
  cost: number | null;
  passRate: number | null;
  steps: number | null;
  runs: number;
}[] {
  return m.rows.flatMap((row, i) =>
    m.cells[i]!.flatMap((c) =>
      c
        ? [
            {
              row,
              mode: c.mode,
              runIds: c.runIds.join(' '),
              total: cellValue(c, 'total'),
              cost: cellValue(c, 'cost'),
              passRate: cellValue(c, 'passRate'),
              steps: cellValue(c, 'steps'),
              runs: c.runIds.length,
            },
          ]
        : [],
    ),
  );
}
