/**
 * A report chart's figures as a table behind "Show as table" (a <details>: the report has no script), as the
 * app's charts offer them: each figure a chart draws can be read without it.
 */
import { PROMPT_PART_INFO, PROMPT_PARTS } from '../../../shared/prompt-composition.js';
import type { StepSummary } from '../../../shared/summary.js';
import { formatInt } from './report-text.js';
import { html, type SafeHtml } from './html-escape.js';
import type { CumulativeSeries } from './html-charts.js';

type Cell = number | string | null | undefined;

const text = (v: Cell) => (v === null || v === undefined ? '' : typeof v === 'number' ? formatInt(v) : v);

export function chartTableHtml(
  caption: string,
  columns: readonly string[],
  rows: readonly (readonly Cell[])[],
): SafeHtml {
  return html`<details class="chart-data"><summary>Show as table</summary><table class="chart-data"><caption>${caption}</caption><thead><tr>${columns.map((c, i) => html`<th scope="col"${i ? html` class="num"` : null}>${c}</th>`)}</tr></thead><tbody>${rows.map(
    (r) =>
      html`<tr><th scope="row">${text(r[0])}</th>${r.slice(1).map((v) => html`<td class="num">${text(v)}</td>`)}</tr>`,
  )}</tbody></table></details>`;
}

/** One run's per-step bars: prompt and completion per step. */
export function stepBarsTable(steps: readonly StepSummary[], caption: string): SafeHtml {
  return chartTableHtml(
    caption,
    ['Step', 'Prompt tokens', 'Completion tokens'],
    steps.map((s) => [s.step, s.prompt, s.completion]),
  );
}

/** The cumulative chart: one column per line, one row per step. */
export function cumulativeTableHtml(series: readonly CumulativeSeries[], caption: string): SafeHtml {
  const steps = [...new Set(series.flatMap((s) => s.points.map((p) => p.step)))].sort((a, b) => a - b);
  const at = series.map((s) => new Map(s.points.map((p) => [p.step, p.value])));
  return chartTableHtml(
    caption,
    ['Step', ...series.map((s) => s.label)],
    steps.map((step) => [step, ...at.map((m) => m.get(step))]),
  );
}

/** One run's composition chart: each step's prompt tokens by part. */
export function compositionTableHtml(steps: readonly StepSummary[], caption: string): SafeHtml {
  const rows = steps.flatMap((s) =>
    s.promptComposition ? [[s.step, s.prompt, ...PROMPT_PARTS.map((p) => s.promptComposition![p] ?? 0)]] : [],
  );
  return chartTableHtml(
    caption,
    ['Step', 'Prompt tokens', ...PROMPT_PARTS.map((p) => PROMPT_PART_INFO[p].label)],
    rows,
  );
}

export const CHART_TABLE_CSS = `details.chart-data { margin: 4px 0 12px; }
table.chart-data { font-size: 12px; }
table.chart-data caption { text-align: left; }`;
