import { describe, expect, it } from 'vitest';
import { DEFAULT_SETTINGS } from '../../../shared/run-spec.js';
import type { StepEvent } from '../../../shared/step-event.js';
import { applyEvents } from '../../../renderer/store/run-model.js';

describe('the timeline model of an MCP call', () => {
  it('keeps the tool\'s annotations from run-started, its latest progress and its sampling requests', () => {
    const e = (seq: number, rest: object) => ({ runId: 'r', seq, t: seq, ...rest }) as StepEvent;
    const events = [
      e(0, { type: 'run-started', mode: 'react', task: { id: null, text: 'q' }, provider: { name: 's', baseUrl: 'http://x', model: 'm', simulated: false }, settings: DEFAULT_SETTINGS, systemPrompt: '', tools: [], startedAt: 0,
        mcpTools: [{ name: 'srv_long', server: 'srv', tool: 'long', annotations: { readOnlyHint: true } }] }),
      e(1, { type: 'tool-started', step: 1, callId: 'c1', name: 'srv_long', args: {} }),
      e(2, { type: 'tool-progress', step: 1, callId: 'c1', name: 'srv_long', progress: 1, total: 3, inProgram: false }),
      e(3, { type: 'tool-progress', step: 1, callId: 'c1', name: 'srv_long', progress: 2, total: 3, inProgram: false }),
      e(4, { type: 'sampling', step: 1, callId: 'c1', server: 'srv', messages: [], maxTokens: 5, usage: { prompt: 7, completion: 3 }, latencyMs: 1, text: 'x', finishReason: 'stop', error: null }),
    ];
    const call = applyEvents({}, events).r!.steps[0]!.calls[0]!;
    expect(call.mcp).toMatchObject({ server: 'srv', annotations: { readOnlyHint: true } });
    expect(call.progress).toMatchObject({ progress: 2, total: 3 });
    expect(call.samplings?.map((s) => s.usage?.prompt)).toEqual([7]);
  });
});
