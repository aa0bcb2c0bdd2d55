/**
 * Cost and usage-source output of the CLI, in the same words as the app and the reports: the fields the
 * `--json` results carry per step and per run, and the lines of the `compare` summary. Figures come from
 * shared/summary.ts (the price each run recorded when it started, or the provider's own cost).
 */
import { costText, formatUsd, isEstimated, markEstimated, priceDates, USAGE_SOURCE_TEXT } from '../../shared/cost.js';
import { formatWithInterval } from '../../shared/trial-differences.js';
import {
  formatPercent,
  percentDiff,
  type ComparisonSummary,
  type ModeAggregate,
  type RunSummary,
  type StepSummary,
  type Verdict,
} from '../../shared/summary.js';

/** A step's `--json` cost fields: where its usage came from, its cost in USD (null when unknown) and from what. */
export function stepCostFields(s: StepSummary) {
  return {
    usageSource: s.usageSource,
    cost: s.cost.usd,
    costSource: s.cost.from,
    ...(s.cost.estimated ? { costEstimated: true } : {}),
  };
}

/** A run's `--json` cost fields. `usage.source` is reported, estimated, mixed or missing. */
export function runCostFields(r: RunSummary) {
  return {
    usageSource: r.usageSource,
    cost: {
      usd: r.cost.usd,
      text: costText(r.cost),
      estimated: r.cost.estimated,
      providerSteps: r.cost.providerSteps,
      price: r.cost.price,
      priceKind: r.cost.kind,
    },
  };
}

export function verdictJson(cmp: ComparisonSummary) {
  return {
    fewestTokens: cmp.fewestTokens,
    cheapest: cmp.cheapest,
    totalCost: cmp.totalCost,
    priceDates: priceDates(cmp.runs.map((r) => r.cost)),
  };
}

/** Token figure, "≈ 1,234" when the run's usage is (partly) estimated. */
export function tokens(n: number, r: RunSummary): string {
  return markEstimated(n.toLocaleString('en-US'), isEstimated(r.usageSource));
}

export const costCell = (r: RunSummary): string => costText(r.cost);

/** A mean of token figures over trials, "≈ …" when some of them were estimated. */
export function meanTokens(text: string, a: ModeAggregate): string {
  return markEstimated(text, isEstimated(a.usageSource));
}

/** "Fewest tokens on average: …", withheld when a mode's usage was not sent, marked when estimated. */
export function averageTokensLine(byMode: readonly ModeAggregate[], sim: string): string | null {
  const answered = byMode.filter((a) => a.total);
  if (byMode.length < 2 || answered.length === 0) return null;
  const missing = byMode.filter((a) => a.usageSource === 'missing');
  if (missing.length)
    return `No token verdict on average: the provider sent no usage for some steps of ${missing.map((a) => a.column.label).join(', ')}.`;
  const fewest = answered.reduce((best, a) => (a.total!.mean < best.total!.mean ? a : best));
  return `Fewest tokens on average${sim}: ${fewest.column.label}${answered.some((a) => isEstimated(a.usageSource)) ? ESTIMATED : ''}.`;
}

/** The rows the one-trial summary adds: usage source and cost (with its difference against the first run). */
export function costRows(cmp: ComparisonSummary): [string, (r: RunSummary) => string][] {
  const base = cmp.runs[0];
  return [
    ['Usage', (r) => USAGE_SOURCE_TEXT[r.usageSource]],
    [
      'Cost (USD)',
      (r) => {
        const d = cmp.costDiffPercent[r.runId];
        return `${costText(r.cost)}${r === base || d === null || d === undefined ? '' : ` (${formatPercent(d)})`}`;
      },
    ],
  ];
}

const ESTIMATED = ' (≈ estimated: the provider sent no usage for some requests; Parallax counted them)';

function verdictLine(
  v: Verdict,
  what: string,
  runs: readonly RunSummary[],
  figure: (r: RunSummary) => string,
  sim: string,
): string | null {
  const winner = runs.find((r) => r.runId === v.runId);
  if (winner && runs.length > 1)
    return `${what}${sim}: ${winner.column.label} — ${figure(winner)}${v.estimated ? ESTIMATED : ''}.`;
  return v.withheld;
}

/** "Fewest tokens: …" and "Cheapest: …", or why either is withheld. A simulated comparison has no cost line. */
export function verdictLines(cmp: ComparisonSummary, sim: string): string[] {
  const lines = [
    verdictLine(cmp.fewestTokens, 'Fewest tokens', cmp.runs, (r) => `${tokens(r.totals.total, r)} total tokens`, sim),
  ];
  const allSimulated = cmp.runs.every((r) => r.cost.kind === 'simulated' && r.cost.costedSteps === 0);
  if (!allSimulated) lines.push(verdictLine(cmp.cheapest, 'Cheapest', cmp.runs, (r) => costText(r.cost), ''));
  return lines.filter((l): l is string => !!l);
}

/** Where the costs come from, for the end of the summary. */
export function priceNote(cmp: ComparisonSummary): string | null {
  const dates = priceDates(cmp.runs.map((r) => r.cost));
  const models = [...new Set(cmp.runs.map((r) => r.cost.price?.model).filter(Boolean))];
  const all =
    cmp.totalCost.usd !== null && cmp.runs.length > 1
      ? ` All ${cmp.runs.length} runs together: ${markEstimated(formatUsd(cmp.totalCost.usd), cmp.totalCost.estimated)}.`
      : '';
  if (dates.length)
    return `Costs in USD at the prices of ${dates.join(' and ')} for ${models.join(', ')}, recorded when each run started (\`parallax prices\` shows the table).${all}`;
  const unknown = cmp.runs.find((r) => r.cost.kind === 'unknown' && r.cost.costedSteps === 0);
  return unknown
    ? `No price for ${unknown.provider?.model ?? 'this model'}: add one with \`parallax prices set ${unknown.provider?.model ?? 'MODEL'} --input … --output …\` for later runs.`
    : null;
}

/** The average table's cost row, and the cheapest mode on average by cost. */
export function averageCostRow(byMode: readonly ModeAggregate[]): [string, (a: ModeAggregate) => string] {
  const base = byMode[0]?.cost?.mean ?? null;
  return [
    'Cost (USD)',
    (a) => {
      if (a.finished === 0) return '—';
      if (!a.cost) return 'not known for every run';
      const diff = a === byMode[0] || base === null ? '' : `, ${formatPercent(percentDiff(a.cost.mean, base))}`;
      return `${markEstimated(formatWithInterval(a.cost, formatUsd), a.costEstimated)}${diff}`;
    },
  ];
}

export function averageCostLine(byMode: readonly ModeAggregate[]): string | null {
  if (byMode.length < 2 || byMode.every((a) => a.finished === 0)) return null;
  if (byMode.some((a) => a.finished > 0 && !a.cost)) return null;
  const best = byMode
    .filter((a) => a.cost)
    .reduce<ModeAggregate | null>((b, a) => (!b || a.cost!.mean < b.cost!.mean ? a : b), null);
  return best
    ? `Cheapest on average: ${best.column.label} (${markEstimated(formatUsd(best.cost!.mean), best.costEstimated)} per run).`
    : null;
}
