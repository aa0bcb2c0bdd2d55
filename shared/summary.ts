/**
 * Report math: everything a table, chart, CLI summary or report shows is derived here from StepEvents,
 * so every surface shows the same numbers.
 */
import type { PromptComposition } from './prompt-composition.js';
import {
  combineSources,
  runCost,
  stepCost,
  sumCosts,
  usablePrice,
  usageSourceOf,
  type RunCost,
  type RunUsageSource,
  type StepCost,
  type StepUsageSource,
} from './cost.js';
import type { ModeId, ProviderInfo, TaskRef } from './run-spec.js';
import type {
  ModelPrice,
  RunStatus,
  RunTotals,
  StepEvent,
  Usage,
  Validation,
  WorkerStartRecord,
} from './step-event.js';
import { cheapestVerdict, fewestTokensVerdict, type Verdict } from './verdict.js';
import { meanStat, wilson, type MeanStat, type RateStat } from './trial-stats.js';
import { columnOf, type ColumnRef } from './variants.js';
import { ranAtAll } from './run-outcome.js';

export type { RunCost, RunUsageSource, StepCost, StepUsageSource, Verdict };

export interface StepSummary {
  readonly step: number;
  readonly prompt: number;
  readonly completion: number;
  readonly cached: number;
  /** Prompt tokens written to the provider's cache (Usage.cacheWrite); absent when the step reported none. */
  readonly cacheWrite?: number;
  readonly reasoning: number;
  /** Attempts made for this step (1 + retries). */
  readonly attempts: number;
  readonly latencyMs: number;
  readonly toolCalls: number;
  /** True when the provider sent no usage for this step (its tokens count as 0). */
  readonly usageMissing: boolean;
  /** Where the step's usage came from (events recorded before sources existed read as 'reported'). */
  readonly usageSource: StepUsageSource;
  readonly cost: StepCost;
  /** What the request carried, by part, summing to `prompt`; absent when not recorded (no usage, older runs). */
  readonly promptComposition?: PromptComposition;
}

export interface RunSummary {
  readonly runId: string;
  readonly mode: ModeId;
  /** Its column: the variant it ran, or its mode's plain column (shared/variants.ts). Group and label by this. */
  readonly column: ColumnRef;
  readonly task: TaskRef | null;
  readonly provider: ProviderInfo | null;
  /**
   * 'running' until a run-finished event arrives; history sets 'interrupted' for runs that began and never
   * finished, 'never-started' for runs whose round never began (nothing stored).
   */
  readonly status: RunStatus | 'running' | 'interrupted' | 'never-started';
  readonly answer: string;
  readonly error: string | null;
  readonly validation: Validation | null;
  readonly totals: RunTotals;
  readonly perStep: readonly StepSummary[];
  /** Epoch ms of the first model request, for checking that modes started together. */
  readonly firstRequestAt: number | null;
  /** Prompt tokens of the first request: the fixed cost of the mode's tool definitions and prompt. */
  readonly firstRequestPrompt: number | null;
  /** Where the run's usage came from, over its steps. */
  readonly usageSource: RunUsageSource;
  /** The run's cost in USD, from the price recorded when it started or the provider's own figures. */
  readonly cost: RunCost;
  /** Tool calls made inside run_code programs (each program is one call in totals.toolCalls). */
  readonly programToolCalls: number;
  /** The run_code calls the model named (programs), in totals.toolCalls. */
  readonly programs?: number;
  /** How its worker started (run-started.workerStart); null when not measured. */
  readonly workerStart: WorkerStartRecord | null;
  /** Tools offered on its first request (run-started.tools); absent before the run started. */
  readonly toolsOffered?: number;
  /**
   * Its `summarize:K` summary requests (history-summary events), in the totals and in no step's row: the
   * charts show them apart so the steps plus these make the totals. Absent when the run made none.
   */
  readonly historySummaries?: readonly SummaryRequest[];
}

