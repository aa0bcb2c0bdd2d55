/**
 * Each mode against the baseline (the first mode, as every Δ), figure by figure, over the trials: the
 * difference with its 95 % interval, the exact permutation p, and one sentence in plain words
 * ("Code Mode used 62 % ± 9 % fewer prompt tokens than ReAct (p = 0.008, 5 trials)"). Every surface — app,
 * CLI, reports — prints these objects, so they cannot disagree.
 *
 * Pairing: rounds start one run of every mode together, so when each mode has at most one run per trial the
 * figures are paired by trial (the rounds where both modes have a figure); otherwise (older comparisons that
 * repeated a mode without trials) the two groups are compared unpaired.
 */
import type { ModeId } from './modes.js';
import type { ColumnRef } from './variants.js';
import { formatUsd } from './cost.js';
import { formatDuration, formatMean } from './number-format.js';
import { countsInFigures, ONE_TRIAL_NOTE, type RunSummary } from './summary.js';
import { compareMeans, compareRates, type MeanDifference, type PermutationResult } from './trial-stats.js';
import { ranAtAll } from './run-outcome.js';

export interface TrialRun {
  readonly trial: number;
  readonly summary: RunSummary;
}

export type DiffFigure = 'prompt' | 'completion' | 'total' | 'cost' | 'steps' | 'wallMs' | 'passRate';

/** The figures compared, in order, with the words of a sentence. */
export const DIFF_FIGURES: readonly {
  readonly key: DiffFigure;
  readonly label: string;
  readonly verb: string;
  readonly less: string;
  readonly more: string;
  readonly same: string;
}[] = [
  {
    key: 'prompt',
    label: 'Prompt tokens',
    verb: 'used',
    less: 'fewer prompt tokens',
    more: 'more prompt tokens',
    same: 'as many prompt tokens as',
  },
  {
    key: 'completion',
    label: 'Completion tokens',
    verb: 'used',
    less: 'fewer completion tokens',
    more: 'more completion tokens',
    same: 'as many completion tokens as',
  },
  {
    key: 'total',
    label: 'Total tokens',
    verb: 'used',
    less: 'fewer tokens in all',
    more: 'more tokens in all',
    same: 'as many tokens in all as',
  },
  { key: 'cost', label: 'Cost (USD)', verb: 'cost', less: 'less', more: 'more', same: 'as much as' },
  { key: 'steps', label: 'Steps', verb: 'took', less: 'fewer steps', more: 'more steps', same: 'as many steps as' },
  {
    key: 'wallMs',
    label: 'Wall time',
    verb: 'took',
    less: 'less wall time',
    more: 'more wall time',
    same: 'as much wall time as',
  },
  { key: 'passRate', label: 'Pass rate', verb: 'passed', less: '', more: '', same: '' },
];

/** One column against the baseline column on one figure: the interval and test of compareMeans / compareRates, and a sentence. */
export interface ModeDifference extends Omit<MeanDifference, 'test'> {
  /** The column's mode, and the baseline column's (a plain comparison's columns are its modes). */
  readonly mode: ModeId;
  readonly baseline: ModeId;
  readonly column: ColumnRef;
  readonly baselineColumn: ColumnRef;
  readonly figure: DiffFigure;
  /** Two-sided p of the exact permutation test; null with fewer than two values a side. */
  readonly p: number | null;
  /** The smallest p the test could give with these counts. */
  readonly minP: number | null;
  readonly test: 'paired permutation (sign-flip)' | 'permutation' | null;
  readonly sentence: string;
}

/** "p = 0.008", "p < 0.001": three decimals below 0.1, two above. */
export function formatP(p: number): string {
  if (p < 0.001) return 'p < 0.001';
  return `p = ${p < 0.1 ? p.toFixed(3) : p.toFixed(2)}`;
}

/** The value of one figure for a run, or null when the run has none (a cost without a price). */
function valueOf(r: RunSummary, key: Exclude<DiffFigure, 'passRate'>): number | null {
  return key === 'cost' ? r.cost.usd : r.totals[key];
}

