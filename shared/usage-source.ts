/**
 * Where a run's token figures come from: every step reported by the provider, every step estimated with the
 * tokenizer (the provider sent none), a mix, or no steps with usage at all. Events recorded before usageSource
 * existed read as 'reported' when they have usage.
 */
import type { ModelResponseEvent, StepEvent, UsageSource } from './step-event.js';

export type RunUsageSource = UsageSource | 'mixed' | 'none';

export function stepUsageSource(e: ModelResponseEvent): UsageSource | null {
  if (!e.usage) return null;
  return e.usageSource ?? 'reported';
}

export function runUsageSource(events: readonly StepEvent[]): RunUsageSource {
  let reported = 0, estimated = 0;
  for (const e of events) {
    if (e.type !== 'model-response') continue;
    const s = stepUsageSource(e);
    if (s === 'reported') reported++;
    else if (s === 'estimated') estimated++;
  }
  if (reported && estimated) return 'mixed';
  return reported ? 'reported' : estimated ? 'estimated' : 'none';
}
