/** Chart rows built from the report math (computePerStep via summarizeRun): one row per step number. */
import { cumulativeTokens, type RunSummary } from '../../../shared/summary.js';
import type { TokenKind } from '../../lib/mode-palette.js';
import { fmtInt as fmt } from '../../lib/display-format.js';
import { historyNotes } from '../../../shared/history-summary-words.js';

export type { TokenKind };

/** A series of a column (its key: a plain comparison's keys are its modes) and token kind. */
export const seriesKey = (column: string, kind: TokenKind) => `${column}_${kind}`;
/** The row key flagging a series' value as estimated (1): the tooltip shows it with "≈". */
export const estimatedKey = (key: string) => `${key}~est`;

export interface StepRow {
  readonly step: number;
  readonly [key: string]: number | undefined;
}

/** Per-step prompt and completion tokens of each run; a run without step N has no value there (no bar). */
export function perStepRows(runs: readonly RunSummary[]): StepRow[] {
  const byStep = new Map<number, Record<string, number>>();
  for (const r of runs) {
    for (const s of r.perStep) {
      let row = byStep.get(s.step);
      if (!row) byStep.set(s.step, (row = { step: s.step }));
      row[seriesKey(r.column.key, 'prompt')] = s.prompt;
      row[seriesKey(r.column.key, 'completion')] = s.completion;
      if (s.usageSource === 'estimated') {
        row[estimatedKey(seriesKey(r.column.key, 'prompt'))] = 1;
        row[estimatedKey(seriesKey(r.column.key, 'completion'))] = 1;
      }
    }
  }
  return [...byStep.values()].sort((a, b) => a.step! - b.step!) as StepRow[];
}

/**
 * Running total (prompt + completion) after each step, per run; the line of a run ends at its last step.
 * `keyOf` names each run's series: its column (one run per column), or column and trial when every trial is drawn.
 */
/** The row key of a finished run's total carried forward past its last step (a flat, faint line). */
export const carriedKey = (key: string) => `${key}~carried`;

export function cumulativeRows(
  runs: readonly RunSummary[],
  keyOf: (r: RunSummary, i: number) => string = (r) => r.column.key,
  carry = false,
): StepRow[] {
  const steps = [...new Set(runs.flatMap((r) => r.perStep.map((s) => s.step)))].sort((a, b) => a - b);
  const rows: Record<string, number>[] = steps.map((step) => ({ step }));
  runs.forEach((r, i) => {
    const key = keyOf(r, i);
    const at = new Map(cumulativeTokens(r.perStep).map((p) => [p.step, p.total]));
    // A running total is estimated from the first estimated step on.
    let estimated = false;
    const estimatedFrom = new Map(r.perStep.map((s) => [s.step, (estimated ||= s.usageSource === 'estimated')]));
    for (const row of rows) {
      const v = at.get(row.step!);
      if (v !== undefined) row[key] = v;
      if (estimatedFrom.get(row.step!)) row[estimatedKey(key)] = 1;
    }
    // A finished run spent its total: carried to the last step of the comparison, so totals meet at the right edge.
    const last = r.perStep.at(-1);
    if (carry && last && r.status !== 'running' && last.step < steps[steps.length - 1]!) {
      const total = at.get(last.step)!;
      for (const row of rows) if (row.step! >= last.step) row[carriedKey(key)] = total;
    }
  });
  return rows as StepRow[];
}

export interface TrialRow {
  readonly trial: number;
  readonly [key: string]: number | undefined;
}

/** Each run's prompt and completion totals, one row per trial (the "All trials" bars). */
export function trialRows(runs: readonly { readonly trial: number; readonly summary: RunSummary }[]): TrialRow[] {
  const byTrial = new Map<number, Record<string, number>>();
  for (const { trial, summary } of runs) {
    let row = byTrial.get(trial);
    if (!row) byTrial.set(trial, (row = { trial }));
    row[seriesKey(summary.column.key, 'prompt')] = summary.totals.prompt;
    row[seriesKey(summary.column.key, 'completion')] = summary.totals.completion;
    if (summary.usageSource === 'estimated' || summary.usageSource === 'mixed') {
      row[estimatedKey(seriesKey(summary.column.key, 'prompt'))] = 1;
      row[estimatedKey(seriesKey(summary.column.key, 'completion'))] = 1;
    }
  }
  return [...byTrial.values()].sort((a, b) => a.trial! - b.trial!) as TrialRow[];
}

/**
 * The per-step chart's note for a column whose run summarised its history (summarize:K): those requests are in
 * the run's totals and in no step's bar, so the note says what they spent; bars + note = the run's totals.
 * Null when no run summarised.
 */
export function summaryNotes(
  runs: readonly RunSummary[],
  simulated: boolean,
): { readonly key: string; readonly text: string; readonly prompt: number; readonly completion: number }[] {
  return runs.flatMap((r) => {
    const all = r.historySummaries ?? [];
    if (all.length === 0) return [];
    const prompt = all.reduce((n, s) => n + s.prompt, 0);
    const completion = all.reduce((n, s) => n + s.completion, 0);
    const failed = all.filter((s) => s.failed).length;
    const text = `${r.column.label}: ${all.length} history summary request${all.length === 1 ? '' : 's'}${failed ? ` (${failed} failed)` : ''}, ${fmt(
      prompt,
    )} prompt + ${fmt(completion)} completion tokens${simulated ? ' (simulated)' : ''}, not in the bars above; bars + these = the run's totals.`;
    return [{ key: r.column.key, text, prompt, completion }];
  });
}

/** What the history knob kept out of a run's prompts: the same sentences as the reports' (shared/history-summary-words.ts). */
export function compositionNotes(run: RunSummary, simulated: boolean): string[] {
  return historyNotes(run.perStep, simulated);
}