/** Why there is no p, or the p with what it can and cannot show. */
function evidence(n: number, paired: boolean, test: PermutationResult | null): string {
  const count = `${n} ${paired ? 'paired trials' : 'trials'}`;
  if (!test) return n <= 1 ? ONE_TRIAL_NOTE : `${count}: too few for a test`;
  const p = formatP(test.p);
  if (test.p < 0.05) return `${p}, ${count}`;
  // Every trial went the same way, yet so few trials cannot reach 5 %: say that rather than "no difference".
  if (test.minP >= 0.05 && test.p <= test.minP * (1 + 1e-9))
    return `${p}, ${count}: all one way, but ${n} trials cannot give p < 0.05`;
  return `${p}, ${count}: not a clear difference`;
}

function meanSentence(
  who: string,
  vs: string,
  f: (typeof DIFF_FIGURES)[number],
  d: ReturnType<typeof compareMeans> & object,
): string {
  const why = evidence(d.n, d.paired, d.test);
  if (d.percent === null) {
    const amount =
      f.key === 'wallMs'
        ? formatDuration(Math.abs(d.diff))
        : f.key === 'cost'
          ? formatUsd(Math.abs(d.diff))
          : formatMean(Math.abs(d.diff));
    return `${who} ${f.verb} ${amount} ${d.diff < 0 ? f.less : f.more} than ${vs} (${why})`;
  }
  const pct = Math.round(Math.abs(d.percent));
  const ci = d.percentCi95;
  // A figure cannot fall below zero: an interval reaching past −100 % is cut there and written as a range.
  if (ci && ci[0] <= -100) {
    const hi = Math.round(-ci[1]);
    const range = hi >= 0 ? `95 % CI ${hi} % to 100 % ${f.less}` : `95 % CI ${-hi} % ${f.more} to 100 % ${f.less}`;
    return `${who} ${f.verb} ${pct} % ${d.percent < 0 ? f.less : f.more} than ${vs} (${range}; ${why})`;
  }
  const halfPct = ci ? Math.round((ci[1] - ci[0]) / 2) : 0;
  if (pct === 0 && halfPct === 0) return `${who} ${f.verb} ${f.same} ${vs} (${why})`;
  const half = ci ? ` ± ${halfPct} %` : '';
  return `${who} ${f.verb} ${pct} %${half} ${d.percent < 0 ? f.less : f.more} than ${vs} (${why})`;
}

/**
 * Every non-baseline column against the baseline, for every figure both have. Runs are grouped by column (a
 * plain comparison's columns are its modes); the baseline is the column key the user chose, when the
 * comparison has it, else the first.
 */
