/**
 * A comparison against an earlier one of the same task (its baseline): column by column, what changed in
 * tokens, cost, steps, pass rate and wall time. Columns are matched by key, then by label. A figure is flagged
 * a regression or an improvement by the result statement's rules: token, cost, step and time figures count
 * only the runs that passed (a cheap failure is no improvement); over trials the exact permutation test must
 * reach p < 0.05; one run a side never gives a verdict, only the change and the caveat. A column that passed
 * before and passes in no run now is said to fail, in the words of its runs, whatever its tokens did.
 *
 * The two comparisons ran apart, so their runs are never paired: the tests are the unpaired ones.
 */
import { formatUsd } from './cost.js';
import { formatDuration, formatInt, formatMean } from './number-format.js';
import { ranAtAll, runOutcome } from './run-outcome.js';
import { formatP, type TrialRun } from './trial-differences.js';
import { compareMeans, compareRates, meanStat, wilson, type MeanStat, type RateStat } from './trial-stats.js';
import type { TaskRef } from './run-spec.js';
import { SUGGESTED_TRIALS } from './result-statement.js';
import type { RunSummary } from './summary.js';
import { diffSteps, type DiffStep } from './diff-steps.js';

export type DiffFigureKey = 'total' | 'prompt' | 'completion' | 'cost' | 'steps' | 'wallMs' | 'passRate';

/** Lower is better for every figure but the pass rate. */
export const DIFF_FIGURE_LABELS: Readonly<Record<DiffFigureKey, string>> = {
  total: 'Total tokens',
  prompt: 'Prompt tokens',
  completion: 'Completion tokens',
  cost: 'Cost (USD)',
  steps: 'Steps',
  wallMs: 'Wall time',
  passRate: 'Pass rate',
};
const ORDER: readonly DiffFigureKey[] = ['total', 'prompt', 'completion', 'cost', 'steps', 'wallMs', 'passRate'];

/**
 * 'regressed' / 'improved': a clear change (p < 0.05 over trials); 'unclear': trials, no clear change;
 * 'one-run': a side has one run, so no verdict; 'same': equal; 'no-figure': a side has no figure (no passing
 * run, no price); 'now-fails': the column passed in the baseline and passes in no run now.
 */
export type DiffTrend = 'regressed' | 'improved' | 'unclear' | 'one-run' | 'same' | 'no-figure' | 'now-fails';

export interface FigureDiff {
  readonly figure: DiffFigureKey;
  readonly label: string;
  /** Mean (or pass rate) and its 95 % interval per side; null when the side has no figure. */
  readonly baseline: MeanStat | RateStat | null;
  readonly comparison: MeanStat | RateStat | null;
  /** comparison − baseline (a proportion for the pass rate); null without both sides. */
  readonly diff: number | null;
  readonly ci95: readonly [number, number] | null;
  /** diff as a percent of the baseline's mean; null for the pass rate and a zero baseline. */
  readonly percent: number | null;
  readonly p: number | null;
  readonly trend: DiffTrend;
  /** The change in one sentence, with its evidence. */
  readonly sentence: string;
}

export interface DiffSide {
  /** Runs that ran (cancelled before starting: left out), and of them how many passed. */
  readonly runs: number;
  readonly passed: number;
  /** Why runs did not pass, in their words (empty when all passed). */
  readonly failures: readonly string[];
}

export interface ColumnDiff {
  readonly key: string;
  readonly label: string;
  /** How the columns were matched: same key, or same label under another key; null when on one side only. */
  readonly matchedBy: 'key' | 'label' | null;
  readonly presence: 'both' | 'baseline-only' | 'comparison-only';
  readonly baseline: DiffSide | null;
  readonly comparison: DiffSide | null;
  readonly figures: readonly FigureDiff[];
  /** The column's flag: 'regressed' when any figure regressed or it now fails; else 'improved' when any improved. */
  readonly flag: 'regressed' | 'improved' | 'no-verdict' | 'unchanged' | 'baseline-only' | 'comparison-only';
  readonly summary: string;
  /** Its steps on both sides, step by step (shared/diff-steps.ts): the per-step chart and the step view. */
  readonly steps: readonly DiffStep[];
}

