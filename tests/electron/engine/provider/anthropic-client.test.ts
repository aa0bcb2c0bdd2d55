/**
 * The Anthropic provider against a loopback replay of the Messages API's documented event stream: a run records
 * the calls and every usage figure exactly as sent, the conversation goes back in Messages API blocks (system
 * apart, tool_result with is_error, thinking with its signature), and failures are classified by cause.
 */
import { randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { parseSettings, type ProviderInfo, type RunSettingsInput } from '../../../../shared/run-spec.js';
import type { ModelPrice, ModelResponseEvent, StepEvent, ToolExposure } from '../../../../shared/step-event.js';
import { priceUsage } from '../../../../shared/cost.js';
import { runEngine } from '../../../../electron/engine/run-engine.js';
import {
  createChatClient,
  ModelRequestError,
  streamChat,
  type ClientOptions,
} from '../../../../electron/engine/provider/chat-client.js';
import { jsonReply, startReplayServer, type ReplayReply, type ReplayServer } from '../../../helpers/replay-server.js';
import {
  errorBody,
  event,
  messageStart,
  OVERLOADED_MID_STREAM,
  READ_FILE_FRAGMENTS,
  streamReply,
  THINKING_ANSWER_STREAM,
  TOOL_USE_STREAM,
} from '../../../helpers/anthropic-shapes.js';

const KEY = 'sk-ant-test-0123456789';
const TOOLS: ToolExposure[] = [
  {
    name: 'read_file',
    description: 'Read a file.',
    parameters: { type: 'object', properties: { path: { type: 'string' } } },
  },
];
const MESSAGES = [
  { role: 'system' as const, content: 'You are a test.' },
  { role: 'user' as const, content: 'Read notes/todo.txt.' },
];
// Generous: a test about a time bound sets its own; a loopback reply on a busy machine must not hit these.
const OPTS: ClientOptions = { timeoutMs: 30_000, idleTimeoutMs: 30_000, deadlineMs: 50_000, streamOptions: true };

const servers: ReplayServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

async function serve(replies: readonly ReplayReply[]): Promise<{ server: ReplayServer; provider: ProviderInfo }> {
  const server = await startReplayServer(replies);
  servers.push(server);
  return { server, provider: { name: 'anthropic', baseUrl: server.url, model: 'claude-sonnet-4-5', simulated: false } };
}

async function ask(replies: readonly ReplayReply[], opts: Partial<ClientOptions> = {}) {
  const { server, provider } = await serve(replies);
  const client = createChatClient(provider, KEY, { ...OPTS, ...opts });
  return {
    server,
    run: () =>
      streamChat(
        client,
        { model: provider.model, messages: MESSAGES, tools: TOOLS, temperature: null },
        new AbortController().signal,
      ),
  };
}

async function failure(p: Promise<unknown>): Promise<ModelRequestError> {
  const err = await p.then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(ModelRequestError);
  return err as ModelRequestError;
}

describe('streamChat on the Messages API: the documented stream', () => {
  it('folds text, ping and input_json_delta fragments split mid-token into the call, with usage, stop_reason and request id as sent', async () => {
    const { server, run } = await ask([TOOL_USE_STREAM]);
    const reply = await run();
    expect(reply.text).toBe('Let me read the notes.');
    expect(reply.toolCalls.map(({ id, name, arguments: a }) => ({ id, name, arguments: a }))).toEqual([
      { id: 'toolu_01A', name: 'read_file', arguments: READ_FILE_FRAGMENTS.join('') },
    ]);
    // prompt = input + cache reads + cache writes; cached = reads; cacheWrite = writes; completion from message_delta.
    expect(reply.usage).toEqual({ prompt: 21 + 0 + 1173, completion: 89, cached: 0, cacheWrite: 1173 });
    expect(reply.usageSource).toBe('reported');
    expect([reply.finishReason, reply.stopReason, reply.requestId]).toEqual([
      'tool_calls',
      'tool_use',
      'req_011replay',
    ]);

    const [req] = server.chatRequests();
    expect(req.path).toBe('/v1/messages');
    expect(req.headers['x-api-key']).toBe(KEY);
    expect(req.headers['anthropic-version']).toBe('2023-06-01');
    expect(req.headers.authorization).toBeUndefined();
    expect(req.body).toMatchObject({
      model: 'claude-sonnet-4-5',
      stream: true,
      max_tokens: expect.any(Number) as number,
      system: 'You are a test.',
      messages: [{ role: 'user', content: [{ type: 'text', text: 'Read notes/todo.txt.' }] }],
      tools: [{ name: 'read_file', description: 'Read a file.', input_schema: TOOLS[0].parameters }],
    });
    expect(req.raw).not.toContain('cache_control');
  });

  it('promptCache "on" marks the last tool and the system prompt; "conversation" also the last message', async () => {
    const on = await ask([THINKING_ANSWER_STREAM], { promptCache: 'on' });
    await on.run();
    const body = on.server.chatRequests()[0].body!;
    expect(body.system).toEqual([{ type: 'text', text: 'You are a test.', cache_control: { type: 'ephemeral' } }]);
    expect((body.tools as Record<string, unknown>[]).at(-1)).toMatchObject({ cache_control: { type: 'ephemeral' } });
    expect(JSON.stringify(body.messages)).not.toContain('cache_control');

    const conv = await ask([THINKING_ANSWER_STREAM], { promptCache: 'conversation' });
    await conv.run();
    expect(conv.server.chatRequests()[0].body!.messages).toEqual([
      { role: 'user', content: [{ type: 'text', text: 'Read notes/todo.txt.', cache_control: { type: 'ephemeral' } }] },
    ]);
  });

  it('a stop marker asked by a text-reading mode goes as stop_sequences', async () => {
    const { server, provider } = await serve([THINKING_ANSWER_STREAM]);
    const client = createChatClient(provider, KEY, OPTS);
    const req = { model: provider.model, messages: MESSAGES, tools: [], temperature: 0, stop: ['Observation:'] };
    await streamChat(client, req, new AbortController().signal);
    expect(server.chatRequests()[0].body).toMatchObject({ stop_sequences: ['Observation:'], temperature: 0 });
    expect(server.chatRequests()[0].body).not.toHaveProperty('tools');
  });

  it('message_delta completes message_start: its cumulative counts win, thinking_tokens is the reasoning figure', async () => {
    const { run } = await ask([THINKING_ANSWER_STREAM]);
    const reply = await run();
    expect(reply.usage).toEqual({
      prompt: 35 + 1173 + 66,
      completion: 41,
      cached: 1173,
      cacheWrite: 66,
      reasoning: 17,
    });
    expect(reply.reasoningText).toBe('The file lists three items.');
    expect([reply.finishReason, reply.stopReason]).toEqual(['stop', 'end_turn']);
  });
});

describe('streamChat on the Messages API: failures by cause', () => {
  it('an error event mid-stream is an overload, retried like a 5xx, and nothing of the partial reply is used', async () => {
    const { run } = await ask([OVERLOADED_MID_STREAM]);
    const err = await failure(run());
    expect([err.status, err.retryable, err.kind]).toEqual([529, true, 'server']);
    expect(err.message).toMatch(/overloaded_error.*Overloaded/);
  });

  it('a stream cut before message_stop is a broken stream, retried', async () => {
    const cut = streamReply(TOOL_USE_STREAM.body!.slice(0, 8) as string[]);
    const err = await failure((await ask([cut])).run());
    expect([err.retryable, err.kind]).toEqual([true, 'stream']);
    expect(err.message).toMatch(/before message_stop/);
  });

  const statuses: [string, ReplayReply, Partial<ModelRequestError>, RegExp][] = [
    [
      '529 overloaded',
      jsonReply(529, errorBody('overloaded_error', 'Overloaded')),
      { status: 529, retryable: true, kind: 'server' },
      /server error \(529: Overloaded \[overloaded_error\]\)/,
    ],
    [
      '429 with retry-after',
      jsonReply(
        429,
        errorBody('rate_limit_error', 'Number of request tokens has exceeded your per-minute rate limit'),
        { 'retry-after': '7' },
      ),
      { status: 429, retryable: true, kind: 'rate-limit', retryAfterS: 7 },
      /rate limiting/,
    ],
    [
      '401 bad key',
      jsonReply(401, errorBody('authentication_error', `invalid x-api-key ${KEY}`)),
      { status: 401, retryable: false, kind: 'key' },
      /rejected the API key.*Check the key you set for anthropic/,
    ],
    [
      '403 permission',
      jsonReply(
        403,
        errorBody('permission_error', 'Your API key does not have permission to use the specified resource.'),
      ),
      { status: 403, retryable: false, kind: 'access' },
      /refused access/,
    ],
    [
      '404 model',
      jsonReply(404, errorBody('not_found_error', 'model: claude-nope')),
      { status: 404, retryable: false, kind: 'model' },
      /does not know model/,
    ],
    [
      '400 context',
      jsonReply(400, errorBody('invalid_request_error', 'prompt is too long: 210000 tokens > 200000 maximum')),
      { status: 400, retryable: false, kind: 'context' },
      /context window/,
    ],
    [
      '400 credits',
      jsonReply(
        400,
        errorBody(
          'invalid_request_error',
          'Your credit balance is too low to access the Anthropic API. Please go to Plans & Billing to upgrade or purchase credits.',
        ),
      ),
      { status: 400, retryable: false, kind: 'credits' },
      /out of credits/,
    ],
  ];
  for (const [name, reply, expected, words] of statuses) {
    it(`${name}: ${expected.kind}, ${expected.retryable ? 'retried' : 'ends the run'}, with what to do and never the key`, async () => {
      const err = await failure((await ask([reply])).run());
      expect(err).toMatchObject(expected);
      expect(err.message).toMatch(words);
      expect(err.message).not.toContain(KEY);
    });
  }
});

describe('a run through the Anthropic provider against the replay', () => {
  let workspace = '';
  beforeAll(async () => {
    workspace = await mkdtemp(join(tmpdir(), 'parallax-anthropic-'));
  });
  afterAll(async () => {
    await rm(workspace, { recursive: true, force: true });
  });

  const PRICE: ModelPrice = {
    model: 'claude-sonnet-4-5',
    input: 3,
    cachedInput: 0.3,
    cacheWrite: 3.75,
    output: 15,
    tableDate: '2026-12-01',
  };
  /** Step 2: thinking, then two calls at once (their results go back as one user turn). */
  const THINK_AND_CALL = streamReply([
    event(
      messageStart({
        input_tokens: 60,
        cache_creation_input_tokens: 0,
        cache_read_input_tokens: 1173,
        output_tokens: 3,
      }),
    ),
    event({ type: 'content_block_start', index: 0, content_block: { type: 'thinking', thinking: '' } }),
    event({ type: 'content_block_delta', index: 0, delta: { type: 'thinking_delta', thinking: 'Try the folder.' } }),
    event({ type: 'content_block_delta', index: 0, delta: { type: 'signature_delta', signature: 'sig-step-2' } }),
    event({ type: 'content_block_stop', index: 0 }),
    event({
      type: 'content_block_start',
      index: 1,
      content_block: { type: 'tool_use', id: 'toolu_02A', name: 'list_dir', input: {} },
    }),
    event({
      type: 'content_block_delta',
      index: 1,
      delta: { type: 'input_json_delta', partial_json: '{"path": "."}' },
    }),
    event({ type: 'content_block_stop', index: 1 }),
    event({
      type: 'content_block_start',
      index: 2,
      content_block: { type: 'tool_use', id: 'toolu_02B', name: 'list_dir', input: {} },
    }),
    event({
      type: 'content_block_delta',
      index: 2,
      delta: { type: 'input_json_delta', partial_json: '{"path": "notes"}' },
    }),
    event({ type: 'content_block_stop', index: 2 }),
    event({
      type: 'message_delta',
      delta: { stop_reason: 'tool_use', stop_sequence: null },
      usage: { output_tokens: 57 },
    }),
    event({ type: 'message_stop' }),
  ]);

  async function run(replies: readonly ReplayReply[], settings: RunSettingsInput = {}) {
    const { server, provider } = await serve(replies);
    const events: StepEvent[] = [];
    await runEngine(
      {
        runId: randomUUID(),
        task: { id: null, text: 'How many items are in notes/todo.txt?' },
        mode: 'react',
        provider,
        apiKeyEnv: 'ANTHROPIC_API_KEY',
        settings: parseSettings({ maxRetries: 2, ...settings }),
        workspace,
        price: PRICE,
      },
      { apiKey: KEY, signal: new AbortController().signal, emit: (e) => events.push(e) },
      null,
    );
    return { server, events, responses: events.filter((e): e is ModelResponseEvent => e.type === 'model-response') };
  }

  it('records the calls and every usage figure exactly as sent, and prices cache writes at the cache-write rate', async () => {
    const { server, events, responses } = await run([TOOL_USE_STREAM, THINK_AND_CALL, THINKING_ANSWER_STREAM]);
    expect(responses.map((r) => r.usage)).toEqual([
      { prompt: 1194, completion: 89, cached: 0, cacheWrite: 1173 },
      { prompt: 1233, completion: 57, cached: 1173, cacheWrite: 0 },
      { prompt: 1274, completion: 41, cached: 1173, cacheWrite: 66, reasoning: 17 },
    ]);
    expect(responses.map((r) => [r.finishReason, r.stopReason, r.requestId, r.usageSource])).toEqual([
      ['tool_calls', 'tool_use', 'req_011replay', 'reported'],
      ['tool_calls', 'tool_use', 'req_011replay', 'reported'],
      ['stop', 'end_turn', 'req_011replay', 'reported'],
    ]);
    expect(responses.map((r) => r.toolCalls)).toEqual([
      [{ id: 'toolu_01A', name: 'read_file', arguments: READ_FILE_FRAGMENTS.join('') }],
      [
        { id: 'toolu_02A', name: 'list_dir', arguments: '{"path": "."}' },
        { id: 'toolu_02B', name: 'list_dir', arguments: '{"path": "notes"}' },
      ],
      [],
    ]);
    const finished = events.at(-1);
    expect(finished?.type === 'run-finished' && [finished.status, finished.answer]).toEqual([
      'answered',
      'The notes hold 3 items.',
    ]);
    expect(finished?.type === 'run-finished' && finished.totals).toMatchObject({
      prompt: 1194 + 1233 + 1274,
      completion: 89 + 57 + 41,
      cached: 2346,
      reasoning: 17,
    });
    // uncached input at $3, cache writes at $3.75, output at $15 per 1M.
    expect(priceUsage(responses[0].usage!, PRICE)).toBeCloseTo((21 * 3 + 1173 * 3.75 + 89 * 15) / 1e6, 12);

    const [, second, third] = server
      .chatRequests()
      .map((r) => r.body as { system: unknown; messages: { role: string; content: Record<string, unknown>[] }[] });
    // The failed read goes back as a tool_result with is_error; the assistant turn as the blocks that were sent.
    expect(second.system).toEqual(expect.any(String));
    expect(second.messages.slice(1)).toEqual([
      {
        role: 'assistant',
        content: [
          { type: 'text', text: 'Let me read the notes.' },
          { type: 'tool_use', id: 'toolu_01A', name: 'read_file', input: { path: 'notes/todo.txt' } },
        ],
      },
      {
        role: 'user',
        content: [
          {
            type: 'tool_result',
            tool_use_id: 'toolu_01A',
            content: expect.stringMatching(/^Error: /) as string,
            is_error: true,
          },
        ],
      },
    ]);
    // Thinking goes back with its signature; two results of one turn form one user turn, in call order.
    expect(third.messages.slice(3)).toEqual([
      {
        role: 'assistant',
        content: [
          { type: 'thinking', thinking: 'Try the folder.', signature: 'sig-step-2' },
          { type: 'tool_use', id: 'toolu_02A', name: 'list_dir', input: { path: '.' } },
          { type: 'tool_use', id: 'toolu_02B', name: 'list_dir', input: { path: 'notes' } },
        ],
      },
      {
        role: 'user',
        content: [
          { type: 'tool_result', tool_use_id: 'toolu_02A', content: expect.any(String) as string },
          { type: 'tool_result', tool_use_id: 'toolu_02B', content: expect.any(String) as string, is_error: true },
        ],
      },
    ]);
  });

  it('an error event mid-stream is a visible retry (status 529), then the step goes on', async () => {
    const { events, responses } = await run([OVERLOADED_MID_STREAM, THINKING_ANSWER_STREAM]);
    const retries = events.filter((e) => e.type === 'model-retry');
    expect(retries.map((e) => e.type === 'model-retry' && [e.step, e.status])).toEqual([[1, 529]]);
    expect(responses).toHaveLength(1);
    expect(responses[0].text).toBe('The notes hold 3 items.');
  });
});
