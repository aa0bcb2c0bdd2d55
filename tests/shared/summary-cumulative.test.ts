import { describe, expect, it } from 'vitest';
import { computeTotals, computePerStep, cumulativeTokens, type StepSummary } from '../../shared/summary.js';
import type { StepEvent } from '../../shared/step-event.js';

function step(step: number, prompt: number, completion: number): StepSummary {
  return {
    step,
    prompt,
    completion,
    cached: 0,
    reasoning: 0,
    attempts: 1,
    latencyMs: 1,
    toolCalls: 0,
    usageMissing: false,
    usageSource: 'reported',
    cost: { usd: null, from: null, estimated: false },
  };
}

describe('cumulativeTokens', () => {
  it('accumulates prompt and completion step by step', () => {
    const points = cumulativeTokens([step(1, 5, 2), step(2, 7, 3), step(3, 11, 0)]);
    expect(points.map((p) => p.step)).toEqual([1, 2, 3]);
    expect(points.map((p) => p.prompt)).toEqual([5, 5 + 7, 5 + 7 + 11]);
    expect(points.map((p) => p.completion)).toEqual([2, 2 + 3, 2 + 3]);
    expect(points.map((p) => p.total)).toEqual([7, 7 + 10, 7 + 10 + 11]);
  });

  it('is empty for a run without steps', () => {
    expect(cumulativeTokens([])).toEqual([]);
  });

  it('ends at the totals computed from the same events, counting a step without usage as zero', () => {
    const events: StepEvent[] = [
      { runId: 'r', seq: 0, t: 1, type: 'model-request', step: 1, attempt: 1, messageCount: 2, toolNames: [] },
      {
        runId: 'r',
        seq: 1,
        t: 2,
        type: 'model-response',
        step: 1,
        usage: { prompt: 13, completion: 4 },
        latencyMs: 1,
        finishReason: null,
        text: '',
        toolCalls: [],
      },
      { runId: 'r', seq: 2, t: 3, type: 'model-request', step: 2, attempt: 1, messageCount: 4, toolNames: [] },
      {
        runId: 'r',
        seq: 3,
        t: 4,
        type: 'model-response',
        step: 2,
        usage: null,
        latencyMs: 1,
        finishReason: null,
        text: '',
        toolCalls: [],
      },
      { runId: 'r', seq: 4, t: 5, type: 'model-request', step: 3, attempt: 1, messageCount: 6, toolNames: [] },
      {
        runId: 'r',
        seq: 5,
        t: 6,
        type: 'model-response',
        step: 3,
        usage: { prompt: 29, completion: 6 },
        latencyMs: 1,
        finishReason: null,
        text: '',
        toolCalls: [],
      },
    ];
    const last = cumulativeTokens(computePerStep(events)).at(-1)!;
    const totals = computeTotals(events);
    expect(last.prompt).toBe(totals.prompt);
    expect(last.completion).toBe(totals.completion);
    expect(last.total).toBe(totals.total);
  });
});
