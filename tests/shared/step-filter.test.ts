/** The Timeline's step filters over hand-made events: errors of every kind, tools inside programs, text search, differing rows. */
import { describe, expect, it } from 'vitest';
import type { StepEvent } from '../../shared/step-event.js';
import { canonicalJson } from '../../shared/canonical-json.js';
import { filterSteps, NO_FILTER, rowDiffers, stepFacts, toolsUsed } from '../../shared/step-filter.js';

let seq = 0;
const ev = (e: Record<string, unknown>) => ({ runId: 'r', seq: seq++, t: seq, ...e }) as unknown as StepEvent;
const req = (step: number) => ev({ type: 'model-request', step, attempt: 1, messageCount: 1, toolNames: [] });
const reply = (
  step: number,
  calls: { id: string; name: string; arguments: string }[],
  text = '',
  extra: Record<string, unknown> = {},
) =>
  ev({
    type: 'model-response',
    step,
    usage: null,
    latencyMs: 1,
    finishReason: 'stop',
    text,
    toolCalls: calls,
    ...extra,
  });
const started = (step: number, callId: string, name: string, args: unknown) =>
  ev({ type: 'tool-started', step, callId, name, args });
const finished = (step: number, callId: string, name: string, output: string, error: string | null = null) =>
  ev({
    type: 'tool-finished',
    step,
    callId,
    name,
    output,
    rawSize: output.length,
    truncated: false,
    durationMs: 1,
    error,
  });
const end = (answer: string, validation: { ok: boolean; detail: string } | null = null, status = 'answered') =>
  ev({ type: 'run-finished', status, answer, validation, totals: {} });

/** ReAct: weather(Paris) fails at step 1, retried at step 2, answers at step 3. */
const react = [
  req(1),
  reply(1, [{ id: 'a', name: 'get_weather', arguments: '{"city":"Paris","unit":"c"}' }]),
  started(1, 'a', 'get_weather', { city: 'Paris', unit: 'c' }),
  finished(1, 'a', 'get_weather', '', 'upstream 503'),
  req(2),
  reply(2, [{ id: 'b', name: 'get_weather', arguments: '{"unit":"c","city":"Paris"}' }]),
  started(2, 'b', 'get_weather', { unit: 'c', city: 'Paris' }),
  finished(2, 'b', 'get_weather', '{"temp":14,"sky":"Drizzle"}'),
  req(3),
  reply(3, [], 'It is 14 °C in Paris.'),
  end('It is 14 °C in Paris.', { ok: false, detail: 'expected 15' }),
];
/** Code Mode: one program making the same call, then an answer. */
const code = [
  req(1),
  reply(1, [{ id: 'c', name: 'run_code', arguments: '{"code":"print(get_weather(\\"Paris\\"))"}' }]),
  started(1, 'c', 'run_code', { code: 'print(get_weather("Paris"))' }),
  ev({
    type: 'code-run',
    step: 1,
    callId: 'c',
    code: 'print(get_weather("Paris"))',
    output: '14',
    error: null,
    toolCalls: [
      { name: 'get_weather', args: { city: 'Paris', unit: 'c' }, durationMs: 1, resultBytes: 9, error: 'upstream 503' },
    ],
    toolBytes: 9,
    printedBytes: 2,
    durationMs: 5,
    limitHit: null,
  }),
  finished(1, 'c', 'run_code', '14'),
  req(2),
  reply(2, [], 'Paris: 14 °C.'),
  end('Paris: 14 °C.'),
];

