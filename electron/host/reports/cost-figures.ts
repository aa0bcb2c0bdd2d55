/**
 * Cost and usage-source figures the HTML and Markdown reports both show, as plain text for each format to
 * wrap, so the two cannot disagree. A comparison recorded before prices and usage sources existed carries
 * none of this (`hasCostInfo` is false) and its reports stay exactly as they were.
 */
import {
  costText,
  ESTIMATED_HINT,
  formatUsd,
  isEstimated,
  markEstimated,
  MISSING_HINT,
  priceDates,
  priceSummary,
  sumCosts,
  USAGE_SOURCE_TEXT,
} from '../../../shared/cost.js';
import { NO_PRICE_HINT, NO_PRICE_TEXT } from '../../../shared/pricing.js';
import { formatPercent, type ModeAggregate, type RunSummary, type Verdict } from '../../../shared/summary.js';
import type { StepEvent } from '../../../shared/step-event.js';
import { formatInt } from './report-text.js';
import type { ReportRun } from './report-data.js';
import { columnLabel } from './trial-figures.js';

/** True when any run recorded a price (even "none") or any step says where its usage or cost came from. */
export function hasCostInfo(events: readonly StepEvent[]): boolean {
  return events.some(
    (e) =>
      (e.type === 'run-started' && 'price' in e) ||
      (e.type === 'model-response' &&
        (e.usageSource !== undefined || e.usage?.cost !== undefined || e.usage?.cacheWrite !== undefined)),
  );
}

/** "≈ 1,234" when the run's usage is (partly) estimated. */
export function tokenText(value: number, run: RunSummary): string {
  return isEstimated(run.usageSource) ? `≈ ${formatInt(value)}` : formatInt(value);
}

/** Where the prices came from, one line per distinct price (or why there is none), for the header. */
export function priceFacts(runs: readonly ReportRun[]): string[] {
  const lines = new Set<string>();
  for (const r of runs) {
    const c = r.summary.cost;
    if (c.price) lines.add(`${c.price.model} at ${priceSummary(c.price)}`);
    else if (c.kind !== 'priced') lines.add(`${NO_PRICE_TEXT[c.kind]} — ${NO_PRICE_HINT[c.kind]}`);
    if (c.providerSteps > 0) lines.add('Costs the provider reported itself are used as reported.');
  }
  return [...lines];
}

/** The legend under a table that shows costs or estimated figures: only the parts that apply. */
export function costLegend(runs: readonly RunSummary[]): string {
  const parts: string[] = [];
  const dates = priceDates(runs.map((r) => r.cost));
  if (dates.length) parts.push(`Costs in USD at the prices of ${dates.join(' and ')}, recorded when each run started.`);
  const all = sumCosts(runs.map((r) => r.cost));
  if (runs.length > 1 && all.usd !== null)
    parts.push(`All ${runs.length} runs together: ${markEstimated(formatUsd(all.usd), all.estimated)}.`);
  if (runs.some((r) => isEstimated(r.usageSource))) parts.push(`≈ ${ESTIMATED_HINT}`);
  if (runs.some((r) => r.usageSource === 'missing')) parts.push(MISSING_HINT);
  return parts.join(' ');
}

export function usageText(run: RunSummary): string {
  return USAGE_SOURCE_TEXT[run.usageSource];
}

const estimatedNote = (v: Verdict) =>
  v.estimated ? ' (≈ estimated: built on usage Parallax counted because the provider sent none)' : '';

/** The two verdicts as lead + sentence: "Fewest tokens: Code Mode" — "960 total tokens, …". Null lead: no verdict. */
export function verdicts(
  runs: readonly ReportRun[],
  fewest: Verdict,
  cheapest: Verdict | null,
  diff: { tokens: Readonly<Record<string, number | null>>; cost: Readonly<Record<string, number | null>> },
  simulated: boolean,
): { lead: string | null; text: string }[] {
  const byId = (id: string | null) => runs.find((r) => r.runId === id);
  const base = runs[0];
  const answered = runs.some((r) => r.summary.status === 'answered');
  const out: { lead: string | null; text: string }[] = [];
  const tokenWinner = byId(fewest.runId);
  if (tokenWinner && runs.length > 1) {
    const vs =
      tokenWinner === base
        ? 'the first mode (baseline)'
        : `${formatPercent(diff.tokens[tokenWinner.runId] ?? null)} vs ${base.label}`;
    out.push({
      lead: `Fewest tokens: ${tokenWinner.label}`,
      text: ` — ${tokenText(tokenWinner.summary.totals.total, tokenWinner.summary)} total tokens${simulated ? ' (simulated)' : ''}, ${vs}${estimatedNote(fewest)}.`,
    });
  } else if (fewest.withheld) out.push({ lead: null, text: fewest.withheld });
  const costWinner = cheapest ? byId(cheapest.runId) : undefined;
  if (cheapest && costWinner && runs.length > 1) {
    const vs =
      costWinner === base
        ? 'the first mode (baseline)'
        : `${formatPercent(diff.cost[costWinner.runId] ?? null)} vs ${base.label}`;
    out.push({
      lead: `Cheapest: ${costWinner.label}`,
      text: ` — ${costText(costWinner.summary.cost)}, ${vs}${estimatedNote(cheapest)}.`,
    });
  } else if (cheapest?.withheld) out.push({ lead: null, text: cheapest.withheld });
  if (!answered) out.push({ lead: null, text: 'No run answered, so no mode is called cheaper.' });
  else if (runs.length < 2) out.push({ lead: null, text: 'Only one mode ran.' });
  return out;
}

/** Mean cost of a mode over its finished trials, or why there is none. */
export function meanCostText(a: ModeAggregate, format: (usd: number) => string): string {
  if (a.finished === 0) return 'no finished run';
  if (!a.cost) return 'not known for every run';
  return `${a.costEstimated ? '≈ ' : ''}${format(a.cost.mean)}`;
}

/** The mode with the lowest mean cost, when every mode's is known. */
export function cheapestModeOnAverage(byMode: readonly ModeAggregate[]): ModeAggregate | null {
  if (byMode.some((a) => a.finished > 0 && !a.cost)) return null;
  let best: ModeAggregate | null = null;
  for (const a of byMode) if (a.cost && (!best || a.cost.mean < best.cost!.mean)) best = a;
  return best;
}

/** One sentence on the cheapest mode on average by cost, for the trial reports. */
export function averageCostVerdict(
  byMode: readonly ModeAggregate[],
  format: (usd: number) => string,
): { lead: string | null; text: string } | null {
  if (byMode.length < 2 || !byMode.some((a) => a.finished > 0)) return null;
  const best = cheapestModeOnAverage(byMode);
  if (!best) {
    const unknown = byMode.filter((a) => a.finished > 0 && !a.cost).map(columnLabel);
    return {
      lead: null,
      text: `No cost verdict on average: the cost of ${unknown.join(', ')} is not known for every run.`,
    };
  }
  const est = byMode.some((a) => a.costEstimated)
    ? ' (≈ estimated: built on usage Parallax counted because the provider sent none)'
    : '';
  return {
    lead: `Cheapest on average: ${columnLabel(best)}`,
    text: ` — mean ${meanCostText(best, format)} over ${best.finished} run${best.finished === 1 ? '' : 's'}${est}.`,
  };
}