export interface DiffComparisonRef {
  readonly id: string;
  readonly createdAt: number;
  readonly model: string;
  readonly trials: number;
}

export interface ComparisonDiff {
  readonly task: TaskRef;
  readonly baseline: DiffComparisonRef;
  readonly comparison: DiffComparisonRef;
  readonly simulated: boolean;
  readonly columns: readonly ColumnDiff[];
  /** The answer in a few sentences: regressions first, then improvements, then what cannot be said. */
  readonly headline: readonly string[];
}

export interface DiffInput {
  readonly id: string;
  readonly createdAt: number;
  readonly task: TaskRef;
  readonly model: string;
  readonly simulated: boolean;
  readonly runs: readonly TrialRun[];
}

/** Thrown when the two comparisons cannot be compared (another task): the message says what to do. */
export class DiffError extends Error {}

export function sameTask(a: TaskRef, b: TaskRef): boolean {
  return a.id !== null || b.id !== null ? a.id === b.id : a.text.trim() === b.text.trim();
}

const taskName = (t: TaskRef) =>
  t.id !== null ? `task "${t.id}"` : `the free-text task "${t.text.length > 60 ? `${t.text.slice(0, 60)}…` : t.text}"`;

export function diffComparisons(baseline: DiffInput, comparison: DiffInput): ComparisonDiff {
  if (!sameTask(baseline.task, comparison.task)) {
    throw new DiffError(
      `Comparison ${comparison.id} ran ${taskName(comparison.task)}, its baseline ${baseline.id} ran ${taskName(baseline.task)}: only comparisons of the same task can be compared. Pick a baseline of the same task (\`parallax history --search <task>\` lists them).`,
    );
  }
  const simulated = baseline.simulated || comparison.simulated;
  const columns = matchColumns(baseline.runs, comparison.runs).map(([key, b, c, by]) =>
    columnDiff(key, b, c, by, simulated),
  );
  return {
    task: comparison.task,
    baseline: refOf(baseline),
    comparison: refOf(comparison),
    simulated,
    columns,
    headline: headlineOf(columns, baseline, comparison),
  };
}

const refOf = (d: DiffInput): DiffComparisonRef => ({
  id: d.id,
  createdAt: d.createdAt,
  model: d.model,
  trials: Math.max(1, ...d.runs.map((r) => r.trial)),
});

type Match = [key: string, baseline: RunSummary[], comparison: RunSummary[], by: 'key' | 'label' | null];

/** Columns in the comparison's order, then those only in the baseline: by key first, then by label. */
function matchColumns(base: readonly TrialRun[], comp: readonly TrialRun[]): Match[] {
  const group = (runs: readonly TrialRun[]) => {
    const m = new Map<string, RunSummary[]>();
    for (const r of runs) m.set(r.summary.column.key, [...(m.get(r.summary.column.key) ?? []), r.summary]);
    return m;
  };
  const b = group(base),
    c = group(comp);
  const used = new Set<string>();
  const out: Match[] = [];
  const label = (l: string) => l.trim().toLowerCase();
  for (const [key, runs] of c) {
    if (b.has(key)) {
      used.add(key);
      out.push([key, b.get(key)!, runs, 'key']);
    } else out.push([key, [], runs, null]);
  }
  for (const m of out) {
    if (m[3] !== null) continue;
    const wanted = label(m[2][0]!.column.label);
    const hit = [...b.entries()].find(
      ([k, runs]) => !used.has(k) && !c.has(k) && label(runs[0]!.column.label) === wanted,
    );
    if (hit) {
      used.add(hit[0]);
      m[1] = hit[1];
      m[3] = 'label';
    }
  }
  for (const [key, runs] of b) if (!used.has(key)) out.push([key, runs, [], null]);
  return out;
}

