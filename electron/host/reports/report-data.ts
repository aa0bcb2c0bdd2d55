/**
 * What every report format starts from: the stored comparison's runs in the comparison's order, each with its
 * own events and the summary from shared/summary.ts. Nothing here reads a clock, so a report of an old
 * comparison comes out the same every time.
 */
import type { ColumnSlot } from '../../../shared/column-shades.js';
import type { ComparisonMeta, StoredComparison } from '../../../shared/ipc-contract.js';
import { MODE_LABELS, type ModeId } from '../../../shared/run-spec.js';
import { columnOf, columnSlots, type ColumnRef, type VariantRecord } from '../../../shared/variants.js';
import { buildMatrix, hasMatrix, type Matrix } from '../../../shared/matrix.js';
import type { RunFinishedEvent, RunStartedEvent, StepEvent } from '../../../shared/step-event.js';
import { hasCostInfo } from './cost-figures.js';
import { differencesByMode, type ModeDifference } from '../../../shared/trial-differences.js';
import { resultStatement, type ResultStatement } from '../../../shared/result-statement.js';
import {
  aggregateByColumn,
  groupByRun,
  summarizeComparison,
  summarizeRun,
  type ComparisonSummary,
  type ModeAggregate,
  type RunSummary,
} from '../../../shared/summary.js';

export interface ReportRun {
  readonly runId: string;
  readonly mode: ModeId;
  /** Its column (shared/variants.ts): a plain comparison's columns are its modes. */
  readonly column: ColumnRef;
  /** Its column's colours, dash and marker (columnSlots): its own mode, or a shade of it when the mode has several columns. */
  readonly slot: ColumnSlot;
  /** 1-based; 1 for comparisons stored before trials existed. */
  readonly trial: number;
  /** Column label: "ReAct · trial 2" with several trials, else numbered only if a column repeats ("ReAct #2"). */
  readonly label: string;
  readonly events: readonly StepEvent[];
  readonly summary: RunSummary;
  readonly started: RunStartedEvent | null;
  readonly finished: RunFinishedEvent | null;
}

export interface ReportData {
  readonly meta: ComparisonMeta;
  readonly runs: readonly ReportRun[];
  readonly comparison: ComparisonSummary;
  /** Trials per mode (the highest trial number); 1 for a plain comparison. */
  readonly trials: number;
  /** Per-column figures over the trials (mean, sd, 95 % interval, min, max), from the same run summaries. */
  readonly byMode: readonly ModeAggregate[];
  /** Each column against the first, figure by figure (shared/trial-differences.ts); empty with one column. */
  readonly differences: readonly ModeDifference[];
  /** The result in words (shared/result-statement.ts): what every report and the CLI show first. */
  readonly result: ResultStatement;
  /** The columns when the comparison ran variants (meta.json), in order; null for a comparison of modes. */
  readonly variants: readonly VariantRecord[] | null;
  /** The models × modes matrix (shared/matrix.ts) when the columns make one (hasMatrix), else null. */
  readonly matrix: Matrix | null;
  /** A column's palette slot by its key (its mode, or a shade of it). */
  slotOf(columnKey: string): ColumnSlot;
  /** True when any figure came from the simulated model. */
  readonly simulated: boolean;
  /**
   * True when the runs recorded prices or usage sources (every comparison since Parallax kept them). Without
   * them the HTML and Markdown reports show no cost rows, so an older comparison's report stays as it was.
   */
  readonly costInfo: boolean;
  /**
   * True when a cost column says something: some run has a price, a provider-reported cost or an unpriced
   * real model. A comparison of the simulated model alone shows no cost columns, only its "no price" note.
   */
  readonly costShown: boolean;
  readonly warnings: readonly string[];
  readonly interruptedRunIds: readonly string[];
}

/** Run ids in report order: the comparison's own order first (the first is the baseline), then strays. */
type Slot = { runId: string; mode: ModeId | null; trial: number; column: ColumnRef | null };

function runOrder(meta: ComparisonMeta, byRun: Map<string, StepEvent[]>): Slot[] {
  const variant = (key: string | undefined) => meta.variants?.find((v) => v.key === key);
  const order: Slot[] = meta.runs.map((r) => {
    const v = variant(r.variant);
    return { runId: r.runId, mode: r.mode, trial: r.trial ?? 1, column: v ? { key: v.key, label: v.label } : null };
  });
  for (const runId of byRun.keys())
    if (!order.some((o) => o.runId === runId)) order.push({ runId, mode: null, trial: 1, column: null });
  // Grouped by trial (stable, so the modes keep their order within a trial); a no-op for one trial.
  return order.sort((a, b) => a.trial - b.trial);
}

/**
 * The comparison summary of stored events, runs in the comparison's order. A run listed in the meta that
 * stored no event still gets a row (zero totals), so a crashed-before-start run is visible.
 */
export function summarizeStored(
  meta: ComparisonMeta,
  events: readonly StepEvent[],
  interruptedRunIds: readonly string[] = [],
): ComparisonSummary {
  return summarizeComparison(prepareRuns(meta, events, interruptedRunIds).map((r) => r.summary));
}