export interface SummaryRequest {
  /** The step whose request first carried the summary (it was asked for just before). */
  readonly step: number;
  readonly fromStep: number;
  readonly toStep: number;
  readonly prompt: number;
  readonly completion: number;
  /** Prompt tokens of the messages it replaced (0 when it failed). */
  readonly replacedTokens: number;
  readonly failed: boolean;
}

function summaryRequests(events: readonly StepEvent[]): SummaryRequest[] {
  return events.flatMap((e) =>
    e.type === 'history-summary'
      ? [
          {
            step: e.step,
            fromStep: e.fromStep,
            toStep: e.toStep,
            prompt: e.usage?.prompt ?? 0,
            completion: e.usage?.completion ?? 0,
            replacedTokens: e.replacedTokens,
            failed: e.error !== null,
          },
        ]
      : [],
  );
}

function usageOf(u: Usage | null) {
  return {
    prompt: u?.prompt ?? 0,
    completion: u?.completion ?? 0,
    cached: u?.cached ?? 0,
    reasoning: u?.reasoning ?? 0,
  };
}

/** Per-step usage, in step order. A step is one model response. */
export function computePerStep(events: readonly StepEvent[]): StepSummary[] {
  const attempts = new Map<number, number>();
  const tools = new Map<number, number>();
  let price: ModelPrice | null | undefined;
  for (const e of events) {
    if (e.type === 'run-started') price = usablePrice(e.price);
    if (e.type === 'model-request') attempts.set(e.step, Math.max(attempts.get(e.step) ?? 0, e.attempt));
    if (e.type === 'model-response') tools.set(e.step, e.toolCalls.length);
  }
  const steps: StepSummary[] = [];
  for (const e of events) {
    if (e.type !== 'model-response') continue;
    const u = usageOf(e.usage);
    steps.push({
      step: e.step,
      ...u,
      ...(e.usage?.cacheWrite ? { cacheWrite: e.usage.cacheWrite } : {}),
      attempts: attempts.get(e.step) ?? 1,
      latencyMs: e.latencyMs,
      toolCalls: tools.get(e.step) ?? 0,
      usageMissing: e.usage === null,
      usageSource: usageSourceOf(e),
      cost: stepCost(e, price),
      // Absent, not null, when not recorded: stored comparisons keep their reports byte for byte.
      ...(e.promptComposition ? { promptComposition: e.promptComposition } : {}),
    });
  }
  return steps;
}

/** Prompt tokens a run wrote to the provider's cache, over its steps (0 when none were reported). */
export function cacheWriteTotal(perStep: readonly Pick<StepSummary, 'cacheWrite'>[]): number {
  return perStep.reduce((sum, s) => sum + (s.cacheWrite ?? 0), 0);
}

/** Totals derived from the steps; `run-finished.totals` is this function's output at the end of the run. */
export function computeTotals(events: readonly StepEvent[]): RunTotals {
  let prompt = 0,
    completion = 0,
    cached = 0,
    reasoning = 0,
    total = 0,
    requests = 0,
    steps = 0,
    toolCalls = 0;
  let lastT = 0;
  const waits: [number, number][] = [];
  for (const e of events) {
    // Wall time ends at the last event of the work itself: run-finished comes after answer validation.
    if (e.type !== 'run-finished') lastT = Math.max(lastT, e.t);
    // Time spent waiting for the user is not the run's own time: kept apart so a paused run compares fairly.
    if (e.type === 'approval-resolved') waits.push([e.t - e.waitedMs, e.t]);
    if (e.type === 'model-request') requests++;
    if (e.type === 'model-response') {
      steps++;
      const u = usageOf(e.usage);
      prompt += u.prompt;
      completion += u.completion;
      cached += u.cached;
      reasoning += u.reasoning;
      // The provider's own total when it sent one (xAI counts reasoning outside completion_tokens).
      total += e.usage?.total ?? u.prompt + u.completion;
      toolCalls += e.toolCalls.length;
    }
    // An MCP server's sampling request, and a history summary, went to the run's own model: their tokens are the run's, not a step's.
    if ((e.type === 'sampling' || e.type === 'history-summary') && e.usage) {
      requests++;
      prompt += e.usage.prompt;
      completion += e.usage.completion;
      cached += e.usage.cached ?? 0;
      reasoning += e.usage.reasoning ?? 0;
      total += e.usage.total ?? e.usage.prompt + e.usage.completion;
    }
  }
  const approvalWaitMs = coveredMs(waits);
  const started = events.find((e) => e.type === 'run-started');
  // Measured by the host before the run's clock started, so it is a figure of its own, never part of wallMs.
  const startupMs = started?.type === 'run-started' ? (started.workerStart?.ms ?? 0) : 0;
  return {
    steps,
    requests,
    prompt,
    completion,
    cached,
    reasoning,
    total,
    toolCalls,
    wallMs: Math.max(0, lastT - approvalWaitMs),
    approvalWaitMs,
    startupMs,
  };
}