function sideOf(runs: readonly RunSummary[]): DiffSide {
  const ran = runs.filter(ranAtAll);
  const failing = ran.filter((r) => !runOutcome(r).passed);
  return {
    runs: ran.length,
    passed: ran.length - failing.length,
    failures: [...new Set(failing.map((r) => runOutcome(r).reason ?? 'it did not pass'))],
  };
}

function valueOf(r: RunSummary, f: Exclude<DiffFigureKey, 'passRate'>): number | null {
  return f === 'cost' ? r.cost.usd : r.totals[f];
}

function amount(f: DiffFigureKey, v: number, mean: boolean): string {
  if (f === 'wallMs') return formatDuration(v);
  if (f === 'cost') return formatUsd(v);
  return mean ? formatMean(v) : formatInt(Math.round(v));
}

const WORSE: Record<Exclude<DiffFigureKey, 'passRate'>, [string, string]> = {
  total: ['more tokens in all', 'fewer tokens in all'],
  prompt: ['more prompt tokens', 'fewer prompt tokens'],
  completion: ['more completion tokens', 'fewer completion tokens'],
  cost: ['more', 'less'],
  steps: ['more steps', 'fewer steps'],
  wallMs: ['more wall time', 'less wall time'],
};

function meanFigure(
  f: Exclude<DiffFigureKey, 'passRate'>,
  b: readonly RunSummary[],
  c: readonly RunSummary[],
  sim: string,
): FigureDiff {
  const label = DIFF_FIGURE_LABELS[f];
  // Only passing runs: a run that failed early spent little, and that is no improvement.
  const bp = b.filter((r) => runOutcome(r).passed),
    cp = c.filter((r) => runOutcome(r).passed);
  const bv = bp.map((r) => valueOf(r, f)),
    cv = cp.map((r) => valueOf(r, f));
  // The side that has a figure still shows it (a column that fails now keeps its baseline's mean in view).
  const stat = (v: readonly (number | null)[]) =>
    v.length > 0 && v.every((x) => x !== null) ? meanStat(v as number[]) : null;
  const none = (why: string): FigureDiff => ({
    figure: f,
    label,
    baseline: stat(bv),
    comparison: stat(cv),
    diff: null,
    ci95: null,
    percent: null,
    p: null,
    trend: 'no-figure',
    sentence: `${label}: ${why}.`,
  });
  if (bp.length === 0 || cp.length === 0)
    return none(`no figure to compare (${bp.length === 0 ? 'no baseline run passed' : 'no run passed now'})`);
  if ([...bv, ...cv].some((v) => v === null)) return none('not known for every run (no price)');
  const bs = bv as number[],
    cs = cv as number[];
  const d = compareMeans(cs, bs, false)!;
  const mean = bs.length > 1 || cs.length > 1;
  const unit = f === 'cost' || f === 'wallMs' || f === 'steps' ? '' : sim;
  const from = `${amount(f, meanStat(bs)!.mean, mean)} → ${amount(f, meanStat(cs)!.mean, mean)}${unit}`;
  const pct =
    d.percent === null
      ? ''
      : `, ${d.percent >= 0 ? '+' : '−'}${Math.abs(d.percent) < 0.5 && d.percent !== 0 ? Math.abs(d.percent).toFixed(1) : Math.round(Math.abs(d.percent))} %`;
  const base = {
    figure: f,
    label,
    baseline: meanStat(bs),
    comparison: meanStat(cs),
    diff: d.diff,
    ci95: d.ci95,
    percent: d.percent,
    p: d.test?.p ?? null,
  };
  if (d.diff === 0) return { ...base, trend: 'same', sentence: `${label}: ${from}, unchanged.` };
  const [worse, better] = WORSE[f];
  const way = d.diff > 0 ? worse : better;
  if (!d.test) {
    return {
      ...base,
      trend: 'one-run',
      sentence: `${label}: ${from}${pct} (${way}); ${bs.length === 1 && cs.length === 1 ? 'one run each' : 'one run on a side'} cannot tell this from noise: run ${SUGGESTED_TRIALS} trials for a verdict.`,
    };
  }
  // No figure falls below zero, so the interval of the change stops at −100 %.
  const ci = d.percentCi95
    ? `95 % CI ${Math.round(Math.max(-100, d.percentCi95[0]))} % to ${Math.round(d.percentCi95[1])} %; `
    : '';
  const evidence = `${ci}${formatP(d.test.p)}, ${cs.length} vs ${bs.length} passing runs`;
  if (d.test.p < 0.05)
    return {
      ...base,
      trend: d.diff > 0 ? 'regressed' : 'improved',
      sentence: `${label}: ${from}${pct} (${way}; ${evidence}).`,
    };
  const tooFew = d.test.minP >= 0.05 ? `, too few runs for p < 0.05` : ': not a clear change';
  return { ...base, trend: 'unclear', sentence: `${label}: ${from}${pct} (${way}; ${evidence}${tooFew}).` };
}