describe('stepFacts', () => {
  it('records each kind of failure on its step, and a run failing validation on its last step', () => {
    const f = stepFacts(react);
    expect(f.map((s) => s.step)).toEqual([1, 2, 3]);
    expect(f[0]!.errors).toEqual(['get_weather failed: upstream 503']);
    expect(f[1]!.errors).toEqual([]);
    expect(f[2]!.errors).toEqual(['failed validation: expected 15']);
    const more = stepFacts([
      req(1),
      ev({ type: 'model-retry', step: 1, attempt: 1, status: 500, message: 'boom', delayMs: 1 }),
      reply(1, [], 'Thought: x', {
        parsed: { thought: 'x', finalAnswer: null, parseError: 'no Action line', kept: 10 },
      }),
      req(2),
      reply(2, [], '', { refusal: 'I cannot' }),
      ev({
        type: 'approval-resolved',
        step: 2,
        callId: 'z',
        approvalId: 'p',
        tool: 'run_shell',
        decision: 'deny',
        waitedMs: 1,
      }),
      end('', null, 'error'),
    ]);
    expect(more[0]!.errors).toEqual(['model error (attempt 1): boom', 'malformed reply: no Action line']);
    expect(more[1]!.errors).toEqual(['model refused: I cannot', 'run_shell call refused at approval', 'run error']);
  });

  it('counts a failed call inside a program as an error and its tool as used', () => {
    const f = stepFacts(code);
    expect(f[0]!.errors).toEqual(['get_weather failed inside the program: upstream 503']);
    expect([...f[0]!.tools].sort()).toEqual(['get_weather', 'run_code']);
    expect(toolsUsed([stepFacts(react), f])).toEqual(['get_weather', 'run_code']);
  });

  it('compares arguments whatever order their keys came in', () => {
    expect(canonicalJson({ b: 1, a: [{ d: 2, c: 3 }] })).toBe('{"a":[{"c":3,"d":2}],"b":1}');
    const f = stepFacts(react);
    expect(f[0]!.signature).toBe('get_weather({"city":"Paris","unit":"c"})=error');
    expect(f[1]!.signature).toBe('get_weather({"city":"Paris","unit":"c"})=ok');
    expect(f[2]!.signature).toBe('answer');
  });
});

describe('filterSteps', () => {
  const cols = [stepFacts(react), stepFacts(code)];

  it('without a filter shows every row and counts every step', () => {
    const r = filterSteps(cols, NO_FILTER);
    expect(r.rows).toEqual([1, 2, 3]);
    expect([r.matched, r.total]).toEqual([5, 5]);
  });

  it('errors only keeps the failing steps of each column', () => {
    const r = filterSteps(cols, { ...NO_FILTER, errorsOnly: true });
    expect(r.rows).toEqual([1, 3]);
    expect([...r.matches[0]!]).toEqual([1, 3]);
    expect([...r.matches[1]!]).toEqual([1]);
    expect(r.matched).toBe(3);
  });

  it('a tool keeps the steps that called it, inside programs too', () => {
    const r = filterSteps(cols, { ...NO_FILTER, tool: 'get_weather' });
    expect([...r.matches[0]!]).toEqual([1, 2]);
    expect([...r.matches[1]!]).toEqual([1]);
    expect(filterSteps(cols, { ...NO_FILTER, tool: 'run_code' }).matched).toBe(1);
    expect(filterSteps(cols, { ...NO_FILTER, tool: 'nope' }).rows).toEqual([]);
  });

  it('text search is case-insensitive over arguments, results and answers', () => {
    expect([...filterSteps(cols, { ...NO_FILTER, text: 'DRIZZLE' }).matches[0]!]).toEqual([2]);
    const answers = filterSteps(cols, { ...NO_FILTER, text: '14 °c' });
    expect([...answers.matches[0]!]).toEqual([3]);
    expect([...answers.matches[1]!]).toEqual([2]);
    expect(filterSteps(cols, { ...NO_FILTER, text: '"city":"paris"' }).matched).toBe(3);
    expect(filterSteps(cols, { ...NO_FILTER, text: '   ' }).matched).toBe(5);
  });

  it('only where the columns differ drops rows whose columns made the same calls with the same outcome', () => {
    // Step 1: the same call failing in both (direct vs in a program) — the same signature.
    const p = stepFacts(code);
    expect(p[0]!.signature).toBe('run_code[get_weather({"city":"Paris","unit":"c"})=error]=ok');
    expect(rowDiffers(cols, 1)).toBe(true);
    const same = [stepFacts(react), stepFacts(react)];
    expect(filterSteps(same, { ...NO_FILTER, differOnly: true }).rows).toEqual([]);
    // A column without the step differs from one with it.
    const r = filterSteps(cols, { ...NO_FILTER, differOnly: true });
    expect(r.rows).toEqual([1, 2, 3]);
    expect(rowDiffers([stepFacts(react), stepFacts(react.slice(0, 8))], 3)).toBe(true);
    expect(rowDiffers([stepFacts(react), stepFacts(react.slice(0, 8))], 2)).toBe(false);
  });
});
