/**
 * The result of a comparison in a few sentences, computed once here and shown first on every surface (the
 * app's tabs, the HTML and Markdown reports, the JSON report, the end of `parallax compare`): which column
 * used the fewest tokens and by how much, among which runs (those that passed), why (from what each request
 * carried and from the steps), what was left out and why, and how far the evidence goes — one run cannot tell
 * a small difference from noise; over trials the interval and the exact permutation test say it.
 */
import { formatInt, formatMean } from './number-format.js';
import { columnProfile, reasons, type ColumnProfile } from './result-reasons.js';
import { ranAtAll, runOutcome } from './run-outcome.js';
import { MAX_TRIALS } from './run-spec.js';
import { countsInFigures, type RunSummary } from './summary.js';
import { fewestTokensVerdict } from './verdict.js';
import { differencesByMode, type TrialRun } from './trial-differences.js';
import type { ColumnRef } from './variants.js';

export type ResultOutcome =
  /** A column used fewer tokens: clearly over trials (p < 0.05), or by 5 % or more in one run each. */
  | 'won'
  /** One run each and less than 5 % apart, or the same mean over trials: about even. */
  | 'close'
  /** Over trials, fewer on average but the test shows no clear difference. */
  | 'unclear'
  /** Only one column passed: nothing to compare it with. */
  | 'only'
  /** No column passed, or the figures are not complete (usage not sent). */
  | 'none'
  /** The comparison has one column. */
  | 'single'
  /** Some run has not finished. */
  | 'running';

export interface ResultStatement {
  readonly outcome: ResultOutcome;
  /** The figure compared: total tokens. */
  readonly figure: 'total';
  readonly winner: ColumnRef | null;
  /** The column the winner is measured against: the next best. */
  readonly against: ColumnRef | null;
  /** The difference in percent against `against` (negative: fewer); null without two contenders. */
  readonly percent: number | null;
  /** The answer in one sentence. */
  readonly headline: string;
  /** Which runs competed, in words. */
  readonly among: string | null;
  /** Why, from the prompt composition and the steps. */
  readonly why: readonly string[];
  /** Each run or column left out because it failed, with why (shown in the colour of failure). */
  readonly leftOut: readonly string[];
  /** What a cancel took away: runs stopped or never started. Not failures, so never in their colour. */
  readonly notes: readonly string[];
  /** How far the evidence goes: the one-run caveat, or the interval and the test. */
  readonly evidence: string | null;
  /**
   * The trials per mode that could settle it, when the comparison could not: SUGGESTED_TRIALS after one run
   * each, MAX_TRIALS after fewer trials that showed no clear difference; null when nothing more is to be had.
   */
  readonly suggestTrials: number | null;
}

/** Trials the result suggests when one run each cannot settle it. */
export const SUGGESTED_TRIALS = 5;

/** Below this difference in percent, one run each is "about even". */
const CLOSE_PERCENT = 5;

export interface ResultInput {
  readonly runs: readonly TrialRun[];
  /** Token figures came from the simulated model: said after each. */
  readonly simulated: boolean;
}

function andList(words: readonly string[]): string {
  const u = [...new Set(words)];
  return u.length <= 1 ? (u[0] ?? '') : `${u.slice(0, -1).join(', ')} and ${u[u.length - 1]}`;
}

const base = {
  figure: 'total' as const,
  winner: null,
  against: null,
  percent: null,
  among: null,
  why: [],
  leftOut: [],
  notes: [],
  evidence: null,
  suggestTrials: null,
};

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

/**
 * What a cancel took away, in neutral words: whole trials that never began said once ("Cancelled after 3 of 10
 * trials"), else each column's runs that never started.
 */