/** Length of the union of [start, end] intervals: two calls waiting at once count their overlap once. */
function coveredMs(intervals: [number, number][]): number {
  let total = 0;
  let reach = -Infinity;
  for (const [start, end] of intervals.sort((a, b) => a[0] - b[0])) {
    if (end <= reach) continue;
    total += end - Math.max(start, reach);
    reach = end;
  }
  return Math.round(total * 10) / 10;
}

/** Summarise one run's events (in seq order). Works on a run still in progress. */
export function summarizeRun(events: readonly StepEvent[]): RunSummary {
  const started = events.find((e) => e.type === 'run-started');
  const finished = events.find((e) => e.type === 'run-finished');
  const firstRequest = events.find((e) => e.type === 'model-request');
  const perStep = computePerStep(events);
  const summaries = summaryRequests(events);
  return {
    runId: events[0]?.runId ?? '',
    mode: started?.type === 'run-started' ? started.mode : 'react',
    column: columnOf(started?.type === 'run-started' ? started : { mode: 'react' }),
    task: started?.type === 'run-started' ? started.task : null,
    provider: started?.type === 'run-started' ? started.provider : null,
    status: finished?.type === 'run-finished' ? finished.status : 'running',
    answer: finished?.type === 'run-finished' ? finished.answer : '',
    error: finished?.type === 'run-finished' ? (finished.error ?? null) : null,
    validation: finished?.type === 'run-finished' ? finished.validation : null,
    totals: computeTotals(events),
    perStep,
    firstRequestAt: started?.type === 'run-started' && firstRequest ? started.startedAt + firstRequest.t : null,
    firstRequestPrompt: perStep[0]?.prompt ?? null,
    usageSource: combineSources(perStep.map((s) => s.usageSource)),
    programToolCalls: events.reduce((n, e) => n + (e.type === 'code-run' ? e.toolCalls.length : 0), 0),
    programs: events.reduce(
      (n, e) => n + (e.type === 'model-response' ? e.toolCalls.filter((c) => c.name === 'run_code').length : 0),
      0,
    ),
    workerStart: started?.type === 'run-started' ? (started.workerStart ?? null) : null,
    ...(started?.type === 'run-started' ? { toolsOffered: started.tools.length } : {}),
    ...(summaries.length ? { historySummaries: summaries } : {}),
    cost: runCost(
      perStep,
      started?.type === 'run-started' ? usablePrice(started.price) : undefined,
      started?.type === 'run-started' ? started.provider : null,
    ),
  };
}

export interface CumulativePoint {
  readonly step: number;
  readonly prompt: number;
  readonly completion: number;
  /** prompt + completion so far. */
  readonly total: number;
}

/** Running token totals after each step (what a cumulative chart plots); the last point equals the run's totals. */
export function cumulativeTokens(perStep: readonly StepSummary[]): CumulativePoint[] {
  let prompt = 0,
    completion = 0;
  return perStep.map((s) => {
    prompt += s.prompt;
    completion += s.completion;
    return { step: s.step, prompt, completion, total: prompt + completion };
  });
}

