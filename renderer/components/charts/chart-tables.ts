/**
 * Every chart's figures as a table (its text alternative): built from the same rows the chart draws, so a
 * figure the chart shows is a cell here. A screen reader reads the table; "Show as table" shows it to everyone.
 */
import { PROMPT_PART_INFO, PROMPT_PARTS } from '../../../shared/prompt-composition.js';
import { ONE_TRIAL_NOTE, type ModeAggregate, type RunSummary } from '../../../shared/summary.js';
import { fmtInt, fmtMean } from '../../lib/display-format.js';
import { cumulativeRows, seriesKey, type StepRow, type TrialRow } from './chart-data.js';

export type Cell = string | number | null | undefined;

export interface ChartTableData {
  readonly caption: string;
  /** Column headings; the first names the row headers. */
  readonly columns: readonly string[];
  /** Each row: its header first, then one cell per further column (blank: no figure there). */
  readonly rows: readonly (readonly Cell[])[];
}

interface Column {
  readonly key: string;
  readonly label: string;
}

const sim = (simulated: boolean) => (simulated ? ' (simulated)' : '');

/** A cell's text: whole numbers grouped (1,234), other figures as given, no figure as blank. */
export function cellText(v: Cell): string {
  if (v === null || v === undefined) return '';
  if (typeof v === 'number') return Number.isInteger(v) ? fmtInt(v) : String(v);
  return v;
}

/**
 * Tokens per step: prompt and completion of each column, one row per step. `summaries` (summarize:K requests,
 * in the totals and in no step) get a row of their own after the steps, so the table's cells add up to the totals.
 */
export function perStepTable(
  rows: readonly StepRow[],
  columns: readonly Column[],
  caption: string,
  simulated: boolean,
  summaries: readonly { readonly key: string; readonly prompt: number; readonly completion: number }[] = [],
): ChartTableData {
  const byKey = new Map(summaries.map((s) => [s.key, s]));
  const summaryRow: Cell[] = [
    'History summaries (not steps)',
    ...columns.flatMap((c) => [byKey.get(c.key)?.prompt, byKey.get(c.key)?.completion]),
  ];
  return {
    caption: `${caption}, tokens${sim(simulated)}`,
    columns: ['Step', ...columns.flatMap((c) => [`${c.label} prompt`, `${c.label} completion`])],
    rows: [
      ...rows.map((r) => [
        r.step,
        ...columns.flatMap((c) => [r[seriesKey(c.key, 'prompt')], r[seriesKey(c.key, 'completion')]]),
      ]),
      ...(summaries.length ? [summaryRow] : []),
    ],
  };
}

/** What each prompt carried: one row per column and step, one cell per part. */
export function compositionTable(runs: readonly RunSummary[], caption: string, simulated: boolean): ChartTableData {
  return {
    caption: `${caption}, prompt tokens by part${sim(simulated)}`,
    columns: ['Column, step', 'Prompt tokens', ...PROMPT_PARTS.map((p) => PROMPT_PART_INFO[p].label)],
    rows: runs.flatMap((r) =>
      r.perStep.flatMap((s) =>
        s.promptComposition
          ? [[`${r.column.label}, step ${s.step}`, s.prompt, ...PROMPT_PARTS.map((p) => s.promptComposition![p] ?? 0)]]
          : [],
      ),
    ),
  };
}

/** One figure per step per column (latency, cost), already formatted by the chart's own `text`. */
export function stepMetricTable(
  rows: readonly ({ step: number } & Partial<Record<string, number>>)[],
  columns: readonly Column[],
  caption: string,
  text: (v: number) => string,
): ChartTableData {
  return {
    caption,
    columns: ['Step', ...columns.map((c) => c.label)],
    rows: rows.map((r) => [r.step, ...columns.map((c) => (r[c.key] === undefined ? undefined : text(r[c.key]!)))]),
  };
}

/** Total tokens after each step, one column per line of the chart. */
export function cumulativeTable(
  runs: readonly RunSummary[],
  keyOf: (r: RunSummary, i: number) => string,
  labels: readonly string[],
  caption: string,
  simulated: boolean,
): ChartTableData {
  const rows = cumulativeRows(runs, keyOf, false);
  const keys = runs.map(keyOf);
  return {
    caption: `${caption}, total tokens so far${sim(simulated)}`,
    columns: ['Step', ...labels],
    rows: rows.map((r) => [r.step, ...keys.map((k) => r[k])]),
  };
}

/** Each run's prompt and completion totals, one row per trial; a run without an answer says so. */
export function trialTotalsTable(
  rows: readonly TrialRow[],
  columns: readonly Column[],
  answered: ReadonlySet<string>,
  simulated: boolean,
): ChartTableData {
  const mark = (trial: number, key: string, v: number | undefined) =>
    v === undefined ? undefined : answered.has(`${trial}:${key}`) ? v : `${fmtInt(v)} (no answer)`;
  return {
    caption: `Tokens per trial${sim(simulated)}`,
    columns: ['Trial', ...columns.flatMap((c) => [`${c.label} prompt`, `${c.label} completion`])],
    rows: rows.map((r) => [
      `Trial ${r.trial}`,
      ...columns.flatMap((c) => [
        mark(r.trial, c.key, r[seriesKey(c.key, 'prompt')]),
        mark(r.trial, c.key, r[seriesKey(c.key, 'completion')]),
      ]),
    ]),
  };
}

/** Each mode's mean and 95 % interval per figure, as the means chart draws them. */
export function modeMeansTable(aggregates: readonly ModeAggregate[], simulated: boolean): ChartTableData {
  const figures = [
    ['prompt', 'prompt'],
    ['completion', 'completion'],
    ['total', 'total'],
  ] as const;
  const stat = (a: ModeAggregate, key: (typeof figures)[number][0]) => {
    const s = a[key];
    if (!s) return undefined;
    return s.ci95
      ? `${fmtMean(s.mean)} (95 % CI ${fmtMean(Math.max(0, s.ci95[0]))}–${fmtMean(s.ci95[1])}, ${s.n} runs)`
      : `${fmtMean(s.mean)} (${ONE_TRIAL_NOTE})`;
  };
  return {
    caption: `Mean tokens per mode${sim(simulated)}`,
    columns: ['Mode', ...figures.map(([, label]) => `Mean ${label} tokens`)],
    rows: aggregates.filter((a) => a.total).map((a) => [a.column.label, ...figures.map(([key]) => stat(a, key))]),
  };
}