function cancelNotes(runs: readonly TrialRun[], columns: readonly string[]): string[] {
  const never = runs.filter((r) => !ranAtAll(r.summary));
  if (never.length === 0) return [];
  const planned = Math.max(...runs.map((r) => r.trial));
  const trialsRan = new Set(runs.filter((r) => ranAtAll(r.summary)).map((r) => r.trial)).size;
  const neverTrials = [...new Set(never.map((r) => r.trial))];
  const whole = neverTrials.every((t) => runs.filter((r) => r.trial === t).every((r) => !ranAtAll(r.summary)));
  if (planned > 1 && whole && trialsRan > 0) {
    return [
      `Cancelled after ${trialsRan} of ${planned} trials: the other ${plural(planned - trialsRan, 'trial')} never started, so no figure counts ${planned - trialsRan === 1 ? 'it' : 'them'}.`,
    ];
  }
  return columns.flatMap((k) => {
    const all = runs.filter((r) => r.summary.column.key === k).map((r) => r.summary);
    const n = all.filter((r) => !ranAtAll(r)).length;
    const label = all[0]!.column.label;
    if (n === 0) return [];
    if (n === all.length)
      return [
        `${label} is left out: ${n === 1 ? 'its run was' : `all ${n} of its runs were`} cancelled before ${n === 1 ? 'it' : 'they'} started.`,
      ];
    return [
      `${n} of ${label}'s ${all.length} runs ${n === 1 ? 'was' : 'were'} cancelled before ${n === 1 ? 'it' : 'they'} started: ${n === 1 ? 'it has' : 'they have'} no figures.`,
    ];
  });
}

/** The result of a comparison's runs (all trials). */
export function resultStatement({ runs, simulated }: ResultInput): ResultStatement {
  const sim = simulated ? ' (simulated)' : '';
  const columns = [...new Set(runs.map((r) => r.summary.column.key))];
  const ofColumn = (key: string) => runs.filter((r) => r.summary.column.key === key).map((r) => r.summary);
  if (runs.some((r) => r.summary.status === 'running')) {
    return {
      ...base,
      outcome: 'running',
      headline: 'The comparison is still running: the result comes when every run has ended.',
    };
  }
  if (columns.length < 2) {
    return {
      ...base,
      outcome: 'single',
      headline: `Only ${runs[0]?.summary.column.label ?? 'one column'} ran: there is nothing to compare it with.`,
    };
  }
  // A run cancelled before it started tried nothing: it has no figures, no place in a test, and is said apart.
  const notStarted = cancelNotes(runs, columns);
  const ran = runs.filter((r) => ranAtAll(r.summary));
  if (ran.length === 0)
    return {
      ...base,
      outcome: 'none',
      headline: 'No result: the comparison was cancelled before any run started.',
      notes: notStarted,
    };
  const ranColumns = columns.filter((k) => ran.some((r) => r.summary.column.key === k));
  const ranOf = (key: string) => ofColumn(key).filter(ranAtAll);
  if (ranColumns.length < 2) {
    return {
      ...base,
      outcome: 'single',
      headline: `Only ${ran[0]!.summary.column.label} ran: there is nothing to compare it with.`,
      notes: notStarted,
    };
  }
  const trials = ranColumns.some((k) => ranOf(k).length > 1);
  const result = trials
    ? overTrials(ran, ranColumns, ranOf, sim)
    : oneRunEach(
        ran.map((r) => r.summary),
        sim,
      );
  return notStarted.length === 0 ? result : { ...result, notes: [...result.notes, ...notStarted] };
}

const spent = (r: RunSummary) => (r.totals.total > 0 ? ` (${formatInt(r.totals.total)} tokens)` : '');

/** "ReAct — its answer failed validation (…)" for each run that failed; a cancelled run is not a failure. */
function leftOutRuns(all: readonly RunSummary[], label: (r: RunSummary) => string): string[] {
  // Its tokens are said, so a cheaper run that failed is seen as left out, not overlooked.
  return all
    .filter((r) => !runOutcome(r).passed && r.status !== 'cancelled')
    .map((r) => `${label(r)}${spent(r)} is left out: ${runOutcome(r).reason}.`);
}