function rateFigure(b: readonly RunSummary[], c: readonly RunSummary[]): FigureDiff {
  const label = DIFF_FIGURE_LABELS.passRate;
  const ok = (r: RunSummary) => runOutcome(r).passed;
  const bRan = b.filter(ranAtAll),
    cRan = c.filter(ranAtAll);
  const bs = wilson(bRan.filter(ok).length, bRan.length),
    cs = wilson(cRan.filter(ok).length, cRan.length);
  const base = { figure: 'passRate' as const, label, baseline: bs, comparison: cs, percent: null };
  if (!bs || !cs)
    return {
      ...base,
      diff: null,
      ci95: null,
      p: null,
      trend: 'no-figure',
      sentence: `${label}: no run ${!bs ? 'in the baseline' : 'now'} ran.`,
    };
  const k = (list: readonly RunSummary[]) => `${list.filter(ok).length} of ${list.length}`;
  const from = `passed ${k(bRan)} → ${k(cRan)}`;
  const d = compareRates(cRan.map(ok), bRan.map(ok), false)!;
  const common = { ...base, diff: d.diff, ci95: d.ci95, p: d.test?.p ?? null };
  if (cs.rate === 0 && bs.rate > 0)
    return {
      ...common,
      trend: 'now-fails',
      sentence: `${label}: ${from}: it fails now (${[...new Set(cRan.map((r) => runOutcome(r).reason))].join('; ')}).`,
    };
  if (d.diff === 0) return { ...common, trend: 'same', sentence: `${label}: ${from}, unchanged.` };
  const pts = `${d.diff > 0 ? '+' : '−'}${Math.abs(Math.round(d.diff * 100))} points`;
  if (!d.test)
    return {
      ...common,
      trend: 'one-run',
      sentence: `${label}: ${from} (${pts}); one run on a side cannot tell this from chance: run ${SUGGESTED_TRIALS} trials for a verdict.`,
    };
  const evidence = `${pts}, 95 % CI ${Math.round(d.ci95[0] * 100)} to ${Math.round(d.ci95[1] * 100)}; ${formatP(d.test.p)}`;
  if (d.test.p < 0.05)
    return { ...common, trend: d.diff < 0 ? 'regressed' : 'improved', sentence: `${label}: ${from} (${evidence}).` };
  return { ...common, trend: 'unclear', sentence: `${label}: ${from} (${evidence}: not a clear change).` };
}

