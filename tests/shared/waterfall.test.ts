/**
 * The waterfall's spans from recorded events: a real simulated comparison with first tokens and inner call
 * starts (tests/fixtures/diff), an older one recorded without them (tests/fixtures/reports/stored), and
 * hand-made approval waits and retries.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { StoredComparison } from '../../shared/ipc-contract.js';
import type { StepEvent } from '../../shared/step-event.js';
import { groupByRun } from '../../shared/summary.js';
import {
  axisTicks,
  BREAK_SHARE,
  legendKinds,
  runWaterfall,
  sharedAxis,
  waterfallAxis,
} from '../../shared/waterfall.js';

const load = (path: string) => JSON.parse(readFileSync(new URL(path, import.meta.url), 'utf8')) as StoredComparison;
const runsOf = (s: StoredComparison) => [...groupByRun(s.events).values()];

describe('runWaterfall', () => {
  const recent = runsOf(load('../fixtures/diff/one-trial.stored.json'));

  it('places each model request from sent to last token, with its first token between, as recorded', () => {
    for (const events of recent) {
      const wf = runWaterfall(events);
      const sent = new Map<number, number>();
      for (const e of events) {
        if (e.type === 'model-request') sent.set(e.step, e.t);
        if (e.type !== 'model-response') continue;
        const span = wf.spans.find((s) => s.id === `model-${e.step}`)!;
        expect([span.start, span.end]).toEqual([sent.get(e.step), sent.get(e.step)! + e.latencyMs]);
        expect(e.firstTokenMs).toBeDefined();
        expect(span.firstToken).toBe(sent.get(e.step)! + e.firstTokenMs!);
        expect(span.firstToken!).toBeGreaterThanOrEqual(span.start);
        expect(span.firstToken!).toBeLessThanOrEqual(span.end);
      }
      const started = events.find((e) => e.type === 'run-started');
      if (started?.type === 'run-started' && started.workerStart)
        expect(wf.spans[0]).toMatchObject({ id: 'startup', start: -started.workerStart.ms, end: 0 });
      expect(wf.to).toBeGreaterThanOrEqual(events[events.length - 1]!.t);
    }
  });

  it("nests a program's calls under their run_code, from its start", () => {
    const code = recent.find((ev) => ev.some((e) => e.type === 'code-run'))!;
    const wf = runWaterfall(code);
    const run = code.find(
      (e): e is Extract<StepEvent, { type: 'code-run' }> => e.type === 'code-run' && e.toolCalls.length > 0,
    )!;
    const started = code.find((e) => e.type === 'tool-started' && e.callId === run.callId)!;
    const ids = wf.spans.map((s) => s.id);
    const at = ids.indexOf(`tool-${run.callId}`);
    run.toolCalls.forEach((c, i) => {
      const span = wf.spans[at + 1 + i]!;
      expect(span.parent).toBe(`tool-${run.callId}`);
      expect(span.depth).toBe(1);
      expect(span.start).toBe(started.t + c.startMs!);
      expect(span.end - span.start).toBeCloseTo(c.durationMs, 9);
    });
  });

  it('draws an older record with what it has: no first-token mark, inner calls laid end to end and said so', () => {
    const old = runsOf(load('../fixtures/reports/stored/two-trials.stored.json'));
    const code = old.find((ev) => ev.some((e) => e.type === 'code-run' && e.toolCalls.length > 0))!;
    const wf = runWaterfall(code);
    const models = wf.spans.filter((s) => s.kind === 'model');
    expect(models.length).toBeGreaterThan(0);
    for (const m of models) {
      expect(m.firstToken).toBeNull();
      expect(m.text).toContain('first token not recorded');
    }
    const inner = wf.spans.filter((s) => s.kind === 'inner');
    expect(inner.length).toBeGreaterThan(1);
    for (let i = 1; i < inner.length; i++)
      if (inner[i]!.parent === inner[i - 1]!.parent) expect(inner[i]!.start).toBeCloseTo(inner[i - 1]!.end, 9);
    expect(inner[0]!.text).toContain('its start was not recorded');
  });

  it('shows approval waits, failed attempts and the wait before a retry', () => {
    const base = { runId: 'r' };
    const ev = [
      { type: 'model-request', step: 1, attempt: 1, messageCount: 2, toolNames: [], t: 5 },
      { type: 'model-retry', step: 1, attempt: 1, status: 429, message: 'rate limited', delayMs: 200, t: 40 },
      { type: 'model-request', step: 1, attempt: 2, messageCount: 2, toolNames: [], t: 240 },
      {
        type: 'model-response',
        step: 1,
        usage: null,
        latencyMs: 60,
        firstTokenMs: 20,
        finishReason: 'tool_calls',
        text: '',
        toolCalls: [],
        t: 301,
      },
      { type: 'tool-started', step: 1, callId: 'c1', name: 'run_shell', args: {}, t: 302 },
      {
        type: 'approval-requested',
        step: 1,
        callId: 'c1',
        approvalId: 'a1',
        tool: 'run_shell',
        args: {},
        inProgram: false,
        t: 303,
      },
      {
        type: 'approval-resolved',
        step: 1,
        callId: 'c1',
        approvalId: 'a1',
        tool: 'run_shell',
        decision: 'deny',
        waitedMs: 1500,
        t: 1803,
      },
      {
        type: 'tool-finished',
        step: 1,
        callId: 'c1',
        name: 'run_shell',
        output: 'denied',
        rawSize: 6,
        truncated: false,
        durationMs: 1502,
        error: 'denied by the user',
        t: 1804,
      },
    ].map((e, seq) => ({ ...base, seq, ...e })) as unknown as StepEvent[];
    const wf = runWaterfall(ev);
    const by = new Map(wf.spans.map((s) => [s.id, s]));
    expect(by.get('attempt-1-1')).toMatchObject({ start: 5, end: 40, failed: true });
    expect(by.get('retry-wait-1-1')).toMatchObject({ start: 40, end: 240 });
    expect(by.get('model-1')).toMatchObject({ start: 240, end: 300, firstToken: 260 });
    expect(by.get('approval-a1')).toMatchObject({ start: 303, end: 1803, failed: true });
    expect(by.get('approval-a1')!.text).toBe(
      'Step 1 waited 1.5 s for approval of run_shell, from 303 ms to 1.8 s: denied.',
    );
    expect(by.get('tool-c1')).toMatchObject({ start: 302, end: 1804, failed: true });
  });

  it('draws a history summary request (summarize:K) before its step, as its own span; a failed one as failed', () => {
    const ev = [
      {
        type: 'model-response',
        step: 4,
        usage: null,
        latencyMs: 50,
        finishReason: 'tool_calls',
        text: '',
        toolCalls: [],
        t: 100,
      },
      {
        type: 'history-summary',
        step: 5,
        fromStep: 1,
        toStep: 1,
        replacedMessages: 3,
        replacedTokens: 400,
        text: 's',
        usage: { prompt: 90, completion: 30 },
        latencyMs: 80,
        error: null,
        t: 200,
      },
      {
        type: 'history-summary',
        step: 6,
        fromStep: 1,
        toStep: 2,
        replacedMessages: 0,
        replacedTokens: 0,
        text: '',
        usage: null,
        latencyMs: 30,
        error: 'The summary request failed (boom); the history goes on whole.',
        t: 400,
      },
    ].map((e, seq) => ({ runId: 'r', seq, ...e })) as unknown as StepEvent[];
    const by = new Map(runWaterfall(ev).spans.map((s) => [s.id, s]));
    expect(by.get('summary-1')).toMatchObject({
      kind: 'summary',
      step: 5,
      start: 120,
      end: 200,
      depth: 0,
      failed: false,
    });
    expect(by.get('summary-1')!.text).toBe(
      'Before step 5, the model summarised step 1, from 120 ms to 200 ms (80 ms).',
    );
    expect(by.get('summary-2')).toMatchObject({ start: 370, end: 400, failed: true });
    expect(by.get('summary-2')!.text).toContain(
      'steps 1–2, from 370 ms to 400 ms (30 ms), failed: The summary request failed (boom)',
    );
  });

  it('names the summary kind in the legend only when a run drew one', () => {
    const plain = runWaterfall([
      {
        runId: 'r',
        seq: 0,
        type: 'model-response',
        step: 1,
        usage: null,
        latencyMs: 50,
        finishReason: 'stop',
        text: '',
        toolCalls: [],
        t: 100,
      },
    ] as unknown as StepEvent[]);
    const summarised = runWaterfall([
      {
        runId: 'r',
        seq: 0,
        type: 'history-summary',
        step: 5,
        fromStep: 1,
        toStep: 1,
        replacedMessages: 3,
        replacedTokens: 400,
        text: 's',
        usage: null,
        latencyMs: 80,
        error: null,
        t: 200,
      },
    ] as unknown as StepEvent[]);
    expect(legendKinds([plain])).not.toContain('summary');
    expect(legendKinds([plain, summarised])).toContain('summary');
    expect(legendKinds([plain, summarised])).not.toContain('sampling');
  });
});

describe('the shared axis', () => {
  it('runs from the longest start-up to the latest end, with round ticks', () => {
    expect(
      sharedAxis([
        { spans: [], from: -300, to: 900 },
        { spans: [], from: -120, to: 2400 },
      ]),
    ).toEqual({ from: -300, to: 2400 });
    expect(axisTicks(-300, 2400)).toEqual([0, 500, 1000, 1500, 2000]);
    expect(axisTicks(0, 80)).toEqual([0, 20, 40, 60, 80]);
  });

  it('breaks at 0 when start-up would crush the run: a 6.6 s start-up beside an 823 ms run leaves the run 90 % of the width', () => {
    const runs = [
      { spans: [], from: -6600, to: 823 },
      { spans: [], from: -2000, to: 700 },
    ];
    const axis = waterfallAxis(runs);
    expect(axis.broken).toBe(true);
    expect([axis.position(-6600), axis.position(0), axis.position(823)]).toEqual([0, BREAK_SHARE, 1]);
    // The shorter start-up ends at the break too, and starts later in the squeezed part, in proportion.
    expect(axis.position(-2000)).toBeCloseTo(BREAK_SHARE * (1 - 2000 / 6600), 9);
    // The run's time keeps its proportions, and the ticks label only the part drawn to scale.
    expect(axis.position(411.5) - axis.position(0)).toBeCloseTo((1 - BREAK_SHARE) / 2, 9);
    expect(axis.ticks.every((t) => t >= 0)).toBe(true);
    // To scale when asked: the start-up takes its real share (89 % of this axis).
    const scaled = waterfallAxis(runs, { toScale: true });
    expect(scaled.broken).toBe(false);
    expect(scaled.position(0)).toBeCloseTo(6600 / 7423, 9);
  });

  it('stays to scale when start-up is a small part of the axis, or absent', () => {
    expect(waterfallAxis([{ spans: [], from: -300, to: 2400 }]).broken).toBe(false);
    expect(waterfallAxis([{ spans: [], from: 0, to: 900 }]).broken).toBe(false);
    const a = waterfallAxis([{ spans: [], from: -300, to: 2400 }]);
    expect([a.position(-300), a.position(2400)]).toEqual([0, 1]);
  });
});