export function differencesByMode(runs: readonly TrialRun[], baseline?: string | null): ModeDifference[] {
  const modes = [...new Set(runs.map((r) => r.summary.column.key))];
  if (modes.length < 2) return [];
  const base = baseline && modes.includes(baseline) ? baseline : modes[0]!;
  const others = modes.filter((m) => m !== base);
  const of = (m: string) => runs.filter((r) => r.summary.column.key === m);
  const columnOf = (m: string) => of(m)[0]!.summary;
  const label = (m: string) => columnOf(m).column.label;
  // Rounds pair the runs when no column has two runs in one trial.
  const rounds =
    modes.every((m) => new Set(of(m).map((r) => r.trial)).size === of(m).length) && runs.some((r) => r.trial > 1);
  const out: ModeDifference[] = [];
  for (const mode of others) {
    for (const f of DIFF_FIGURES) {
      const common = {
        mode: columnOf(mode).mode,
        baseline: columnOf(base).mode,
        column: columnOf(mode).column,
        baselineColumn: columnOf(base).column,
        figure: f.key,
      };
      if (f.key === 'passRate') {
        const ok = (r: TrialRun) => r.summary.validation?.ok === true && r.summary.status === 'answered';
        // A run cancelled before it started tried nothing: it is no failure to count, and no pair to test.
        const ran = (m: string) => of(m).filter((r) => ranAtAll(r.summary));
        const pairs = rounds
          ? ran(mode).flatMap((x) =>
              ran(base)
                .filter((b) => b.trial === x.trial)
                .map((b) => [x, b] as const),
            )
          : [];
        const paired = rounds && pairs.length >= 2;
        // Fewer than two runs that ran on a side (a comparison cancelled in its first round): nothing to compare.
        const d =
          ran(mode).length < 2 || ran(base).length < 2
            ? null
            : paired
              ? compareRates(
                  pairs.map(([x]) => ok(x)),
                  pairs.map(([, b]) => ok(b)),
                  true,
                )
              : compareRates(ran(mode).map(ok), ran(base).map(ok), false);
        if (!d) continue;
        const pts = (v: number) => `${v > 0 ? '+' : v < 0 ? '−' : ''}${Math.abs(Math.round(v * 100))}`;
        const k = (list: readonly TrialRun[]) => `${list.filter(ok).length} of ${list.length}`;
        const sentence = `${label(mode)} passed ${k(ran(mode))}, ${label(base)} ${k(ran(base))} (${pts(d.diff)} points, 95 % CI ${pts(d.ci95[0])} to ${pts(d.ci95[1])}; ${evidence(d.n, d.paired, d.test)})`;
        out.push({
          ...common,
          paired: d.paired,
          n: d.n,
          nBase: d.nBase,
          diff: d.diff,
          ci95: d.ci95,
          percent: null,
          percentCi95: null,
          p: d.test?.p ?? null,
          minP: d.test?.minP ?? null,
          test: d.test ? (d.paired ? 'paired permutation (sign-flip)' : 'permutation') : null,
          sentence,
        });
        continue;
      }
      const key = f.key;
      const fin = (m: string) => of(m).filter((r) => countsInFigures(r.summary));
      // A cost is compared only when every counted run of both modes has one (no price: no figure, not 0).
      if (key === 'cost' && [...fin(mode), ...fin(base)].some((r) => r.summary.cost.usd === null)) continue;
      const pairs = rounds
        ? fin(mode).flatMap((x) =>
            fin(base)
              .filter((b) => b.trial === x.trial)
              .map((b) => [valueOf(x.summary, key)!, valueOf(b.summary, key)!] as const),
          )
        : [];
      const paired = rounds && pairs.length >= 2;
      const d = paired
        ? compareMeans(
            pairs.map(([x]) => x),
            pairs.map(([, b]) => b),
            true,
          )
        : compareMeans(
            fin(mode).map((r) => valueOf(r.summary, key)!),
            fin(base).map((r) => valueOf(r.summary, key)!),
            false,
          );
      if (!d) continue;
      // No figure is below zero, so a mode cannot use more than 100 % less: the percent interval stops there.
      const percentCi95 = d.percentCi95 ? ([Math.max(-100, d.percentCi95[0]), d.percentCi95[1]] as const) : null;
      out.push({
        ...common,
        paired: d.paired,
        n: d.n,
        nBase: d.nBase,
        diff: d.diff,
        ci95: d.ci95,
        percent: d.percent,
        percentCi95,
        p: d.test?.p ?? null,
        minP: d.test?.minP ?? null,
        test: d.test ? (d.paired ? 'paired permutation (sign-flip)' : 'permutation') : null,
        sentence: meanSentence(label(mode), label(base), f, { ...d, percentCi95 }),
      });
    }
  }
  return out;
}

/** How a figure's mean is written with its interval: "1,234.5 ± 56.7 (95 % CI 1,178–1,291)", or with ONE_TRIAL_NOTE. */
export function formatWithInterval(
  s: { mean: number; ci95: readonly [number, number] | null },
  f: (n: number) => string,
): string {
  if (!s.ci95) return `${f(s.mean)} (${ONE_TRIAL_NOTE})`;
  return `${f(s.mean)} ± ${f((s.ci95[1] - s.ci95[0]) / 2)}`;
}
