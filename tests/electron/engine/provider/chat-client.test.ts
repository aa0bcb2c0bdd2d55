/**
 * streamChat against a loopback replay server: every recorded provider shape is folded into the calls and
 * usage it carries, broken replies end as classified errors, and stalls end at the configured times.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { ProviderInfo } from '../../../../shared/run-spec.js';
import type { ToolExposure } from '../../../../shared/step-event.js';
import {
  createChatClient,
  ModelRequestError,
  RequestCancelledError,
  streamChat,
  type ClientOptions,
} from '../../../../electron/engine/provider/chat-client.js';
import { countCompletionTokens, countPromptTokens } from '../../../../electron/engine/tokens/count-tokens.js';
import { jsonReply, startReplayServer, type ReplayReply, type ReplayServer } from '../../../helpers/replay-server.js';
import { WIRE_SHAPES } from '../../../helpers/wire-shapes.js';
import { FAILURE_SHAPES, STALL_SHAPES, STATUS_SHAPES } from '../../../helpers/wire-failures.js';

const servers: ReplayServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

const TOOLS: ToolExposure[] = [
  {
    name: 'read_file',
    description: 'Read a file.',
    parameters: { type: 'object', properties: { path: { type: 'string' } } },
  },
];
const MESSAGES = [
  { role: 'system' as const, content: 'You are a test.' },
  { role: 'user' as const, content: 'Read a.txt and b.txt.' },
];
// Generous: a test about a time bound sets its own; a loopback reply on a busy machine must not hit these.
const OPTS: ClientOptions = { timeoutMs: 30_000, idleTimeoutMs: 30_000, deadlineMs: 50_000, streamOptions: true };

async function serve(replies: readonly ReplayReply[]) {
  const server = await startReplayServer(replies);
  servers.push(server);
  const provider: ProviderInfo = { name: 'custom', baseUrl: server.url, model: 'replay', simulated: false };
  return { server, provider };
}

async function ask(replies: readonly ReplayReply[], opts: Partial<ClientOptions> = {}, key: string | null = null) {
  const { server, provider } = await serve(replies);
  const client = createChatClient(provider, key, { ...OPTS, ...opts });
  const run = () =>
    streamChat(
      client,
      { model: 'replay', messages: MESSAGES, tools: TOOLS, temperature: null },
      new AbortController().signal,
    );
  return { server, client, run };
}

async function failure(p: Promise<unknown>): Promise<ModelRequestError> {
  const err = await p.then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(ModelRequestError);
  return err as ModelRequestError;
}

describe('streamChat: recorded provider shapes', () => {
  for (const shape of WIRE_SHAPES) {
    it(`${shape.name}: records the calls and usage the provider sent (${shape.source})`, async () => {
      const { run } = await ask(shape.replies.slice(0, 1));
      const reply = await run();
      expect(reply.toolCalls.map(({ id, name, arguments: a }) => ({ id, name, arguments: a }))).toEqual(
        shape.expect.calls.map((c) => ({ ...c, id: typeof c.id === 'string' ? c.id : expect.stringMatching(c.id) })),
      );
      const usage = shape.expect.usage[0];
      if (usage === 'estimated') {
        expect(reply.usageSource).toBe('estimated');
        // Counted with the tokenizer from exactly what was sent and received.
        expect(reply.usage.prompt).toBe(
          countPromptTokens(MESSAGES, [
            {
              type: 'function',
              function: { name: 'read_file', description: 'Read a file.', parameters: TOOLS[0].parameters },
            },
          ]),
        );
        expect(reply.usage.completion).toBe(countCompletionTokens(reply.text, reply.toolCalls, reply.reasoningText));
      } else {
        expect(reply.usageSource).toBe('reported');
        expect(reply.usage).toEqual(usage);
      }
      if (shape.expect.reasoningText) expect(reply.reasoningText).toBe(shape.expect.reasoningText);
    });
  }

  it('sends stream_options by default and the exact request it estimates from', async () => {
    const { server, run } = await ask([WIRE_SHAPES.find((s) => s.name === 'lmstudio-no-usage')!.replies[0]]);
    await run();
    const body = server.chatRequests()[0].body!;
    expect(body.stream).toBe(true);
    expect(body.stream_options).toEqual({ include_usage: true });
    expect(body.messages).toEqual(MESSAGES);
  });

  it('leaves stream_options out when the client says so', async () => {
    const { server, run } = await ask([WIRE_SHAPES[0].replies[0]], { streamOptions: false });
    await run();
    expect(server.chatRequests()[0].body).not.toHaveProperty('stream_options');
  });
});

describe('streamChat: broken replies are errors, classified', () => {
  for (const f of FAILURE_SHAPES) {
    it(`${f.name}: ${f.retried ? 'a retryable' : 'an'} error (${f.source})`, async () => {
      const { run } = await ask(f.replies.slice(0, 1));
      const err = await failure(run());
      expect(err.message).toMatch(f.error);
      expect(err.retryable).toBe(f.retried);
    });
  }

  for (const s of STATUS_SHAPES) {
    it(`${s.name}: says what happened (${s.source})`, async () => {
      const { run } = await ask(s.replies.slice(0, 1));
      const err = await failure(run());
      if (!s.answers) expect(err.message).toMatch(s.error);
      if (s.not) expect(err.message).not.toMatch(s.not);
    });
  }

  it('names the cause: stream_options, tools, key, credits, context, rate limit with Retry-After', async () => {
    const kinds: [ReplayReply, string, boolean][] = [
      [STATUS_SHAPES.find((s) => s.name.includes('stream_options'))!.replies[0], 'stream-options', false],
      [STATUS_SHAPES.find((s) => s.name.includes('tools'))!.replies[0], 'tools', false],
      [STATUS_SHAPES.find((s) => s.name.includes('Gemini key'))!.replies[0], 'key', false],
      [STATUS_SHAPES.find((s) => s.name.includes('insufficient_quota'))!.replies[0], 'credits', false],
      [
        jsonReply(400, {
          error: {
            message:
              "This model's maximum context length is 8192 tokens. However, your messages resulted in 9001 tokens.",
            code: 'context_length_exceeded',
          },
        }),
        'context',
        false,
      ],
      [jsonReply(429, { error: { message: 'Slow down' } }, { 'retry-after': '7' }), 'rate-limit', true],
      [jsonReply(502, { error: { message: 'Bad gateway' } }), 'server', true],
    ];
    for (const [reply, kind, retryable] of kinds) {
      const { run } = await ask([reply]);
      const err = await failure(run());
      expect({ kind: err.kind, retryable: err.retryable }, err.message).toEqual({ kind, retryable });
      if (kind === 'rate-limit') expect(err.retryAfterS).toBe(7);
    }
  });

  it('a closed port is a network error naming the socket code', async () => {
    const { server, provider } = await serve([]);
    await server.close();
    const client = createChatClient(provider, null, OPTS);
    const err = await failure(
      streamChat(
        client,
        { model: 'm', messages: MESSAGES, tools: [], temperature: null },
        new AbortController().signal,
      ),
    );
    expect(err.message).toMatch(/ECONNREFUSED/);
    expect(err.retryable).toBe(true);
  });

  it('a socket reset mid-stream is a retryable error, not an answer', async () => {
    const { run } = await ask([
      {
        body: [WIRE_SHAPES[0].replies[0].body![0] as string, WIRE_SHAPES[0].replies[0].body![1] as string],
        end: 'reset',
      },
    ]);
    const err = await failure(run());
    expect(err.retryable).toBe(true);
  });

  it('never repeats the API key, even when the provider echoes it', async () => {
    const key = 'sk-live-9f8e7d6c5b4a39281706';
    const replay = await startReplayServer((req) =>
      jsonReply(401, { error: { message: `Bad key ${String(req.headers.authorization)}` } }),
    );
    servers.push(replay);
    const client = createChatClient({ name: 'custom', baseUrl: replay.url, model: 'm', simulated: false }, key, OPTS);
    const err = await failure(
      streamChat(
        client,
        { model: 'm', messages: MESSAGES, tools: [], temperature: null },
        new AbortController().signal,
      ),
    );
    expect(replay.requests[0].headers.authorization).toBe(`Bearer ${key}`);
    expect(err.message).toContain('Bad key Bearer ***');
    expect(err.message).not.toContain(key);
  });
});

describe('streamChat: time bounds', () => {
  it('a stall after the headers ends at the idle timeout, saying so', async () => {
    const { run } = await ask([STALL_SHAPES.stallAfterChunks], { idleTimeoutMs: 600, deadlineMs: 20_000 });
    const t0 = performance.now();
    const err = await failure(run());
    const ms = performance.now() - t0;
    expect(err.message).toMatch(/No data from .* for 0\.6 s after 2 chunks/);
    expect(err.retryable).toBe(true);
    expect(ms).toBeGreaterThanOrEqual(550);
    expect(err.message).not.toMatch(/deadline/); // the idle timer ended it, not the deadline
  });

  it('keep-alive comments do not count as data', async () => {
    const { run } = await ask([STALL_SHAPES.trickle], { idleTimeoutMs: 700, deadlineMs: 20_000 });
    const err = await failure(run());
    expect(err.message).toMatch(/for 0\.7 s after 0 chunks \(\d+ keep-alive comments? only\)/);
  });

  it('a stream that keeps dripping data ends at the deadline, which is not retried', async () => {
    const { run } = await ask([STALL_SHAPES.drip], { idleTimeoutMs: 2000, deadlineMs: 1200 });
    const t0 = performance.now();
    const err = await failure(run());
    expect(performance.now() - t0).toBeGreaterThanOrEqual(1150);
    expect(err.message).toMatch(/passed its 1\.2 s deadline after \d+ chunks/);
    expect(err.retryable).toBe(false);
  });

  it('cancelling stops a stalled request at once', async () => {
    const { server, provider } = await serve([STALL_SHAPES.stall]);
    void server;
    const client = createChatClient(provider, null, { ...OPTS, idleTimeoutMs: 60_000 });
    const ctl = new AbortController();
    const p = streamChat(client, { model: 'm', messages: MESSAGES, tools: [], temperature: null }, ctl.signal);
    setTimeout(() => ctl.abort(), 200);
    await expect(p).rejects.toBeInstanceOf(RequestCancelledError);
  });
});
