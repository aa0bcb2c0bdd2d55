/**
 * The HTML report's cost and usage-source parts: the cost and usage rows of the summary, the verdicts, the
 * price facts and the marks on estimated figures. Used only when the comparison recorded prices or usage
 * sources (ReportData.costInfo), so an older comparison's report keeps its exact bytes.
 */
import {
  costHint,
  costText,
  ESTIMATED_HINT,
  formatUsd,
  isEstimated,
  MISSING_HINT,
  stepCostText,
} from '../../../shared/cost.js';
import { formatPercent, percentDiff, type RunSummary, type StepSummary } from '../../../shared/summary.js';
import type { PriceKind } from '../../../shared/pricing.js';
import { averageCostVerdict, costLegend, meanCostText, priceFacts, usageText, verdicts } from './cost-figures.js';
import { html, type SafeHtml } from './html-escape.js';
import type { ReportData, ReportRun } from './report-data.js';
import { ONE_TRIAL_NOTE, type ModeAggregate } from '../../../shared/summary.js';

export const COST_CSS = `
.est { color: var(--sim); font-weight: 600; cursor: help; }
td[data-metric=cost] { white-space: nowrap; }
.usage-missing { color: var(--bad); }
.legend { font-size: 12.5px; color: var(--muted); margin: 4px 0 10px; }
/* The per-run table of a comparison with trials gains a cost column: a little tighter, so it still fits 1280 px. */
table.runs { font-size: 13px; }
table.runs th, table.runs td { padding-left: 5px; padding-right: 5px; }
table.runs thead th { white-space: normal; }
`;

/** "≈ " before a figure counted by Parallax because the provider sent none. */
export function estMark(estimated: boolean): SafeHtml | null {
  return estimated ? html`<span class="est" title="${ESTIMATED_HINT}">≈</span> ` : null;
}

export const runEstimated = (s: RunSummary): boolean => isEstimated(s.usageSource);

/** The cost and usage rows of the one-trial summary table. */
export function summaryCostRows(
  d: ReportData,
  diff: (value: number, base: number, isBase: boolean, comparable: boolean) => SafeHtml | null,
  comparable: (r: ReportRun) => boolean,
): SafeHtml {
  const base = d.runs[0]?.summary.cost.usd ?? null;
  const cost = html`<tr><th scope="row">Cost (USD)</th>${d.runs.map((r, i) => {
    const c = r.summary.cost;
    return html`<td class="num" data-run="${r.runId}" data-metric="cost" data-value="${c.usd ?? ''}" title="${costHint(c)}">${costText(c)}${
      c.usd !== null && base !== null ? diff(c.usd, base, i === 0, comparable(r)) : null
    }</td>`;
  })}</tr>`;
  const usage = html`<tr><th scope="row">Usage</th>${d.runs.map((r) => html`<td class="num${r.summary.usageSource === 'missing' ? ' usage-missing' : ''}" data-run="${r.runId}" data-metric="usage-source" data-value="${r.summary.usageSource}" title="${r.summary.usageSource === 'missing' ? MISSING_HINT : runEstimated(r.summary) ? ESTIMATED_HINT : ''}">${usageText(r.summary)}</td>`)}</tr>`;
  return html`${cost}${usage}`;
}

export function legendHtml(runs: readonly RunSummary[]): SafeHtml | null {
  const text = costLegend(runs);
  return text ? html`<p class="legend" data-testid="cost-legend">${text}</p>` : null;
}

export function verdictsHtml(d: ReportData): SafeHtml {
  const c = d.comparison;
  const lines = verdicts(
    d.runs,
    c.fewestTokens,
    d.costShown ? c.cheapest : null,
    { tokens: c.totalDiffPercent, cost: c.costDiffPercent },
    d.simulated,
  );
  const notAnswered = d.runs.filter((r) => r.summary.status !== 'answered');
  const unranked =
    notAnswered.length && d.runs.length > 1
      ? html`<p class="verdict muted">Not ranked (did not answer): ${notAnswered.map((r) => `${r.label} (${r.summary.status === 'running' ? 'unfinished' : r.summary.status})`).join(', ')}.</p>`
      : null;
  return html`${lines.map((l) => html`<p class="verdict">${l.lead ? html`<span class="cheapest">${l.lead}</span>` : null}${l.text}</p>`)}${unranked}`;
}

export function priceFactsHtml(d: ReportData): SafeHtml {
  return html`${priceFacts(d.runs).map((line, i) => html`${i ? html`<br>` : null}${line}`)}`;
}

/** One step's cost cell. */
export function stepCostCell(s: StepSummary, kind: PriceKind): SafeHtml {
  return html`<td class="num" data-metric="cost" data-value="${s.cost.usd ?? ''}">${stepCostText(s.cost, kind, s.usageMissing)}</td>`;
}

/** The cost row of the average table and the cost verdict on average. */
export function averageCostRow(byMode: readonly ModeAggregate[]): SafeHtml {
  const base = byMode[0]?.cost?.mean ?? null;
  return html`<tr><th scope="row">Cost (USD)</th>${byMode.map((a, i) => {
    const s = a.cost;
    if (!s)
      return html`<td class="num muted" data-mode="${a.column.key}" data-metric="cost">${meanCostText(a, formatUsd)}</td>`;
    const diff =
      i === 0
        ? html`<span class="diff">baseline</span>`
        : base === null
          ? null
          : html`<span class="diff">${formatPercent(percentDiff(s.mean, base))} vs first</span>`;
    return html`<td class="num" data-mode="${a.column.key}" data-metric="cost" data-mean="${s.mean}" data-min="${s.min}" data-max="${s.max}">${meanCostText(a, formatUsd)}<span class="ci">${s.ci95 ? `± ${formatUsd((s.ci95[1] - s.ci95[0]) / 2)}` : ONE_TRIAL_NOTE}</span><span class="range">${formatUsd(s.min)}–${formatUsd(s.max)}</span>${diff}</td>`;
  })}</tr>`;
}

export function averageCostVerdictHtml(byMode: readonly ModeAggregate[]): SafeHtml | null {
  const v = averageCostVerdict(byMode, formatUsd);
  return v
    ? html`<p class="verdict">${v.lead ? html`<span class="cheapest">${v.lead}</span>` : null}${v.text}</p>`
    : null;
}
