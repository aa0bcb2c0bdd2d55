import { describe, expect, it } from 'vitest';
import type { ModelResponseEvent, StepEvent } from '../../shared/step-event.js';
import { runUsageSource, stepUsageSource } from '../../shared/usage-source.js';

const response = (step: number, usage: ModelResponseEvent['usage'], usageSource?: 'reported' | 'estimated'): ModelResponseEvent => ({
  type: 'model-response', runId: 'r', seq: step, t: step, step, usage, ...(usageSource ? { usageSource } : {}),
  latencyMs: 1, finishReason: 'stop', text: '', toolCalls: [],
});
const u = { prompt: 10, completion: 2 };

describe('usage source', () => {
  it('reads a step as reported, estimated, or null without usage; old events with usage read as reported', () => {
    expect(stepUsageSource(response(1, u, 'estimated'))).toBe('estimated');
    expect(stepUsageSource(response(1, u))).toBe('reported');
    expect(stepUsageSource(response(1, null))).toBeNull();
  });

  it('sums a run up as reported, estimated, mixed or none', () => {
    const run = (...steps: StepEvent[]) => runUsageSource(steps);
    expect(run(response(1, u, 'reported'), response(2, u))).toBe('reported');
    expect(run(response(1, u, 'estimated'), response(2, u, 'estimated'))).toBe('estimated');
    expect(run(response(1, u, 'reported'), response(2, u, 'estimated'))).toBe('mixed');
    expect(run(response(1, null))).toBe('none');
    expect(run()).toBe('none');
  });
});
