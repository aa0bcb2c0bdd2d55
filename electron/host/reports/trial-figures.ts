/**
 * Figures of a comparison with several trials per mode, shared by the HTML and Markdown reports so the two
 * cannot disagree. The means come from shared/summary.ts (aggregateByColumn): every run that ended by itself.
 */
import type { ColumnRef } from '../../../shared/variants.js';
import { formatPercent, percentDiff, type ModeAggregate, type Stat } from '../../../shared/summary.js';
import { formatInt, formatMs } from './report-text.js';
import { isEstimated } from '../../../shared/cost.js';
import { RUN_METRICS, startSpreadMs, type Metric } from './report-figures.js';
import type { ReportRun } from './report-data.js';

export type StatKey = 'steps' | 'requests' | 'prompt' | 'completion' | 'cached' | 'total' | 'wallMs' | 'toolCalls';

// aggregateByColumn has every run total but reasoning tokens.
export const AVERAGE_METRICS = RUN_METRICS.filter((m): m is Metric & { key: StatKey } => m.averaged);

/** What an aggregate is called: its column's label (a plain comparison's is its mode's). */
export const columnLabel = (a: { readonly column: ColumnRef }): string => a.column.label;

/** A mean to one decimal (means of whole numbers are rarely whole); durations as durations. */
export function formatMean(v: number, ms = false): string {
  return ms ? formatMs(v) : formatInt(Math.round(v * 10) / 10);
}

export function formatRange(s: Stat, ms = false): string {
  return ms ? `${formatMs(s.min)}–${formatMs(s.max)}` : `${formatInt(s.min)}–${formatInt(s.max)}`;
}

/** Difference of a mode's mean against the first mode's mean, in percent; null when either has no finished run. */
export function meanDiff(agg: ModeAggregate, base: ModeAggregate | undefined, key: StatKey): number | null {
  const v = agg[key],
    b = base?.[key];
  return v && b ? percentDiff(v.mean, b.mean) : null;
}

/** The mode with the lowest mean total tokens among modes with a finished run (the first on a tie). */
export function cheapestOnAverage(byMode: readonly ModeAggregate[]): ModeAggregate | null {
  let best: ModeAggregate | null = null;
  for (const a of byMode) if (a.total && (!best || a.total.mean < best.total!.mean)) best = a;
  return best;
}

/** Runs grouped by trial, in trial order (the report's runs are already sorted by trial). */
export function byTrial(runs: readonly ReportRun[]): { trial: number; runs: ReportRun[] }[] {
  const groups: { trial: number; runs: ReportRun[] }[] = [];
  for (const r of runs) {
    const last = groups[groups.length - 1];
    if (last?.trial === r.trial) last.runs.push(r);
    else groups.push({ trial: r.trial, runs: [r] });
  }
  return groups;
}

/** The run with the fewest total tokens among a trial's answered runs; null when none answered or on a tie. */
export function trialCheapest(runs: readonly ReportRun[]): ReportRun | null {
  const answered = runs.filter((r) => r.summary.status === 'answered');
  // A run whose usage was not sent has incomplete totals: no trial winner is named from them.
  if (runs.length < 2 || answered.length === 0 || answered.some((r) => r.summary.usageSource === 'missing'))
    return null;
  const min = Math.min(...answered.map((r) => r.summary.totals.total));
  const at = answered.filter((r) => r.summary.totals.total === min);
  return at.length === 1 ? at[0] : null;
}

/** In how many trials each column had the cheapest answered run, by column key. */
export function trialWins(runs: readonly ReportRun[]): Map<string, number> {
  const wins = new Map<string, number>();
  for (const g of byTrial(runs)) {
    const c = trialCheapest(g.runs);
    if (c) wins.set(c.column.key, (wins.get(c.column.key) ?? 0) + 1);
  }
  return wins;
}

/** Largest spread between the modes' first requests within one trial (trials start in rounds, not together). */
export function trialStartSpreadMs(runs: readonly ReportRun[]): number | null {
  const spreads = byTrial(runs)
    .map((g) => startSpreadMs(g.runs.map((r) => r.summary)))
    .filter((s): s is number => s !== null);
  return spreads.length ? Math.max(...spreads) : null;
}

/** One plain-text sentence on which mode was cheaper on average, for both formats to wrap in their markup. */
/** `byTokens`: name it "Fewest tokens on average" (comparisons with costs, where "cheaper" means by cost). */
export function averageVerdict(
  byMode: readonly ModeAggregate[],
  runs: readonly ReportRun[],
  trials: number,
  simulated: boolean,
  byTokens = false,
): {
  cheaper: string | null;
  text: string;
} {
  const best = cheapestOnAverage(byMode);
  const partial = byMode.filter((a) => a.answered < a.trials);
  const left = byMode.filter((a) => a.finished < a.trials);
  const coverage =
    (partial.length
      ? ` ${partial.map((a) => `${columnLabel(a)} answered ${a.answered} of ${a.trials}`).join(', ')}.`
      : '') +
    (left.length
      ? ` Means leave out runs that did not end by themselves: ${left.map((a) => `${columnLabel(a)} counts ${a.finished} of ${a.trials}`).join(', ')}.`
      : '');
  if (!best)
    return { cheaper: null, text: `No run ended by itself, so no mode is called cheaper on average.${coverage}` };
  if (byMode.length < 2) return { cheaper: null, text: `Only one mode ran.${coverage}` };
  const missing = byMode.filter((a) => a.usageSource === 'missing');
  if (missing.length) {
    return {
      cheaper: null,
      text: `No token verdict on average: the provider sent no usage for some steps of ${missing.map(columnLabel).join(', ')}, so ${missing.length === 1 ? 'its means are' : 'their means are'} incomplete.${coverage}`,
    };
  }
  const est = byMode.some((a) => isEstimated(a.usageSource))
    ? ' (≈ estimated: built on usage Parallax counted because the provider sent none)'
    : '';
  const base = byMode[0];
  const vs =
    best === base
      ? 'the first mode (baseline)'
      : `${formatPercent(meanDiff(best, base, 'total'))} vs ${columnLabel(base)}'s mean`;
  const wins = trialWins(runs).get(best.column.key) ?? 0;
  const text = ` — mean ${est ? '≈ ' : ''}${formatMean(best.total!.mean)} total tokens${simulated ? ' (simulated)' : ''}${est} over ${best.finished} run${best.finished === 1 ? '' : 's'}, ${vs}. Cheapest run in ${wins} of ${trials} trials.${coverage}`;
  return { cheaper: `${byTokens ? 'Fewest tokens on average' : 'Cheaper on average'}: ${columnLabel(best)}`, text };
}
