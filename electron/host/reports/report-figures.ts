/**
 * Figures the HTML and Markdown reports both show beyond the summary itself, derived from the runs so the
 * two formats cannot disagree.
 */
import type { ModeId } from '../../../shared/run-spec.js';
import type { RunTotals } from '../../../shared/step-event.js';
import { cumulativeTokens, type RunSummary } from '../../../shared/summary.js';
import { toolDefinitionChars } from './format.js';
import type { CumulativeSeries } from './html-charts.js';
import type { ReportRun } from './report-data.js';

/** A run total as every report table shows it: full label, short label for narrow tables, ms to format as time. */
export interface Metric {
  readonly key: keyof RunTotals;
  readonly label: string;
  readonly short: string;
  readonly ms?: boolean;
}

/** The run totals in table order, one list for the HTML, Markdown and trial tables. */
export const RUN_METRICS: readonly Metric[] = [
  { key: 'steps', label: 'Steps', short: 'Steps' },
  { key: 'requests', label: 'Requests', short: 'Requests' },
  { key: 'prompt', label: 'Prompt tokens', short: 'Prompt' },
  { key: 'completion', label: 'Completion tokens', short: 'Completion' },
  { key: 'cached', label: 'Cached tokens', short: 'Cached' },
  { key: 'reasoning', label: 'Reasoning tokens', short: 'Reasoning' },
  { key: 'total', label: 'Total tokens', short: 'Total' },
  { key: 'wallMs', label: 'Wall time', short: 'Wall time', ms: true },
  { key: 'toolCalls', label: 'Tool calls', short: 'Tool calls' },
];

export interface FirstRequestRow {
  readonly runId: string;
  readonly mode: ModeId;
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
    mode: r.mode,
    label: r.label,
    prompt: r.summary.firstRequestPrompt,
    tools: r.started?.tools.length ?? 0,
    toolChars: r.started ? toolDefinitionChars(r.started.tools) : 0,
  }));
}

export function cumulativeSeries(runs: readonly ReportRun[]): CumulativeSeries[] {
  return runs.map((r) => ({
    label: r.label,
    mode: r.mode,
    points: cumulativeTokens(r.summary.perStep).map((p) => ({ step: p.step, value: p.total })),
  }));
}

/** Milliseconds between the earliest and latest first model request of the runs (null if under two). */
export function startSpreadMs(runs: readonly RunSummary[]): number | null {
  const at = runs.map((r) => r.firstRequestAt).filter((t): t is number => t !== null);
  return at.length < 2 ? null : Math.max(...at) - Math.min(...at);
}