function oneRunEach(all: readonly RunSummary[], sim: string): ResultStatement {
  const verdict = fewestTokensVerdict(all);
  const leftOut = leftOutRuns(all, (r) => r.column.label);
  const notes = all
    .filter((r) => r.status === 'cancelled')
    .map((r) => `${r.column.label}${spent(r)} is left out: ${runOutcome(r).reason}.`);
  const passing = all.filter((r) => runOutcome(r).passed);
  if (verdict.withheld || passing.length === 0) {
    const headline =
      verdict.withheld ??
      (all.some((r) => r.status === 'answered')
        ? 'No result: no answer passed validation.'
        : 'No result: no run answered.');
    return { ...base, outcome: 'none', headline, leftOut, notes };
  }
  const ranked = verdict.ranking.map((id) => all.find((r) => r.runId === id)!);
  const [win, next] = ranked;
  const validated = passing.every((r) => r.validation?.ok === true);
  const among =
    passing.length === all.length
      ? validated
        ? 'Every run passed validation.'
        : 'Every run answered (the task has no validator to check the answers).'
      : `Among the runs that ${validated ? 'passed validation' : 'answered'}: ${andList(passing.map((r) => r.column.label))}.`;
  if (!next) {
    return {
      ...base,
      outcome: 'only',
      winner: win!.column,
      headline: `Only ${win!.column.label} passed, with ${formatInt(win!.totals.total)} tokens${sim}: no other run to compare it with.`,
      among,
      leftOut,
      notes,
    };
  }
  const w = win!;
  const pct = next.totals.total === 0 ? 0 : ((w.totals.total - next.totals.total) / next.totals.total) * 100;
  const figures = `${formatInt(w.totals.total)} total tokens${sim} against ${next.column.label}'s ${formatInt(next.totals.total)}`;
  const close = Math.abs(pct) < CLOSE_PERCENT;
  const rounded = Math.abs(pct) < 0.05 ? '0' : Math.abs(pct).toFixed(1);
  const headline = close
    ? `${w.column.label} and ${next.column.label} used about as many tokens: ${formatInt(w.totals.total)} and ${formatInt(next.totals.total)} total tokens${sim}, ${rounded} % apart.`
    : `${w.column.label} used the fewest tokens: ${figures}, ${Math.round(Math.abs(pct))} % fewer.`;
  const evidence = close
    ? `One run each cannot tell a ${rounded} % difference from noise: run ${SUGGESTED_TRIALS} trials to measure it with intervals and a test.`
    : `One run each: a single run cannot separate a small difference from noise; run ${SUGGESTED_TRIALS} trials for intervals and a test.`;
  const why = close ? [] : reasons(columnProfile([w]), columnProfile([next]));
  return {
    ...base,
    outcome: close ? 'close' : 'won',
    winner: w.column,
    against: next.column,
    percent: pct,
    headline,
    among,
    why,
    leftOut,
    notes,
    evidence,
    suggestTrials: SUGGESTED_TRIALS,
  };
}

