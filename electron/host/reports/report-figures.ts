/**
 * Figures the HTML and Markdown reports both show beyond the summary itself, derived from the runs so the
 * two formats cannot disagree.
 */
import type { ColumnSlot } from '../../../shared/column-shades.js';
import { metricsOn, type RunMetric } from '../../../shared/run-metrics.js';
import { cumulativeTokens, type RunSummary } from '../../../shared/summary.js';
import { toolDefinitionChars } from './report-text.js';
import type { CumulativeSeries } from './html-charts.js';
import type { ReportRun } from './report-data.js';

export type Metric = RunMetric;

/** The run totals the reports show (shared/run-metrics.ts), in table order: HTML, Markdown and trial tables. */
export const RUN_METRICS: readonly Metric[] = metricsOn('reports');

export interface FirstRequestRow {
  readonly runId: string;
  /** Its palette slot: the mode whose look its column takes (its own mode in a plain comparison). */
  readonly mode: ColumnSlot;
  readonly label: string;
  /** Prompt tokens of the first request (null when the run made none). */
  readonly prompt: number | null;
  /** Tools sent with the first request and the length of their JSON definitions. */
  readonly tools: number;
  readonly toolChars: number;
}

export function firstRequestRows(runs: readonly ReportRun[]): FirstRequestRow[] {
  return runs.map((r) => ({
    runId: r.runId,
    mode: r.slot,
    label: r.label,
    prompt: r.summary.firstRequestPrompt,
    tools: r.started?.tools.length ?? 0,
    toolChars: r.started ? toolDefinitionChars(r.started.tools) : 0,
  }));
}

export function cumulativeSeries(runs: readonly ReportRun[]): CumulativeSeries[] {
  return runs.map((r) => ({
    label: r.label,
    mode: r.slot,
    points: cumulativeTokens(r.summary.perStep).map((p) => ({ step: p.step, value: p.total })),
  }));
}

/** Milliseconds between the earliest and latest first model request of the runs (null if under two). */
export function startSpreadMs(runs: readonly RunSummary[]): number | null {
  const at = runs.map((r) => r.firstRequestAt).filter((t): t is number => t !== null);
  return at.length < 2 ? null : Math.max(...at) - Math.min(...at);
}
