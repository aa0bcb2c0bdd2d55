/**
 * A column's steps in both comparisons of a baseline diff, step by step: what each side spent at step k, as the
 * mean over its runs that reached step k (every run, passing or not: a step view shows what was done, the
 * verdicts stay with the figures of shared/comparison-diff.ts). The per-step chart and the step view of the
 * diff read these rows; a side with fewer steps has no figure past its last step.
 */
import type { RunSummary } from './summary.js';

export interface DiffStepSide {
  /** Runs of this side that reached the step (over trials; 1 for a single run). */
  readonly runs: number;
  readonly prompt: number;
  readonly completion: number;
  readonly total: number;
  readonly toolCalls: number;
  readonly latencyMs: number;
}

export interface DiffStep {
  readonly step: number;
  readonly baseline: DiffStepSide | null;
  readonly comparison: DiffStepSide | null;
}

function sideAt(runs: readonly RunSummary[], step: number): DiffStepSide | null {
  const hits = runs.flatMap((r) => r.perStep.filter((s) => s.step === step));
  if (hits.length === 0) return null;
  const mean = (pick: (s: (typeof hits)[number]) => number) => hits.reduce((a, s) => a + pick(s), 0) / hits.length;
  return {
    runs: hits.length,
    prompt: mean((s) => s.prompt),
    completion: mean((s) => s.completion),
    total: mean((s) => s.prompt + s.completion),
    toolCalls: mean((s) => s.toolCalls),
    latencyMs: mean((s) => s.latencyMs),
  };
}

/** Step 1 to the last step either side reached. */
export function diffSteps(baseline: readonly RunSummary[], comparison: readonly RunSummary[]): DiffStep[] {
  const last = Math.max(0, ...[...baseline, ...comparison].flatMap((r) => r.perStep.map((s) => s.step)));
  const out: DiffStep[] = [];
  for (let step = 1; step <= last; step++) {
    out.push({ step, baseline: sideAt(baseline, step), comparison: sideAt(comparison, step) });
  }
  return out;
}

export type FigureDirection = 'worse' | 'better' | 'same' | null;

/**
 * Which way a change goes, whatever its verdict: more of a figure is worse (tokens, cost, steps, time), a
 * higher pass rate is better. null: no change to speak of (a side has no figure).
 */
export function directionOf(figure: string, diff: number | null): FigureDirection {
  if (diff === null) return null;
  if (diff === 0) return 'same';
  const moreIsBetter = figure === 'passRate';
  return diff > 0 === moreIsBetter ? 'better' : 'worse';
}
