/**
 * The run metrics, one description each: the label every surface prints, its unit and formatter, and the
 * surfaces that show it. The app's summary, the reports' tables and the CLI's compare tables read this list,
 * so a label or a duration is written the same way everywhere.
 */
import type { RunTotals, WorkerStartRecord } from './step-event.js';
import { formatDuration, formatInt, formatMean } from './number-format.js';

export type MetricUnit = 'count' | 'tokens' | 'ms';

/** Where a metric appears: the app's summary and averages tables, the report tables, the CLI's compare tables. */
export type MetricSurface = 'app' | 'reports' | 'cli';

export interface RunMetric {
  readonly key: keyof RunTotals;
  readonly label: string;
  /** For narrow tables (one row per run). */
  readonly short: string;
  /** One line on what is counted (the app's row tooltip). */
  readonly hint: string;
  readonly unit: MetricUnit;
  readonly surfaces: readonly MetricSurface[];
  /** Whether aggregateByColumn averages it over trials. */
  readonly averaged: boolean;
  /** 0 means "not measured" (written "—"), not a figure. */
  readonly zeroIsMissing?: boolean;
  /** No "% vs first": it says how a run's process started, not what the mode cost. */
  readonly notCompared?: boolean;
  /**
   * Its difference is shown without the colours of better and worse: more of it is no cost in itself (tool calls:
   * their tokens are in the token rows; wall time: it depends on how many runs shared the machine).
   */
  readonly neutral?: boolean;
}

const ALL: readonly MetricSurface[] = ['app', 'reports', 'cli'];

/** The run totals in table order. */
export const RUN_METRICS: readonly RunMetric[] = [
  { key: 'steps', label: 'Steps', short: 'Steps', hint: 'Model replies', unit: 'count', surfaces: ALL, averaged: true },
  {
    key: 'requests',
    label: 'Requests',
    short: 'Requests',
    hint: 'Including retries',
    unit: 'count',
    surfaces: ['app', 'reports'],
    averaged: true,
  },
  {
    key: 'prompt',
    label: 'Prompt tokens',
    short: 'Prompt',
    hint: 'Input, summed over requests',
    unit: 'tokens',
    surfaces: ALL,
    averaged: true,
  },
  {
    key: 'completion',
    label: 'Completion tokens',
    short: 'Completion',
    hint: 'Output, summed over requests',
    unit: 'tokens',
    surfaces: ALL,
    averaged: true,
  },
  {
    key: 'cached',
    label: 'Cached tokens',
    short: 'Cached',
    hint: 'Prompt tokens served from the provider cache',
    unit: 'tokens',
    surfaces: ALL,
    averaged: true,
  },
  {
    key: 'reasoning',
    label: 'Reasoning tokens',
    short: 'Reasoning',
    hint: 'Part of the completion the model spent reasoning',
    unit: 'tokens',
    surfaces: ['reports'],
    averaged: false,
  },
  {
    key: 'total',
    label: 'Total tokens',
    short: 'Total',
    hint: 'Prompt + completion',
    unit: 'tokens',
    surfaces: ALL,
    averaged: true,
  },
  {
    key: 'wallMs',
    label: 'Wall time',
    short: 'Wall time',
    hint: 'From start to the last event, approval waits excluded',
    unit: 'ms',
    surfaces: ALL,
    averaged: true,
    neutral: true,
  },
  {
    key: 'toolCalls',
    label: 'Tool calls',
    short: 'Tool calls',
    hint: 'Requested by the model',
    unit: 'count',
    surfaces: ALL,
    averaged: true,
    neutral: true,
  },
  {
    key: 'startupMs',
    label: 'Worker start-up',
    short: 'Start-up',
    unit: 'ms',
    surfaces: ALL,
    averaged: false,
    zeroIsMissing: true,
    notCompared: true,
    hint: "Its worker's process start to ready, before the run's wall time starts; a warm-pool worker's loading happened before Run",
  },
];

export const metricsOn = (surface: MetricSurface): readonly RunMetric[] =>
  RUN_METRICS.filter((m) => m.surfaces.includes(surface));

/** How a figure that was not measured is written (a run recorded before it was, or run without a worker). */
export const NOT_MEASURED = '—';

/** A metric's value as text: a duration for times, grouped digits otherwise; `mean` keeps one decimal. */
export function formatMetric(metric: Pick<RunMetric, 'unit' | 'zeroIsMissing'>, value: number, mean = false): string {
  if (metric.zeroIsMissing && value === 0) return NOT_MEASURED;
  if (metric.unit === 'ms') return formatDuration(value);
  return mean ? formatMean(value) : formatInt(value);
}

export const isTokenMetric = (metric: Pick<RunMetric, 'unit'>): boolean => metric.unit === 'tokens';

/**
 * The tools a run ran: the calls the model named, a program counted by the calls made inside it rather than as
 * one (so 2 programs making 3 calls compare as 3 against another mode's 3 direct calls, not as 5).
 */
export function toolsRun(summary: {
  readonly totals: Pick<RunTotals, 'toolCalls'>;
  readonly programs?: number;
  readonly programToolCalls?: number;
}): number {
  return summary.totals.toolCalls - (summary.programs ?? 0) + (summary.programToolCalls ?? 0);
}

/** What follows the tool-call count of a run whose programs called tools: " + 6 inside programs", else ''. */
export function insidePrograms(key: keyof RunTotals, summary: { readonly programToolCalls?: number }): string {
  const n = summary.programToolCalls ?? 0;
  return key === 'toolCalls' && n > 0 ? ` + ${formatInt(n)} inside program${n === 1 ? '' : 's'}` : '';
}

/** Where a worker's start-up happened: " (0.4 s before Run, warm pool)" for a pooled worker, else ''. */
export function startupWhere(start: WorkerStartRecord | null | undefined): string {
  if (!start?.pooled) return '';
  return start.beforeRunMs > 0 ? ` (${formatDuration(start.beforeRunMs)} before Run, warm pool)` : ' (warm pool)';
}

/** What follows a run's figure in a table: tool calls inside programs, or where its worker's start-up happened. */
export function metricNote(
  key: keyof RunTotals,
  summary: { readonly programToolCalls?: number; readonly workerStart?: WorkerStartRecord | null },
): string {
  return key === 'startupMs' ? startupWhere(summary.workerStart) : insidePrograms(key, summary);
}
