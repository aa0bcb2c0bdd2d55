/**
 * Test helper: comparisons with several trials per mode, for the reports.
 * - `mergedTrials` runs `parallax compare` once per entry (real child processes, simulated model) into one
 *   data dir and joins the stored comparisons into one with trials 1..k. The events are real; only their
 *   grouping into trials is assembled. It lets each trial differ on purpose (a fault, a step limit), which
 *   the scripted simulated model never does by itself, so a mean, a minimum and a maximum really differ.
 * - `recompute` derives what a report must show straight from the stored events with shared/summary.ts.
 */
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { StoredComparison } from '../../../../shared/ipc-contract.js';
import {
  aggregateByColumn,
  groupByRun,
  summarizeRun,
  type ModeAggregate,
  type RunSummary,
} from '../../../../shared/summary.js';
import { liveComparison } from './live-comparison.js';

export async function mergedTrials(argsPerTrial: readonly (readonly string[])[]): Promise<StoredComparison> {
  const dir = await mkdtemp(join(tmpdir(), 'parallax-trials-test-'));
  const parts: StoredComparison[] = [];
  for (const args of argsPerTrial) parts.push((await liveComparison(args, {}, dir)).stored);
  return {
    meta: {
      ...parts[0].meta,
      runs: parts.flatMap((p, i) => p.meta.runs.map((r) => ({ runId: r.runId, mode: r.mode, trial: i + 1 }))),
    },
    events: parts.flatMap((p) => p.events),
    warnings: parts.flatMap((p) => p.warnings),
    interruptedRunIds: parts.flatMap((p) => p.interruptedRunIds),
  };
}

export interface Recomputed {
  /** Run summaries in meta.runs order, each with its trial. */
  readonly runs: readonly (RunSummary & { readonly trial: number })[];
  readonly byMode: readonly ModeAggregate[];
  readonly trials: number;
}

export function recompute(stored: StoredComparison): Recomputed {
  const byRun = groupByRun(stored.events);
  const runs = stored.meta.runs.map((r) => ({ ...summarizeRun(byRun.get(r.runId) ?? []), trial: r.trial ?? 1 }));
  return { runs, byMode: aggregateByColumn(runs), trials: Math.max(...runs.map((r) => r.trial)) };
}
