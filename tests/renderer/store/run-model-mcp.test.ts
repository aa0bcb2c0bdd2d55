import { describe, expect, it } from 'vitest';
import { DEFAULT_SETTINGS } from '../../../shared/run-spec.js';
import type { StepEvent } from '../../../shared/step-event.js';
import { applyEvents } from '../../../renderer/store/run-model.js';

describe('the timeline model of an MCP call', () => {
  it("keeps the tool's annotations from run-started, its latest progress and its sampling requests", () => {
    const e = (seq: number, rest: object) => ({ runId: 'r', seq, t: seq, ...rest }) as StepEvent;
    const events = [
      e(0, {
        type: 'run-started',
        mode: 'react',
        task: { id: null, text: 'q' },
        provider: { name: 's', baseUrl: 'http://x', model: 'm', simulated: false },
        settings: DEFAULT_SETTINGS,
        systemPrompt: '',
        tools: [],
        startedAt: 0,
        mcpTools: [{ name: 'srv_long', server: 'srv', tool: 'long', annotations: { readOnlyHint: true } }],
      }),
      e(1, { type: 'tool-started', step: 1, callId: 'c1', name: 'srv_long', args: {} }),
      e(2, { type: 'tool-progress', step: 1, callId: 'c1', name: 'srv_long', progress: 1, total: 3, inProgram: false }),
      e(3, { type: 'tool-progress', step: 1, callId: 'c1', name: 'srv_long', progress: 2, total: 3, inProgram: false }),
      e(4, {
        type: 'sampling',
        step: 1,
        callId: 'c1',
        server: 'srv',
        messages: [],
        maxTokens: 5,
        usage: { prompt: 7, completion: 3 },
        latencyMs: 1,
        text: 'x',
        finishReason: 'stop',
        error: null,
      }),
    ];
    const call = applyEvents({}, events).r!.steps[0]!.calls[0]!;
    expect(call.mcp).toMatchObject({ server: 'srv', annotations: { readOnlyHint: true } });
    expect(call.progress).toMatchObject({ progress: 2, total: 3 });
    expect(call.samplings?.map((s) => s.usage?.prompt)).toEqual([7]);
  });

  it("holds a server's form while it waits, and lets it go with its outcome (a time-out too), whichever batch brings it", () => {
    const e = (seq: number, rest: object) => ({ runId: 'r', seq, t: seq, ...rest }) as StepEvent;
    const fields = [{ key: 'name', kind: 'string', title: 'Name', required: true }];
    const asked = (seq: number, id: string) =>
      e(seq, {
        type: 'elicitation-requested',
        step: 1,
        callId: 'c1',
        elicitationId: id,
        server: 'srv',
        message: 'Name?',
        fields,
        timeoutMs: 300_000,
      });
    let runs = applyEvents({}, [
      e(0, { type: 'tool-started', step: 1, callId: 'c1', name: 'srv_ask', args: {} }),
      asked(1, 'e1'),
      asked(2, 'e2'),
    ]);
    expect(runs.r!.steps[0]!.calls[0]!.asking?.map((q) => q.elicitationId)).toEqual(['e1', 'e2']);
    expect(runs.r!.pendingForms).toBe(2);
    // An outcome of an earlier, unannounced form (no id) leaves the waiting ones alone.
    runs = applyEvents(runs, [
      e(3, {
        type: 'elicitation',
        step: 1,
        callId: 'c1',
        server: 'srv',
        message: 'x',
        fields: [],
        action: 'decline',
        reason: 'nobody can answer in this run',
        waitedMs: 0,
      }),
    ]);
    expect(runs.r!.pendingForms).toBe(2);
    runs = applyEvents(runs, [
      e(4, {
        type: 'elicitation',
        step: 1,
        callId: 'c1',
        server: 'srv',
        message: 'Name?',
        fields,
        action: 'cancel',
        reason: 'nobody answered within 300 s',
        waitedMs: 300_000,
        elicitationId: 'e1',
      }),
    ]);
    const call = runs.r!.steps[0]!.calls[0]!;
    expect(call.asking?.map((q) => q.elicitationId)).toEqual(['e2']);
    expect(call.elicitations?.map((x) => x.action)).toEqual(['decline', 'cancel']);
    expect(runs.r!.pendingForms).toBe(1);
  });
});
