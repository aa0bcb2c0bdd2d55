/**
 * Statistics over trials: what the app recomputes when a run of a comparison with trials changes (the averages
 * with their intervals and every mode's differences with exact permutation tests). The worst cases at the
 * trials limit: 4 modes × 10 rounds (paired: 2^10 sign patterns per figure) and 2 modes × 10 runs without
 * rounds (unpaired: C(20, 10) = 184,756 splits per figure, for comparisons stored before trials ran in rounds).
 */
import type { ModeId } from '../shared/modes.js';
import { aggregateByColumn, type RunSummary } from '../shared/summary.js';
import { differencesByMode, type TrialRun } from '../shared/trial-differences.js';

function summary(mode: ModeId, i: number, trial: number): TrialRun {
  const prompt = 2000 + ((i * 7919) % 997) + (mode === 'react' ? 4000 : 0);
  return {
    trial,
    summary: {
      runId: `${mode}-${i}`,
      mode,
      task: null,
      provider: null,
      status: 'answered',
      answer: 'x',
      error: null,
      validation: { ok: i % 4 !== 0, detail: '' },
      totals: {
        steps: 3 + (i % 3),
        requests: 3,
        prompt,
        completion: 100 + (i % 13),
        cached: 0,
        reasoning: 0,
        total: prompt + 100 + (i % 13),
        toolCalls: 2,
        wallMs: 900 + ((i * 31) % 400),
        approvalWaitMs: 0,
        startupMs: 0,
      },
      perStep: [],
      firstRequestAt: null,
      firstRequestPrompt: null,
      usageSource: 'reported',
      cost: { usd: prompt / 1e6, estimated: false },
    } as unknown as RunSummary,
  };
}

function time(label: string, runs: readonly TrialRun[], reps: number): void {
  differencesByMode(runs);
  const t0 = performance.now();
  for (let k = 0; k < reps; k++) {
    aggregateByColumn(runs.map((r) => r.summary));
    differencesByMode(runs);
  }
  console.log(
    `${label}: ${((performance.now() - t0) / reps).toFixed(2)} ms per recompute (${differencesByMode(runs).length} differences)`,
  );
}

export default async function main(): Promise<void> {
  const modes: ModeId[] = ['react', 'code', 'hybrid', 'react-search'];
  const rounds = Array.from({ length: 10 }, (_, t) => modes.map((m, j) => summary(m, t * 4 + j, t + 1))).flat();
  time('4 modes × 10 rounds, paired', rounds, 50);
  const unpaired = (['react', 'code'] as ModeId[]).flatMap((m, j) =>
    Array.from({ length: 10 }, (_, i) => summary(m, i * 2 + j, 1)),
  );
  time('2 modes × 10 runs, unpaired (no rounds)', unpaired, 5);
}
