import type { z } from 'zod';
import { describe, expect, it } from 'vitest';
import { checkComparisonMeta, comparisonMetaSchema } from '../../shared/comparison-meta-schema.js';
import type { ComparisonMeta } from '../../shared/ipc-contract.js';
import { DEFAULT_SETTINGS } from '../../shared/run-spec.js';
import type { StepEvent } from '../../shared/step-event.js';
import { checkStepEvent, stepEventSchema } from '../../shared/step-event-schema.js';
import { computeTotals } from '../../shared/summary.js';

// ---- Compile-time: the schemas and the types describe the same objects. -------------------------------------
// Mutual assignability per event type: a field added, removed or made optional on one side only is an error.
// `readonly` is the types' promise not to mutate, which zod does not model: it is removed on both sides first.
type Writable<T> = T extends (...args: never[]) => unknown
  ? T
  : T extends readonly (infer U)[]
    ? Writable<U>[]
    : T extends object
      ? { -readonly [K in keyof T]: Writable<T[K]> }
      : T;
type Same<A, B> = [Writable<A>] extends [Writable<B>] ? ([Writable<B>] extends [Writable<A>] ? true : false) : false;
type Parsed = z.output<typeof stepEventSchema>;
type PerType = { [K in StepEvent['type']]: Same<Extract<StepEvent, { type: K }>, Extract<Parsed, { type: K }>> };
const perType: PerType = {
  'run-started': true,
  'model-request': true,
  'model-retry': true,
  'model-response': true,
  'tool-started': true,
  'tool-finished': true,
  'code-run': true,
  'tool-search': true,
  'approval-requested': true,
  'approval-resolved': true,
  'run-warning': true,
  'tool-progress': true,
  sampling: true,
  'history-summary': true,
  elicitation: true,
  'elicitation-requested': true,
  'run-finished': true,
};
const sameTypes: Same<Parsed['type'], StepEvent['type']> = true;
const sameMeta: Same<z.output<typeof comparisonMetaSchema>, ComparisonMeta> = true;

const provider = { name: 'simulated', baseUrl: 'http://127.0.0.1:1/v1', model: 'sim', simulated: true };

/** One event of every type, as the engine writes them. */
function everyKind(runId = 'r1'): StepEvent[] {
  const inputs: object[] = [
    {
      type: 'run-started',
      mode: 'code',
      task: { id: 'calc', text: 'q' },
      provider,
      settings: DEFAULT_SETTINGS,
      systemPrompt: 's',
      tools: [{ name: 'run_code', description: 'd', parameters: { type: 'object' } }],
      startedAt: 1,
    },
    { type: 'model-request', step: 1, attempt: 1, messageCount: 2, toolNames: ['run_code'] },
    { type: 'model-retry', step: 1, attempt: 1, status: 429, message: 'slow down', delayMs: 100 },
    {
      type: 'model-response',
      step: 1,
      usage: { prompt: 10, completion: 2, cached: 0 },
      usageSource: 'reported',
      latencyMs: 5,
      finishReason: 'tool_calls',
      text: '',
      toolCalls: [{ id: 'c1', name: 'run_code', arguments: '{"code":"1"}' }],
    },
    { type: 'tool-started', step: 1, callId: 'c1', name: 'run_code', args: { code: '1' } },
    {
      type: 'approval-requested',
      step: 1,
      callId: 'c1',
      approvalId: 'a1',
      tool: 'run_shell',
      args: { command: 'ls' },
      inProgram: true,
    },
    {
      type: 'approval-resolved',
      step: 1,
      callId: 'c1',
      approvalId: 'a1',
      tool: 'run_shell',
      decision: 'deny',
      waitedMs: 1200,
    },
    {
      type: 'tool-search',
      step: 1,
      callId: 'c1',
      query: 'web',
      hits: [{ name: 'fetch_url', score: 2.5, signature: 'fetch_url(url: string)' }],
    },
    {
      type: 'code-run',
      step: 1,
      callId: 'c1',
      code: '1',
      output: '',
      error: { line: 1, column: null, message: 'x' },
      toolCalls: [{ name: 'run_shell', args: { command: 'ls' }, durationMs: 0.5, resultBytes: 0, error: 'denied' }],
      toolBytes: 0,
      printedBytes: 0,
      durationMs: 3,
      limitHit: null,
    },
    {
      type: 'tool-finished',
      step: 1,
      callId: 'c1',
      name: 'run_code',
      output: 'ok',
      rawSize: 2,
      truncated: false,
      durationMs: 4,
      error: null,
    },
    { type: 'run-warning', message: 'careful' },
    {
      type: 'tool-progress',
      step: 1,
      callId: 'c1',
      name: 'srv_long',
      progress: 1,
      total: 3,
      message: 'step 1',
      inProgram: true,
    },
    {
      type: 'history-summary',
      step: 5,
      fromStep: 1,
      toStep: 1,
      replacedMessages: 2,
      replacedTokens: 40,
      text: '[summary of earlier steps 1–1]\nread a.txt',
      usage: { prompt: 30, completion: 8 },
      usageSource: 'reported',
      latencyMs: 4,
      error: null,
    },
    {
      type: 'sampling',
      step: 1,
      callId: 'c1',
      server: 'srv',
      messages: [{ role: 'user', text: 'hi' }],
      maxTokens: 20,
      usage: { prompt: 7, completion: 3 },
      usageSource: 'reported',
      latencyMs: 9,
      text: 'hello',
      finishReason: 'stop',
      error: null,
    },
    {
      type: 'elicitation',
      step: 1,
      callId: 'c1',
      server: 'srv',
      message: 'Your name?',
      fields: [{ key: 'name', kind: 'string', title: 'Name', required: true }],
      action: 'accept',
      content: { name: 'Ada' },
      waitedMs: 900,
    },
    {
      type: 'elicitation-requested',
      step: 1,
      callId: 'c1',
      elicitationId: 'e1',
      server: 'srv',
      message: 'Your name?',
      fields: [{ key: 'name', kind: 'string', title: 'Name', required: true }],
      timeoutMs: 300000,
    },
  ];
  const events = inputs.map((e, seq) => ({ ...e, runId, seq, t: seq * 1000 }) as StepEvent);
  events.push({
    type: 'run-finished',
    runId,
    seq: events.length,
    t: 99_999,
    status: 'answered',
    answer: '1',
    validation: null,
    totals: computeTotals(events),
  });
  return events;
}