/** Relative difference of `value` against `base`, in percent (positive = more than base). */
export function percentDiff(value: number, base: number): number | null {
  if (base === 0) return value === 0 ? 0 : null;
  return ((value - base) / base) * 100;
}

export function formatPercent(p: number | null): string {
  if (p === null) return 'n/a';
  const r = Math.round(p * 10) / 10;
  return `${r > 0 ? '+' : ''}${r.toFixed(1)}%`;
}

export interface ComparisonSummary {
  readonly runs: readonly RunSummary[];
  /** The run every other is compared against (the first one, ReAct by default). */
  readonly baselineRunId: string | null;
  /**
   * runId of the run with the fewest total tokens among answered runs, or null: none answered, or an answered
   * run's usage is missing (a run is never a winner from zeros). The same as `fewestTokens.runId`.
   */
  readonly cheapestRunId: string | null;
  /** Per run, the difference in total tokens against the baseline, in percent. */
  readonly totalDiffPercent: Readonly<Record<string, number | null>>;
  /** The "fewest tokens" verdict: its run, whether it rests on estimated figures, or why it is withheld. */
  readonly fewestTokens: Verdict;
  /** The "cheapest" verdict, by cost in USD. */
  readonly cheapest: Verdict;
  /** Per run, the difference in cost against the baseline, in percent (null when either cost is unknown). */
  readonly costDiffPercent: Readonly<Record<string, number | null>>;
  /** What every run of the comparison cost together, answered or not (null unless every run's cost is known). */
  readonly totalCost: { readonly usd: number | null; readonly estimated: boolean };
}

/** Whether a run's figures compare with the baseline's like for like: both answered. */
export const comparableRuns = (run: Pick<RunSummary, 'status'>, base: Pick<RunSummary, 'status'>): boolean =>
  run.status === 'answered' && base.status === 'answered';

/** Said where a Δ is withheld because a run did not answer. */
export const NO_DIFF_NOTE =
  'No Δ where a run or the baseline did not answer: its figures cover only the steps it made.';

export function summarizeComparison(runs: readonly RunSummary[]): ComparisonSummary {
  const base = runs[0] ?? null;
  const fewestTokens = fewestTokensVerdict(runs);
  const diffs: Record<string, number | null> = {};
  const costDiffs: Record<string, number | null> = {};
  for (const r of runs) {
    // A run that did not answer (or a baseline that did not) covers only the steps it made: no Δ, not like for like.
    const like = base !== null && comparableRuns(r, base);
    diffs[r.runId] = like ? percentDiff(r.totals.total, base.totals.total) : null;
    costDiffs[r.runId] =
      like && r.cost.usd !== null && base.cost.usd !== null ? percentDiff(r.cost.usd, base.cost.usd) : null;
  }
  return {
    runs,
    baselineRunId: base?.runId ?? null,
    cheapestRunId: fewestTokens.runId,
    totalDiffPercent: diffs,
    fewestTokens,
    cheapest: cheapestVerdict(runs),
    costDiffPercent: costDiffs,
    totalCost: sumCosts(runs.map((r) => r.cost)),
  };
}

/** Group a flat event list by runId, each in seq order. */
export function groupByRun(events: readonly StepEvent[]): Map<string, StepEvent[]> {
  const byRun = new Map<string, StepEvent[]>();
  for (const e of events) {
    let list = byRun.get(e.runId);
    if (!list) byRun.set(e.runId, (list = []));
    list.push(e);
  }
  for (const list of byRun.values()) list.sort((a, b) => a.seq - b.seq);
  return byRun;
}

/** One figure over a mode's trials: n, mean, sd, 95 % t interval, min and max (shared/trial-stats.ts). */
export type Stat = MeanStat;

/**
 * Which runs the figures over trials cover: those that ended by themselves (answered, hit the step limit, or
 * stopped on an error or the provider's refusal), so a mode that fails often is not made to look cheap by leaving its failures out.
 * Cancelled, crashed and unfinished runs were cut short from outside and are left out; the pass rate counts
 * every run. FIGURES_NOTE says so on every surface.
 */
