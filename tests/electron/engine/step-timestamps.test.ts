/**
 * The timestamps a waterfall is drawn from: a model response's first token (both provider clients, against a
 * loopback replay that pauses before the first output and again before the end) and the start of each call
 * inside a program (a real sandbox, tools that wait). Old records without them still load.
 */
import { randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { parseSettings, type ProviderInfo } from '../../../shared/run-spec.js';
import type { ModelRequestEvent, ModelResponseEvent, StepEvent } from '../../../shared/step-event.js';
import { checkStepEvent } from '../../../shared/step-event-schema.js';
import { runEngine } from '../../../electron/engine/run-engine.js';
import { sse, startReplayServer, type ReplayReply, type ReplayServer } from '../../helpers/replay-server.js';
import { event, messageStart, streamReply } from '../../helpers/anthropic-shapes.js';
import { harness, type Harness } from './sandbox/helpers.js';

const WAIT_FIRST = 250;
const WAIT_REST = 300;

const chunk = (delta: Record<string, unknown>, finish: string | null = null, usage?: Record<string, unknown>) => ({
  id: 'c1',
  object: 'chat.completion.chunk',
  created: 1,
  model: 'm',
  choices: [{ index: 0, delta, finish_reason: finish }],
  ...(usage ? { usage } : {}),
});

/** OpenAI-style: the role chunk at once (no output yet), the first words after a pause, the rest after another. */
const OPENAI_ANSWER: ReplayReply = {
  body: (() => {
    const [role, first, rest, end, done] = sse([
      chunk({ role: 'assistant' }),
      chunk({ content: 'The answer' }),
      chunk({ content: ' is 42.' }),
      chunk({}, 'stop', { prompt_tokens: 20, completion_tokens: 5, total_tokens: 25 }),
    ]);
    return [role, { waitMs: WAIT_FIRST }, first, { waitMs: WAIT_REST }, rest, end, done];
  })(),
};

/** Anthropic: message_start and an empty text block at once (not output), the first delta after a pause. */
const ANTHROPIC_ANSWER = streamReply([
  event(messageStart({ input_tokens: 20, output_tokens: 1 })),
  event({ type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } }),
  event({ type: 'ping' }),
]);
const ANTHROPIC_BODY: ReplayReply = {
  ...ANTHROPIC_ANSWER,
  body: [
    ...(ANTHROPIC_ANSWER.body ?? []),
    { waitMs: WAIT_FIRST },
    event({ type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: 'The answer' } }),
    { waitMs: WAIT_REST },
    event({ type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: ' is 42.' } }),
    event({ type: 'content_block_stop', index: 0 }),
    event({
      type: 'message_delta',
      delta: { stop_reason: 'end_turn', stop_sequence: null },
      usage: { output_tokens: 5 },
    }),
    event({ type: 'message_stop' }),
  ],
};

const servers: ReplayServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});
let workspace = '';
beforeAll(async () => {
  workspace = await mkdtemp(join(tmpdir(), 'parallax-stamps-'));
});
afterAll(() => rm(workspace, { recursive: true, force: true }));

async function runAgainst(reply: ReplayReply, protocol: 'openai' | 'anthropic'): Promise<StepEvent[]> {
  const server = await startReplayServer([reply]);
  servers.push(server);
  const provider: ProviderInfo = {
    name: protocol === 'anthropic' ? 'anthropic' : 'test',
    baseUrl: server.url,
    model: 'm',
    simulated: false,
    ...(protocol === 'anthropic' ? { protocol } : {}),
  };
  const events: StepEvent[] = [];
  await runEngine(
    {
      runId: randomUUID(),
      task: { id: null, text: 'What is the answer?' },
      mode: 'react',
      provider,
      apiKeyEnv: 'X_KEY',
      settings: parseSettings({ maxRetries: 0 }),
      workspace,
      price: null,
    },
    { apiKey: 'k', signal: new AbortController().signal, emit: (e) => events.push(e) },
    null,
  );
  return events;
}

describe('first token on model responses', () => {
  for (const [protocol, reply] of [
    ['openai', OPENAI_ANSWER],
    ['anthropic', ANTHROPIC_BODY],
  ] as const) {
    it(`${protocol}: the wait for the first output and the generation after it are recorded apart, inside the response's latency`, async () => {
      const events = await runAgainst(reply, protocol);
      const request = events.find((e): e is ModelRequestEvent => e.type === 'model-request')!;
      const response = events.find((e): e is ModelResponseEvent => e.type === 'model-response')!;
      expect(response.text).toBe('The answer is 42.');
      expect(response.firstTokenMs).toBeDefined();
      const first = response.firstTokenMs!;
      // The role chunk, message_start, an empty block and a ping come at once but carry no output.
      expect(first).toBeGreaterThanOrEqual(WAIT_FIRST - 5);
      // The end cannot come before the server sent it.
      expect(response.latencyMs).toBeGreaterThanOrEqual(WAIT_FIRST + WAIT_REST - 5);
      // Apart: the first output is recorded as it arrives, long before the end. A loaded machine may hand this
      // process the first chunk late and the end on time (a CI run saw 288 ms of the 300 between them), so the
      // bound is half the server's pause: a first token recorded with the end would still fail it.
      expect(response.latencyMs - first).toBeGreaterThanOrEqual(WAIT_REST / 2);
      expect(first).toBeLessThan(response.latencyMs);
      // Both offsets are from the request, whose `t` the response follows by at least its latency.
      expect(response.t - request.t).toBeGreaterThanOrEqual(response.latencyMs - 1);
      expect(checkStepEvent(response).ok).toBe(true);
    });
  }

  it('a record from before first tokens were recorded still checks, and reads as unknown', () => {
    const old = {
      runId: 'r',
      seq: 2,
      t: 10,
      type: 'model-response',
      step: 1,
      usage: { prompt: 1, completion: 1 },
      latencyMs: 9,
      finishReason: 'stop',
      text: 'x',
      toolCalls: [],
    };
    const checked = checkStepEvent(old);
    expect(checked.ok).toBe(true);
    expect((old as Partial<ModelResponseEvent>).firstTokenMs).toBeUndefined();
    expect(checkStepEvent({ ...old, firstTokenMs: -1 }).ok).toBe(false);
  });
});

describe('calls inside a program', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await harness();
  });
  afterAll(() => h.close());

  it('each records its start from the program start, so they line up after one another', async () => {
    const began = performance.now();
    const result = await h.run('slow_tool(120);\nslow_tool(80);\necho("done");');
    const wall = performance.now() - began;
    expect(result.error).toBeNull();
    const [a, b, c] = result.toolCalls;
    expect([a.name, b.name, c.name]).toEqual(['slow_tool', 'slow_tool', 'echo']);
    expect(a.startMs).toBeGreaterThanOrEqual(0);
    expect(a.durationMs).toBeGreaterThanOrEqual(115);
    // The second starts after the first ended; the third after the second.
    expect(b.startMs!).toBeGreaterThanOrEqual(a.startMs! + a.durationMs - 2);
    expect(c.startMs!).toBeGreaterThanOrEqual(b.startMs! + b.durationMs - 2);
    // Offsets are from the program's start, which its run_code call's own span holds.
    expect(c.startMs! + c.durationMs).toBeLessThanOrEqual(wall + 1);
  });
});
