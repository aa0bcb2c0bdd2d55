/**
 * What a run records when a program or a model produces huge values: a program passing 12 MB strings to tools
 * (which once made a 956 MB run log and an event too big to send, silently dropped), arguments with a million
 * items, nesting without end. What must not happen: an event that large, a count that changes, a cut nobody
 * can see.
 */
import { mkdtemp, realpath, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  RECORDED_STRING_CHARS,
  type CodeRunEvent,
  type StepEvent,
  type StepEventInput,
} from '../../../shared/step-event.js';
import { parseSettings } from '../../../shared/run-spec.js';
import { EventRecorder } from '../../../electron/engine/event-recorder.js';
import { createCodeMode } from '../../../electron/engine/modes/code-mode.js';
import { warmUpTools } from '../../../electron/engine/tools/index.js';

const MB12 = 12 * 1024 * 1024;
const recorded = (input: StepEventInput): StepEvent => {
  const events: StepEvent[] = [];
  new EventRecorder('r1', (e) => events.push(e)).emit(input);
  return events[0];
};
const jsonSize = (value: unknown): number => Buffer.byteLength(JSON.stringify(value));

describe('EventRecorder caps what it records', () => {
  it('a code-run with 12 MB of code and 20 inner write_file calls of 12 MB each records under 2 MB, every call still listed', () => {
    const big = 'x'.repeat(MB12);
    const event = recorded({
      type: 'code-run',
      step: 1,
      callId: 'c1',
      code: big,
      output: 'done',
      error: null,
      toolCalls: Array.from({ length: 20 }, (_, i) => ({
        name: 'write_file',
        args: { path: `f${i}.txt`, content: big },
        durationMs: 1,
        resultBytes: 10,
        error: null,
      })),
      toolBytes: 200,
      printedBytes: 4,
      durationMs: 10,
      limitHit: null,
    }) as CodeRunEvent;
    expect(jsonSize(event)).toBeLessThan(2 * 1024 * 1024);
    expect(event.toolCalls).toHaveLength(20);
    expect(event.toolCalls.map((c) => (c.args as { path: string }).path)).toEqual(
      Array.from({ length: 20 }, (_, i) => `f${i}.txt`),
    );
    expect(event.code.startsWith('x'.repeat(RECORDED_STRING_CHARS))).toBe(true);
    expect(event.code).toContain(`…[recorded ${RECORDED_STRING_CHARS} of ${MB12} characters]`);
    expect(event.clipped).toContainEqual({ path: 'code', length: MB12 });
    expect(event.clipped).toContainEqual({ path: 'toolCalls.19.args.content', length: MB12 });
    expect(event.output).toBe('done');
  });

  it("tool arguments with a million items or nesting 10,000 deep are cut; the event's own lists are not", () => {
    let deep: unknown = 'bottom';
    for (let i = 0; i < 10_000; i++) deep = [deep];
    const started = recorded({
      type: 'tool-started',
      step: 1,
      callId: 'c1',
      name: 'write_file',
      args: { path: 'a', list: Array(1_000_000).fill(1), deep },
    });
    expect(jsonSize(started)).toBeLessThan(100_000);
    expect(started.clipped).toContainEqual({ path: 'args.list', length: 1_000_000 });
    expect(started.clipped?.some((c) => c.path.startsWith('args.deep.0.0'))).toBe(true);
    const calls = Array.from({ length: 1500 }, (_, i) => ({ id: `c${i}`, name: 'read_file', arguments: '{}' }));
    const response = recorded({
      type: 'model-response',
      step: 1,
      usage: { prompt: 1, completion: 1 },
      latencyMs: 1,
      finishReason: 'tool_calls',
      text: '',
      toolCalls: calls,
    });
    expect(response.type === 'model-response' && response.toolCalls).toHaveLength(1500);
    expect(response.clipped).toBeUndefined();
  });

  it('an ordinary event is recorded as it is, with no clipped field', () => {
    const input: StepEventInput = {
      type: 'tool-finished',
      step: 2,
      callId: 'c',
      name: 'read_file',
      output: 'hello',
      rawSize: 5,
      truncated: false,
      durationMs: 3,
      error: null,
    };
    expect(recorded(input)).toEqual({ ...input, runId: 'r1', seq: 0, t: expect.any(Number) });
  });
});

describe('a Code Mode program that writes 12 MB strings', () => {
  let workspace: string;
  beforeAll(async () => {
    workspace = await realpath(await mkdtemp(join(tmpdir(), 'parallax-recorder-')));
    await warmUpTools();
  });
  afterAll(() => rm(workspace, { recursive: true, force: true }));

  it('cannot hide its calls: the code-run event is small, sent, and lists both writes with their paths', async () => {
    const mode = createCodeMode({ workspace, settings: parseSettings({ codeTimeoutMs: 60_000, codeMemoryMb: 256 }) });
    const events: StepEvent[] = [];
    const recorder = new EventRecorder('r2', (e) => events.push(e));
    try {
      const code =
        "const s = 'y'.repeat(12 * 1024 * 1024); write_file('one.txt', s); write_file('two.txt', s); print('wrote');";
      const text = await mode.handleCall(
        'run_code',
        { code },
        { step: 1, callId: 'c1', signal: new AbortController().signal, emit: (e) => recorder.emit(e) },
      );
      expect(text).toBe('wrote');
      const run = events.find((e): e is CodeRunEvent => e.type === 'code-run')!;
      expect(run.toolCalls.map((c) => [c.name, (c.args as { path: string }).path, c.error])).toEqual([
        ['write_file', 'one.txt', null],
        ['write_file', 'two.txt', null],
      ]);
      expect(jsonSize(run)).toBeLessThan(512 * 1024);
      expect(run.clipped).toContainEqual({ path: 'toolCalls.0.args.content', length: MB12 });
    } finally {
      mode.dispose?.();
    }
  });
});
