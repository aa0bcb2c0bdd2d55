/**
 * Values derived from runs, memoised by the identity of the run's event list (which changes only when an
 * event is applied). Every figure comes from shared/summary.ts so the UI agrees with the CLI and reports.
 */
import type { ColumnSlot } from '../../shared/column-shades.js';
import type { ModeId } from '../../shared/run-spec.js';
import { columnOf, type ColumnRef } from '../../shared/variants.js';
import {
  aggregateByColumn,
  summarizeComparison,
  summarizeRun,
  type ComparisonSummary,
  type ModeAggregate,
  type RunSummary,
} from '../../shared/summary.js';
import type { StepEvent } from '../../shared/step-event.js';
import { runCost } from '../../shared/cost.js';
import { differencesByMode, type ModeDifference } from '../../shared/trial-differences.js';
import type { RunView } from './run-model.js';

const summaries = new WeakMap<readonly StepEvent[], RunSummary>();

export function runSummary(run: RunView): RunSummary {
  let s = summaries.get(run.events);
  if (!s) {
    s = summarizeRun(run.events);
    summaries.set(run.events, s);
  }
  return s;
}

export interface ModeRun {
  readonly runId: string;
  readonly mode: ModeId;
  /** 1-based; 1 for comparisons without trials. */
  readonly trial: number;
  readonly run: RunView | undefined;
  /** Its column (store/columns.ts): group and label by this; `mode` stays for what the mode itself decides. */
  readonly column: ColumnRef;
  /** The palette slot (its mode, or a shade of it: colours, dash, marker) its column draws with. */
  readonly slot: ColumnSlot;
}

/** `interrupted`: runs history reports as never finished; they show as such instead of 'running'. */
export function comparisonSummary(
  modeRuns: readonly ModeRun[],
  interrupted: readonly string[] = [],
): ComparisonSummary {
  return summarizeComparison(
    modeRuns.map((m) => {
      const s = m.run ? runSummary(m.run) : null;
      // A run with no events yet still takes its column (and the baseline slot when first).
      const r =
        s && s.runId
          ? s.column.key === m.column.key
            ? s
            : { ...s, column: m.column }
          : emptySummary(m.runId, m.mode, m.column);
      if (r.status !== 'running' || !interrupted.includes(m.runId)) return r;
      return {
        ...r,
        status: (m.run?.events.length ?? 0) === 0 ? ('never-started' as const) : ('interrupted' as const),
      };
    }),
  );
}

/** Per-mode mean/min/max over every trial (shared aggregateByColumn); runs not started yet count as trials, not answers. */
export function trialAggregates(modeRuns: readonly ModeRun[], interrupted: readonly string[] = []): ModeAggregate[] {
  return aggregateByColumn(comparisonSummary(modeRuns, interrupted).runs);
}

/** Each column against the baseline column (a key; else the first) over the trials (shared differencesByMode), paired by trial. */
export function trialDifferences(
  modeRuns: readonly ModeRun[],
  interrupted: readonly string[] = [],
  baseline: string | null = null,
): ModeDifference[] {
  const runs = comparisonSummary(modeRuns, interrupted).runs;
  return differencesByMode(
    runs.map((summary, i) => ({ trial: modeRuns[i]!.trial, summary })),
    baseline,
  );
}

export function emptySummary(runId: string, mode: ModeId, column?: ColumnRef): RunSummary {
  return {
    runId,
    mode,
    column: column ?? columnOf({ mode }),
    task: null,
    provider: null,
    status: 'running',
    answer: '',
    error: null,
    validation: null,
    totals: {
      steps: 0,
      requests: 0,
      prompt: 0,
      completion: 0,
      cached: 0,
      reasoning: 0,
      total: 0,
      toolCalls: 0,
      wallMs: 0,
      approvalWaitMs: 0,
      startupMs: 0,
    },
    perStep: [],
    firstRequestAt: null,
    firstRequestPrompt: null,
    usageSource: 'reported',
    cost: runCost([], undefined, null),
    programToolCalls: 0,
    workerStart: null,
  };
}

export type TimelineRow =
  | { readonly kind: 'setup' }
  | { readonly kind: 'step'; readonly step: number }
  | { readonly kind: 'result' };

/** Rows of the aligned timeline: setup, every step number any run reached (ascending), then the result. */
export function timelineRows(runs: readonly (RunView | undefined)[]): TimelineRow[] {
  const steps = new Set<number>();
  for (const r of runs) if (r) for (const s of r.steps) steps.add(s.step);
  const rows: TimelineRow[] = [{ kind: 'setup' }];
  for (const step of [...steps].sort((a, b) => a - b)) rows.push({ kind: 'step', step });
  rows.push({ kind: 'result' });
  return rows;
}