function columnDiff(
  key: string,
  b: readonly RunSummary[],
  c: readonly RunSummary[],
  by: Match[3],
  simulated: boolean,
): ColumnDiff {
  const label = (c[0] ?? b[0])!.column.label;
  const sim = simulated ? ' (simulated)' : '';
  if (b.length === 0 || c.length === 0) {
    const only = b.length === 0 ? 'comparison-only' : 'baseline-only';
    const side = sideOf(b.length === 0 ? c : b);
    return {
      key,
      label,
      matchedBy: null,
      presence: only,
      baseline: b.length ? side : null,
      comparison: c.length ? side : null,
      figures: [],
      steps: diffSteps(b, c),
      flag: only,
      summary:
        only === 'comparison-only'
          ? `${label} is new: the baseline has no column of that key or label (${side.passed} of ${side.runs} runs passed now).`
          : `${label} ran only in the baseline (${side.passed} of ${side.runs} runs passed then); this comparison has no such column.`,
    };
  }
  const figures = [
    ...ORDER.filter((f): f is Exclude<DiffFigureKey, 'passRate'> => f !== 'passRate').map((f) =>
      meanFigure(f, b, c, sim),
    ),
    rateFigure(b, c),
  ];
  // A cost only where both sides have one; a comparison of the simulated model has no price.
  const shown = figures.filter((f) => f.figure !== 'cost' || f.trend !== 'no-figure');
  const regressed = shown.filter((f) => f.trend === 'regressed' || f.trend === 'now-fails');
  const improved = shown.filter((f) => f.trend === 'improved');
  const flag = regressed.length
    ? 'regressed'
    : improved.length
      ? 'improved'
      : shown.some((f) => f.trend === 'one-run' || f.trend === 'unclear' || f.trend === 'no-figure')
        ? 'no-verdict'
        : 'unchanged';
  const names = (list: readonly FigureDiff[]) =>
    list.map((f) => (f.trend === 'now-fails' ? 'it fails now' : f.label.toLowerCase())).join(', ');
  const summary =
    flag === 'regressed'
      ? `${label} regressed: ${names(regressed)}.${improved.length ? ` Improved: ${names(improved)}.` : ''}`
      : flag === 'improved'
        ? `${label} improved: ${names(improved)}.`
        : flag === 'unchanged'
          ? `${label}: nothing changed.`
          : `${label}: no clear change${shown.some((f) => f.trend === 'one-run') ? ' (one run on a side gives no verdict)' : ''}.`;
  return {
    key,
    label,
    matchedBy: by,
    presence: 'both',
    baseline: sideOf(b),
    comparison: sideOf(c),
    figures: shown,
    flag,
    summary,
    steps: diffSteps(b, c),
  };
}

function headlineOf(columns: readonly ColumnDiff[], b: DiffInput, c: DiffInput): string[] {
  const lines: string[] = [];
  const of = (flag: ColumnDiff['flag']) => columns.filter((x) => x.flag === flag);
  for (const x of of('regressed')) lines.push(x.summary);
  for (const x of of('improved')) lines.push(x.summary);
  if (!of('regressed').length && !of('improved').length) lines.push('No column changed clearly against the baseline.');
  const unsettled = of('no-verdict');
  if (unsettled.length)
    lines.push(
      `No verdict for ${unsettled.map((x) => x.label).join(', ')}: ${unsettled.some((x) => x.figures.some((f) => f.trend === 'one-run')) ? `one run on a side cannot separate a change from noise; run ${SUGGESTED_TRIALS} trials` : 'the trials show no clear change'}.`,
    );
  for (const x of [...of('comparison-only'), ...of('baseline-only')]) lines.push(x.summary);
  if (b.model !== c.model) lines.push(`The model changed: ${b.model} in the baseline, ${c.model} now.`);
  return lines;
}

/** The figure as text for a table cell: the mean with its interval half-width, or the pass rate. */
export function figureCell(f: FigureDiff, side: 'baseline' | 'comparison', simulated: boolean): string {
  const s = f[side];
  if (!s) return '—';
  if ('rate' in s) return `${Math.round(s.rate * 100)} % (${s.k} of ${s.n})`;
  const m = s as MeanStat;
  const many = m.n > 1;
  const text = amount(f.figure, m.mean, many);
  const half = m.ci95 ? ` ± ${amount(f.figure, (m.ci95[1] - m.ci95[0]) / 2, true)}` : '';
  const tokens = f.figure === 'total' || f.figure === 'prompt' || f.figure === 'completion';
  return `${text}${half}${tokens && simulated ? ' (simulated)' : ''}`;
}

/** The trend in a word, never a success word for a failure. */
export const TREND_WORDS: Readonly<Record<DiffTrend, string>> = {
  regressed: 'Regressed',
  improved: 'Improved',
  unclear: 'No clear change',
  'one-run': 'No verdict (one run)',
  same: 'Unchanged',
  'no-figure': 'No figure',
  'now-fails': 'Fails now',
};