function prepareRuns(
  meta: ComparisonMeta,
  events: readonly StepEvent[],
  interruptedRunIds: readonly string[],
): ReportRun[] {
  const byRun = groupByRun(events);
  const order = runOrder(meta, byRun);
  const columnCount = new Map<string, number>();
  const runs: ReportRun[] = [];
  const trials = Math.max(1, ...order.map((o) => o.trial));
  for (const { runId, mode: metaMode, trial, column: metaColumn } of order) {
    const list = byRun.get(runId) ?? [];
    const started = (list.find((e) => e.type === 'run-started') as RunStartedEvent | undefined) ?? null;
    const finished = (list.find((e) => e.type === 'run-finished') as RunFinishedEvent | undefined) ?? null;
    const mode = started?.mode ?? metaMode ?? 'react';
    const base = summarizeRun(list);
    // A run that stored nothing is still its column's, as meta.json lists it.
    const known: RunSummary =
      list.length > 0 ? base : { ...base, runId, mode, column: metaColumn ?? columnOf({ mode }) };
    // History knows which unfinished runs died with their host (interrupted) rather than still running.
    // One that stored nothing never started: its round never began.
    const summary: RunSummary =
      known.status === 'running' && interruptedRunIds.includes(runId)
        ? { ...known, status: list.length === 0 ? 'never-started' : 'interrupted' }
        : known;
    const { column } = summary;
    columnCount.set(column.key, (columnCount.get(column.key) ?? 0) + 1);
    const label = column.key === mode ? (MODE_LABELS[mode] ?? mode) : column.label;
    runs.push({
      runId,
      mode,
      column,
      slot: mode,
      trial,
      label: trials > 1 ? `${label} · trial ${trial}` : label,
      events: list,
      summary,
      started,
      finished,
    });
  }
  const slots = columnSlots(
    runs
      .filter((r, i) => runs.findIndex((o) => o.column.key === r.column.key) === i)
      .map((r) => ({ key: r.column.key, mode: r.mode })),
  );
  for (const [i, r] of runs.entries()) runs[i] = { ...r, slot: slots.get(r.column.key) ?? r.mode };
  if (trials > 1) return runs;
  // Number the labels only when a column repeats, so "ReAct" stays "ReAct" in the usual one-run-per-mode case.
  const seen = new Map<string, number>();
  return runs.map((r) => {
    if ((columnCount.get(r.column.key) ?? 0) < 2) return r;
    const n = (seen.get(r.column.key) ?? 0) + 1;
    seen.set(r.column.key, n);
    return { ...r, label: `${r.label} #${n}` };
  });
}

/** Per-mode aggregates of stored events, as a report computes them (used to rebuild an old JSON file's). */
export function aggregateStored(
  meta: ComparisonMeta,
  events: readonly StepEvent[],
  interruptedRunIds: readonly string[] = [],
): ModeAggregate[] {
  return aggregateByColumn(prepareRuns(meta, events, interruptedRunIds).map((r) => r.summary));
}

export function prepareReport(stored: StoredComparison): ReportData {
  const runs = prepareRuns(stored.meta, stored.events, stored.interruptedRunIds);
  const simulated = stored.meta.provider.simulated || runs.some((r) => r.started?.provider.simulated === true);
  const summaries = runs.map((r) => r.summary);
  const costInfo = hasCostInfo(stored.events);
  return {
    meta: stored.meta,
    runs,
    comparison: summarizeComparison(summaries),
    trials: Math.max(1, ...runs.map((r) => r.trial)),
    byMode: aggregateByColumn(summaries),
    differences: differencesByMode(runs),
    result: resultStatement({ runs, simulated }),
    variants: stored.meta.variants ?? null,
    matrix: hasMatrix(summaries) ? buildMatrix(summaries) : null,
    slotOf: (key) => runs.find((r) => r.column.key === key)?.slot ?? 'react',
    simulated,
    costInfo,
    costShown:
      costInfo &&
      runs.some(
        (r) =>
          r.summary.cost.kind !== 'simulated' || r.summary.cost.costedSteps > 0 || r.summary.usageSource !== 'reported',
      ),
    warnings: stored.warnings,
    interruptedRunIds: stored.interruptedRunIds,
  };
}

/**
 * After the comparison's model in a report's header, when variants run models of their own: whether some or all
 * columns do, so a model no column ran is not read as the one measured.
 */
export function columnModelsNote(d: Pick<ReportData, 'variants'>): string {
  const own = (d.variants ?? []).filter((v) => v.model !== undefined || v.provider !== undefined || v.baseUrl);
  if (own.length === 0) return '';
  return own.length === d.variants!.length
    ? " (the comparison's default; every column runs its own: see Columns)"
    : " (the comparison's; some columns run their own: see Columns)";
}

/** What a run's state is called in a report. A run with no run-finished event never finished. */
export function statusLabel(run: ReportRun): string {
  if (run.events.length === 0) return 'no events stored';
  const s = run.summary.status;
  if (s === 'running') return 'unfinished';
  // An answer that failed validation is a failure, never shown as "answered".
  if (s === 'answered' && run.summary.validation?.ok === false) return 'failed validation';
  return s;
}

/** One sentence explaining a run that did not answer, or null when it answered. */
export function statusNote(run: ReportRun): string | null {
  if (run.summary.status === 'never-started')
    return 'The run never started: the host stopped before its round began, so nothing of it was recorded.';
  if (run.events.length === 0) return 'No event of this run was stored: its worker failed before the run started.';
  switch (run.summary.status) {
    case 'answered':
      return null;
    case 'interrupted':
      return 'The run was interrupted: the app or its worker stopped before the run ended, so no run-finished event was stored. Figures cover the steps that were stored.';
    case 'running':
      return 'No run-finished event was stored yet: the run was still going when this report was made. Figures cover the steps stored so far.';
    case 'max-steps':
      return `The run hit the step limit (${run.started?.settings.maxSteps ?? '?'}) before answering.`;
    case 'cancelled':
    case 'crashed':
    case 'error':
    case 'no-policy':
    case 'refused':
    case 'truncated':
    case 'empty':
    default:
      return run.summary.error ?? `The run ended with status "${run.summary.status}".`;
  }
}