export function countsInFigures(r: Pick<RunSummary, 'status'>): boolean {
  return (
    r.status === 'answered' ||
    r.status === 'max-steps' ||
    r.status === 'error' ||
    r.status === 'refused' ||
    r.status === 'truncated' ||
    r.status === 'empty'
  );
}

export const FIGURES_NOTE =
  'Token, step, time and cost figures cover every run that ended by itself (answered, step limit or error); cancelled, crashed and unfinished runs are left out. The pass rate counts every run.';

/** The words for a figure with a single value. */
export const ONE_TRIAL_NOTE = '1 trial: no interval';

export interface ModeAggregate {
  readonly mode: ModeId;
  /** The column aggregated: runs are grouped by column (a mode's plain column when no variants ran). */
  readonly column: ColumnRef;
  /** Runs of this mode in the comparison. */
  readonly trials: number;
  /** Runs the figures cover (countsInFigures). */
  readonly finished: number;
  readonly answered: number;
  /** Answered runs whose answer passed validation. */
  readonly passed: number;
  /** Runs cancelled before they started (run-outcome.ts ranAtAll); absent when every run ran. */
  readonly neverStarted?: number;
  /** passed / the runs that ran (ranOfAggregate) with Wilson's 95 % interval; null when none of the column's runs ran. */
  readonly passRate: RateStat | null;
  /** Figures over the finished runs (countsInFigures); null when none finished. */
  readonly steps: Stat | null;
  readonly requests: Stat | null;
  readonly prompt: Stat | null;
  readonly completion: Stat | null;
  readonly cached: Stat | null;
  readonly total: Stat | null;
  readonly wallMs: Stat | null;
  readonly toolCalls: Stat | null;
  /** Cost in USD over the finished runs; null when none finished or a finished run's cost is unknown (no price: no figure, never 0). */
  readonly cost: Stat | null;
  /** Some of the mean cost comes from estimated usage. */
  readonly costEstimated: boolean;
  /** Where the finished runs' usage came from. */
  readonly usageSource: RunUsageSource;
}

export const stat = meanStat;

/** The runs of a column that ran at all: the denominator of its answered and passed counts. */
export const ranOfAggregate = (a: Pick<ModeAggregate, 'trials' | 'neverStarted'>): number =>
  a.trials - (a.neverStarted ?? 0);

/** Per-column figures over several trials (per mode when no variants ran), columns in order of first appearance. */
export function aggregateByColumn(runs: readonly RunSummary[]): ModeAggregate[] {
  const byColumn = new Map<string, RunSummary[]>();
  for (const r of runs) {
    let list = byColumn.get(r.column.key);
    if (!list) byColumn.set(r.column.key, (list = []));
    list.push(r);
  }
  return [...byColumn.values()].map((list) => {
    const { mode, column } = list[0]!;
    const answered = list.filter((r) => r.status === 'answered');
    const finished = list.filter(countsInFigures);
    const of = (pick: (t: RunTotals) => number) => stat(finished.map((r) => pick(r.totals)));
    const passed = answered.filter((r) => r.validation?.ok === true).length;
    const ran = list.filter(ranAtAll).length;
    return {
      mode,
      column,
      trials: list.length,
      finished: finished.length,
      answered: answered.length,
      passed,
      ...(ran < list.length ? { neverStarted: list.length - ran } : {}),
      passRate: ran > 0 ? wilson(passed, ran) : null,
      steps: of((t) => t.steps),
      requests: of((t) => t.requests),
      prompt: of((t) => t.prompt),
      completion: of((t) => t.completion),
      cached: of((t) => t.cached),
      total: of((t) => t.total),
      wallMs: of((t) => t.wallMs),
      toolCalls: of((t) => t.toolCalls),
      cost: finished.every((r) => r.cost.usd !== null) ? stat(finished.map((r) => r.cost.usd!)) : null,
      costEstimated: finished.some((r) => r.cost.estimated),
      usageSource: combineSources(finished.map((r) => r.usageSource)),
    };
  });
}
