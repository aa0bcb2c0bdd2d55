import { describe, expect, it } from 'vitest';
import type { StepEvent } from '../../../shared/step-event.js';
import { computePerStep, computeTotals } from '../../../shared/summary.js';
import { applyEvents, emptyRun, runStatus, type RunMap } from '../../../renderer/store/run-model.js';
import { interleave, syntheticRun } from '../fixtures/synthetic-stream.js';

const oneByOne = (events: readonly StepEvent[], start: RunMap = {}) =>
  events.reduce<RunMap>((m, e) => applyEvents(m, [e]), start);

function chunks<T>(list: readonly T[], sizes: readonly number[]): T[][] {
  const out: T[][] = [];
  let i = 0;
  let k = 0;
  while (i < list.length) {
    const n = sizes[k++ % sizes.length]!;
    out.push(list.slice(i, i + n));
    i += n;
  }
  return out;
}

describe('run model', () => {
  const react = syntheticRun({ runId: 'r1', mode: 'react', steps: 40, seed: 3 });
  const code = syntheticRun({ runId: 'r2', mode: 'code', steps: 25, seed: 9 });
  const stream = interleave(react, code);

  it('applying the whole stream as one batch equals applying it event by event', () => {
    expect(applyEvents({}, stream)).toEqual(oneByOne(stream));
  });

  it('applying it in uneven batches equals applying it event by event', () => {
    const batched = chunks(stream, [1, 7, 3, 50, 2]).reduce<RunMap>((m, b) => applyEvents(m, b), {});
    expect(batched).toEqual(oneByOne(stream));
  });

  it('does not mutate the state it was given (copy-on-write per batch)', () => {
    const first = applyEvents({}, stream.slice(0, 60));
    const snapshot = structuredClone(first);
    applyEvents(first, stream.slice(60));
    expect(first).toEqual(snapshot);
  });

  it('keeps every event in seq order, so the report math sees what the host stored', () => {
    const runs = applyEvents({}, stream);
    expect(runs.r1!.events).toEqual(react);
    expect(runs.r2!.events).toEqual(code);
    expect(computeTotals(runs.r1!.events)).toEqual(
      (react.at(-1) as Extract<StepEvent, { type: 'run-finished' }>).totals,
    );
  });

  it('builds one step view per model step, with its calls, retries and code runs', () => {
    const runs = applyEvents({}, stream);
    const r1 = runs.r1!;
    expect(r1.steps.map((s) => s.step)).toEqual(computePerStep(react).map((s) => s.step));
    const step2 = r1.steps[r1.stepIndex[2]!]!;
    expect(step2.calls.map((c) => c.callId)).toEqual(['c2_0']);
    expect(step2.calls[0]!.finished?.truncated).toBe(true);
    expect(step2.calls[0]!.args).toEqual({ path: 'log2.txt' });
    const step3 = r1.steps[r1.stepIndex[3]!]!;
    expect(step3.calls.map((c) => c.callId)).toEqual(['c3_0', 'c3_1']);
    expect(step3.calls[1]!.rawArgs).toBe(JSON.stringify({ command: 'wc -l *.txt' }));
    expect(step3.retries).toHaveLength(1);
    expect(step3.requests.map((r) => r.attempt)).toEqual([1, 2]);
    const c2 = runs.r2!.steps[runs.r2!.stepIndex[2]!]!;
    expect(c2.calls[0]!.codeRun?.error?.line).toBe(4);
    expect(runs.r2!.steps[0]!.calls[0]!.searches[0]!.hits[0]!.name).toBe('current_time');
  });

  it('ignores events it already has (a reopen or reconnect replays them) and returns the same map', () => {
    const runs = applyEvents({}, stream);
    expect(applyEvents(runs, stream.slice(0, 100))).toBe(runs);
    const replayed = applyEvents(applyEvents({}, stream.slice(0, 80)), stream);
    expect(replayed).toEqual(runs);
  });

  it('counts a gap when events went missing', () => {
    const runs = applyEvents({}, [react[0]!, react[2]!]);
    expect(runs.r1!.gaps).toBe(1);
    expect(runs.r1!.nextSeq).toBe(3);
  });

  it('keeps steps sorted even when one arrives out of order', () => {
    const base = { runId: 'x', t: 0 } as const;
    const evs: StepEvent[] = [
      { ...base, seq: 0, type: 'model-request', step: 2, attempt: 1, messageCount: 1, toolNames: [] },
      { ...base, seq: 1, type: 'model-request', step: 1, attempt: 1, messageCount: 1, toolNames: [] },
    ];
    const run = applyEvents({}, evs).x!;
    expect(run.steps.map((s) => s.step)).toEqual([1, 2]);
    expect(run.stepIndex).toEqual({ 1: 0, 2: 1 });
  });

  it('reports pending, running and the finished status', () => {
    expect(runStatus(undefined)).toBe('pending');
    expect(runStatus(emptyRun('z'))).toBe('pending');
    expect(runStatus(applyEvents({}, react.slice(0, 5)).r1)).toBe('running');
    expect(runStatus(applyEvents({}, react).r1)).toBe('answered');
  });

  it('shows a call made through call_tool under the tool it ran, noted as forwarded', () => {
    const base = { runId: 'f1', t: 0 } as const;
    const events = [
      {
        ...base,
        seq: 0,
        type: 'model-response',
        step: 1,
        usage: null,
        latencyMs: 1,
        finishReason: 'tool_calls',
        text: '',
        toolCalls: [
          { id: 'c1', name: 'call_tool', arguments: '{"name":"fetch_url","arguments":{"url":"https://example.com"}}' },
        ],
      },
      {
        ...base,
        seq: 1,
        type: 'tool-started',
        step: 1,
        callId: 'c1',
        name: 'fetch_url',
        args: { url: 'https://example.com' },
        forwardedBy: 'call_tool',
      },
    ] as unknown as StepEvent[];
    const call = applyEvents({}, events).f1!.steps[0]!.calls[0]!;
    expect(call).toMatchObject({ name: 'fetch_url', forwardedBy: 'call_tool', args: { url: 'https://example.com' } });
  });
});