describe('the StepEvent schema', () => {
  it('agrees with the types (checked by the compiler) and accepts every kind of event the engine writes', () => {
    expect(Object.values(perType).every(Boolean) && sameTypes && sameMeta).toBe(true);
    for (const e of everyKind()) expect(checkStepEvent(e)).toEqual({ ok: true, event: e });
  });

  it('hands back the value it checked, unknown fields included (a newer version’s fields survive)', () => {
    const e = { ...everyKind()[1], addedLater: { x: 1 } };
    const checked = checkStepEvent(e);
    expect(checked.ok && checked.event).toBe(e);
  });

  it('refuses a damaged event with a reason that names the field', () => {
    const [started, request, , response] = everyKind();
    const cases: [unknown, RegExp][] = [
      [null, /expected an event object, found null/],
      [[request], /found an array/],
      ['{"type":"model-request"}', /found string/],
      [{ ...request, type: 'made-up' }, /type/],
      [{ ...response, usage: { prompt: '10', completion: 2 } }, /a model-response event .*usage\.prompt/],
      [
        (({ output: _o, ...rest }) => rest)({ ...everyKind()[9] } as { output: string }),
        /tool-finished event .*output/,
      ],
      [{ ...started, settings: { ...DEFAULT_SETTINGS, maxSteps: -1 } }, /settings\.maxSteps/],
      [{ ...request, seq: -1 }, /seq/],
      [{ ...request, runId: '' }, /runId/],
    ];
    for (const [value, reason] of cases) {
      const checked = checkStepEvent(value);
      expect(checked.ok, JSON.stringify(value)?.slice(0, 80)).toBe(false);
      if (!checked.ok) expect(checked.problem).toMatch(reason);
    }
  });
});

describe('the comparison meta schema', () => {
  const meta: ComparisonMeta = {
    id: 'c1',
    createdAt: 1,
    task: { id: 'calc', text: 'q' },
    provider,
    settings: DEFAULT_SETTINGS,
    workspaceSource: 'empty',
    runs: [
      { runId: 'c1-react', mode: 'react' },
      { runId: 'c1-code', mode: 'code', trial: 1 },
    ],
  };

  it('accepts a meta.json as the host writes it', () => {
    expect(checkComparisonMeta(JSON.parse(JSON.stringify(meta)))).toMatchObject({ ok: true });
  });

  it('refuses {}, null, a bad runs field, path tricks in run ids and repeated runs, saying what is wrong', () => {
    const cases: [unknown, RegExp][] = [
      [{}, /id: .*; .*createdAt/],
      [null, /holds null/],
      [[], /holds an array/],
      [{ ...meta, runs: 'react,code' }, /runs: /],
      [{ ...meta, runs: [] }, /at least one run/],
      [{ ...meta, runs: [{ runId: '../../etc/passwd', mode: 'react' }] }, /runs\.0\.runId: not a valid run id/],
      [{ ...meta, runs: [{ runId: 'x', mode: 'telepathy' }] }, /runs\.0\.mode/],
      [{ ...meta, runs: [meta.runs[0], meta.runs[0]] }, /listed twice/],
      [{ ...meta, id: '..' }, /not a valid comparison id/],
    ];
    for (const [value, reason] of cases) {
      const checked = checkComparisonMeta(value);
      expect(checked.ok, JSON.stringify(value)).toBe(false);
      if (!checked.ok) expect(checked.problem).toMatch(reason);
    }
  });
});
