/**
 * A hostile server against streamChat over loopback HTTP, both protocols: a flood of tool calls (each a call to
 * run, and each lookup walking the calls so far), a content block at an absurd index (an array billions long),
 * and counts no request could reach. Each is refused at once with words that name the server, or not believed.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { ProviderInfo } from '../../../../shared/run-spec.js';
import {
  createChatClient,
  ModelRequestError,
  streamChat,
  type ClientOptions,
} from '../../../../electron/engine/provider/chat-client.js';
import { MAX_CALLS_PER_REPLY } from '../../../../electron/engine/provider/reply-limits.js';
import { ToolCallAssembler } from '../../../../electron/engine/provider/tool-call-assembler.js';
import { usageFromRaw } from '../../../../electron/engine/provider/usage.js';
import { usageFromAnthropic } from '../../../../electron/engine/provider/anthropic-stream.js';
import { sse, startReplayServer, type ReplayReply, type ReplayServer } from '../../../helpers/replay-server.js';
import { event, messageStart, streamReply } from '../../../helpers/anthropic-shapes.js';
import { chunk, usageChunk } from '../../../helpers/wire-shapes.js';

const OPTS: ClientOptions = { timeoutMs: 10_000, idleTimeoutMs: 10_000, deadlineMs: 60_000, streamOptions: true };
const TOOLS = [
  {
    name: 'read_file',
    description: 'Read a file.',
    parameters: { type: 'object', properties: { path: { type: 'string' } } },
  },
];
const MESSAGES = [{ role: 'user' as const, content: 'Read a.txt.' }];
const servers: ReplayServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

async function ask(reply: ReplayReply, protocol: 'openai' | 'anthropic' = 'openai') {
  const server = await startReplayServer([reply]);
  servers.push(server);
  const provider: ProviderInfo = {
    name: 'custom',
    baseUrl: server.url,
    model: 'replay',
    simulated: false,
    ...(protocol === 'anthropic' ? { protocol } : {}),
  };
  const client = createChatClient(provider, 'sk-hostile', OPTS);
  return streamChat(
    client,
    { model: 'replay', messages: MESSAGES, tools: TOOLS, temperature: null },
    new AbortController().signal,
  );
}

async function refusal(p: Promise<unknown>): Promise<ModelRequestError> {
  const err = await p.then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(ModelRequestError);
  return err as ModelRequestError;
}

describe('a hostile server: floods and absurd figures', () => {
  it('20,000 tool calls in one chat-completions reply: refused at once, not retried, nothing run', async () => {
    const calls = Array.from({ length: 20_000 }, (_, i) =>
      chunk('c', 'm', {
        tool_calls: [
          {
            index: i,
            id: `call_${i}`,
            type: 'function',
            function: { name: 'read_file', arguments: '{"path":"a.txt"}' },
          },
        ],
      }),
    );
    const pushed = vi.spyOn(ToolCallAssembler.prototype, 'push');
    const err = await refusal(ask({ body: sse([...calls, chunk('c', 'm', {}, 'tool_calls')]) }));
    const looked = pushed.mock.calls.length;
    pushed.mockRestore();
    expect(err.message).toMatch(
      new RegExp(
        `^custom at http://127\\.0\\.0\\.1:\\d+/v1 sent more than ${MAX_CALLS_PER_REPLY} tool calls in one reply; .*none of its calls ran`,
      ),
    );
    expect(err.retryable).toBe(false);
    // Refused at the bound, not after folding every fragment (about 40 s before the bound existed): the fragment
    // past the bound was the last one looked at.
    expect(looked).toBe(MAX_CALLS_PER_REPLY + 1);
  });

  it('exactly the bound of calls is a reply like any other', async () => {
    const calls = Array.from({ length: MAX_CALLS_PER_REPLY }, (_, i) =>
      chunk('c', 'm', {
        tool_calls: [
          {
            index: i,
            id: `call_${i}`,
            type: 'function',
            function: { name: 'read_file', arguments: '{"path":"a.txt"}' },
          },
        ],
      }),
    );
    const reply = await ask({
      body: sse([
        ...calls,
        chunk('c', 'm', {}, 'tool_calls'),
        usageChunk('c', 'm', { prompt_tokens: 50, completion_tokens: 4000, total_tokens: 4050 }),
      ]),
    });
    expect(reply.toolCalls).toHaveLength(MAX_CALLS_PER_REPLY);
  });

  it('a Messages API content block at index 4,000,000,000: refused at once, naming the index', async () => {
    const err = await refusal(
      ask(
        streamReply([
          event(messageStart({ input_tokens: 5, output_tokens: 1 })),
          event({ type: 'content_block_start', index: 4_000_000_000, content_block: { type: 'text', text: '' } }),
          event({ type: 'content_block_delta', index: 4_000_000_000, delta: { type: 'text_delta', text: 'hi' } }),
          event({ type: 'message_delta', delta: { stop_reason: 'end_turn' }, usage: { output_tokens: 2 } }),
          event({ type: 'message_stop' }),
        ]),
        'anthropic',
      ),
    );
    expect(err.message).toMatch(
      /sent a content block at index 4000000000 \(blocks are numbered from 0, at most 1024 in one reply\); the reply was refused/,
    );
    expect(err.retryable).toBe(false);
  });

  it('300 tool_use blocks in one Messages API reply: refused like the chat-completions flood', async () => {
    const blocks = Array.from({ length: 300 }, (_, i) =>
      event({
        type: 'content_block_start',
        index: i,
        content_block: { type: 'tool_use', id: `toolu_${i}`, name: 'read_file', input: { path: 'a.txt' } },
      }),
    );
    const err = await refusal(
      ask(
        streamReply([
          event(messageStart({ input_tokens: 5, output_tokens: 1 })),
          ...blocks,
          event({ type: 'message_stop' }),
        ]),
        'anthropic',
      ),
    );
    expect(err.message).toMatch(/sent more than 256 tool calls in one reply/);
  });

  it('counts no request could reach, fractions and junk are not believed: the step is estimated', async () => {
    for (const prompt of [1e300, '99999999999999999999', 12.5, '-3', 'NaN', true, 2_000_000_000]) {
      expect(usageFromRaw({ prompt_tokens: prompt, completion_tokens: 5 }), String(prompt)).toBeNull();
      expect(usageFromAnthropic({ input_tokens: prompt, output_tokens: 5 }), String(prompt)).toBeNull();
    }
    // The largest believable figures, and a fractional cost (USD), still are.
    expect(usageFromRaw({ prompt_tokens: '1000000000', completion_tokens: 0, cost: 0.0125 })).toEqual({
      prompt: 1e9,
      completion: 0,
      cost: 0.0125,
    });
    // A cached or written figure past the bound is dropped alone; the counts stand.
    expect(
      usageFromRaw({ prompt_tokens: 100, completion_tokens: 5, prompt_tokens_details: { cached_tokens: 1e15 } }),
    ).toEqual({ prompt: 100, completion: 5 });
    const reply = await ask({
      body: sse([
        chunk('c', 'm', { role: 'assistant', content: 'Hi.' }),
        chunk('c', 'm', {}, 'stop'),
        usageChunk('c', 'm', { prompt_tokens: 1e300, completion_tokens: 3 }),
      ]),
    });
    expect(reply.usageSource).toBe('estimated');
    expect(reply.usage.prompt).toBeLessThan(1000);
  });
});