function overTrials(
  runs: readonly TrialRun[],
  columns: readonly string[],
  ofColumn: (k: string) => RunSummary[],
  sim: string,
): ResultStatement {
  const leftOut: string[] = [];
  const notes: string[] = [];
  const stopped: string[] = [];
  const contenders: ColumnProfile[] = [];
  for (const key of columns) {
    // A run cancelled while it ran is in no figure and no test: said in neutral words, never counted as a failure.
    const all = ofColumn(key);
    const label = all[0]!.column.label;
    const cancelled = runs
      .filter((r) => r.summary.column.key === key && r.summary.status === 'cancelled')
      .map((r) => r.trial)
      .sort((a, b) => a - b);
    const list = all.filter((r) => r.status !== 'cancelled');
    if (cancelled.length) {
      stopped.push(
        list.length === 0
          ? `${label} is left out: its ${cancelled.length === 1 ? 'run was' : 'runs were'} cancelled while ${cancelled.length === 1 ? 'it' : 'they'} ran.`
          : `${label}'s run of trial${cancelled.length === 1 ? '' : 's'} ${andList(cancelled.map(String))} was cancelled while it ran: it is in no figure or test.`,
      );
    }
    if (list.length === 0) continue;
    const passed = list.filter((r) => runOutcome(r).passed).length;
    const counted = list.filter(countsInFigures);
    if (passed === 0) {
      const why = andList([...new Set(list.map((r) => runOutcome(r).reason!))]);
      leftOut.push(
        `${label} is left out: ${list.length === 1 ? 'its one run did not pass' : `none of its ${list.length} runs passed`} (${why}).`,
      );
      continue;
    }
    if (counted.some((r) => r.usageSource === 'missing')) {
      leftOut.push(
        `${label} is left out: the provider sent no usage for some of its steps, so its totals are incomplete.`,
      );
      continue;
    }
    if (passed < list.length)
      notes.push(`${label} passed ${passed} of ${list.length} runs; its means cover every run that ended by itself.`);
    contenders.push(columnProfile(counted));
  }
  const n = Math.max(...columns.map((k) => ofColumn(k).filter((r) => r.status !== 'cancelled').length));
  const among =
    contenders.length === columns.length && notes.length === 0
      ? `Over ${n} trials; every run passed${runs.every((r) => r.summary.validation?.ok === true) ? ' validation' : ' (answered; the task has no validator)'}.`
      : `Over ${n} trials, among the columns with a passing run: ${andList(contenders.map((c) => c.label))}.`;
  if (contenders.length === 0)
    return {
      ...base,
      outcome: 'none',
      headline: 'No result: no column passed in any trial.',
      leftOut: [...leftOut, ...notes],
      notes: stopped,
    };
  const ranked = [...contenders].sort((a, b) => a.total - b.total);
  const [w, next] = ranked as [ColumnProfile, ColumnProfile | undefined];
  const winner = ofColumn(w.key)[0]!.column;
  if (!next)
    return {
      ...base,
      outcome: 'only',
      winner,
      headline: `Only ${w.label} passed, with ${formatMean(w.total)} tokens on average${sim}: no other column to compare it with.`,
      among,
      leftOut: [...leftOut, ...notes],
      notes: stopped,
    };
  const d = differencesByMode(runs, next.key).find((x) => x.column.key === w.key && x.figure === 'total');
  const clear = d?.p != null && d.p < 0.05;
  const pct = next.total === 0 ? 0 : ((w.total - next.total) / next.total) * 100;
  const figures = `an average of ${formatMean(w.total)} total tokens${sim} against ${next.label}'s ${formatMean(next.total)}`;
  // Every trial went the same way, yet so few trials cannot reach 5 %: more trials can settle it.
  const tooFew = !clear && d?.p != null && d.minP != null && d.minP >= 0.05 && d.p <= d.minP * (1 + 1e-9);
  const same = Math.abs(pct) < 0.05;
  const headline = same
    ? `${w.label} and ${next.label} used as many tokens on average: ${formatMean(w.total)} total tokens${sim} each.`
    : clear
      ? `${w.label} used the fewest tokens: ${figures}, ${Math.round(Math.abs(pct))} % fewer.`
      : tooFew
        ? `${w.label} used fewer tokens than ${next.label} in every trial (${figures}), but ${n} trials are too few for a clear test.`
        : `${w.label} used fewer tokens on average than ${next.label} (${figures}), but ${n} trials do not show a clear difference.`;
  const more = !clear && n < MAX_TRIALS;
  const evidence = d ? `${d.sentence}.${more ? ` Run ${MAX_TRIALS} trials to settle it.` : ''}` : null;
  return {
    ...base,
    outcome: same ? 'close' : clear ? 'won' : 'unclear',
    winner,
    against: ofColumn(next.key)[0]!.column,
    percent: pct,
    headline,
    among,
    why: same ? [] : reasons(w, next),
    leftOut: [...leftOut, ...notes],
    notes: stopped,
    evidence,
    suggestTrials: more ? MAX_TRIALS : null,
  };
}

/** The statement as lines of plain text, in reading order (headline, among, why, left out, notes, evidence). */
export function resultLines(s: ResultStatement): string[] {
  return [
    s.headline,
    ...(s.among ? [s.among] : []),
    ...s.why,
    ...s.leftOut,
    ...s.notes,
    ...(s.evidence ? [s.evidence] : []),
  ];
}
