/**
 * The simulated model's Messages API: the same policies and the same count as its chat-completions endpoint,
 * split into input, cache reads and cache writes by a prompt cache that behaves as Anthropic documents it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSimServer, type SimServer } from '../../../electron/sim/index.js';
import {
  CACHE_TTL_MS,
  MIN_CACHE_TOKENS,
  parseMessagesRequest,
  PromptCache,
} from '../../../electron/sim/messages-api.js';
import { countPromptTokens } from '../../../electron/engine/tokens/count-tokens.js';
import { BUILTIN_TASKS } from '../../../shared/tasks.js';

let sim: SimServer;
beforeAll(async () => {
  sim = await startSimServer();
});
afterAll(async () => {
  await sim.close();
});

const TASK = BUILTIN_TASKS.find((t) => t.id === 'log-stats')!.text;
const tool = (name: string, words = 5) => ({
  name,
  description: `${name} ${'does a thing. '.repeat(words)}`,
  input_schema: { type: 'object', properties: { path: { type: 'string' } } },
});
const BIG_SYSTEM = `You are a careful agent. ${'Follow the rules. '.repeat(400)}`;

async function post(body: Record<string, unknown>): Promise<{ status: number; text: string }> {
  const res = await fetch(`${sim.url}/messages`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return { status: res.status, text: await res.text() };
}

function events(text: string): Record<string, unknown>[] {
  return text
    .split('\n\n')
    .filter(Boolean)
    .map((block) => {
      const [eventLine, dataLine] = block.split('\n');
      const data = JSON.parse(dataLine.slice('data: '.length)) as Record<string, unknown>;
      expect(eventLine).toBe(`event: ${String(data.type)}`);
      return data;
    });
}

describe('POST /v1/messages on the simulated model', () => {
  it("streams the documented event order; input + cache reads + cache writes equal the chat endpoint's prompt count", async () => {
    const body = {
      model: 'sim',
      max_tokens: 1024,
      stream: true,
      system: 'You are a test agent.',
      tools: [tool('list_dir'), tool('read_file')],
      messages: [{ role: 'user', content: TASK }],
    };
    const { status, text } = await post(body);
    expect(status).toBe(200);
    const evs = events(text);
    expect(evs[0].type).toBe('message_start');
    expect(evs.at(-2)?.type).toBe('message_delta');
    expect(evs.at(-1)?.type).toBe('message_stop');
    expect(
      evs.filter((e) => e.type === 'content_block_start').map((e) => (e.content_block as { type: string }).type),
    ).toContain('tool_use');
    const start = (evs[0].message as { usage: Record<string, number> }).usage;
    const chat = await fetch(`${sim.url}/chat/completions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        model: 'sim',
        messages: [
          { role: 'system', content: body.system },
          { role: 'user', content: TASK },
        ],
        tools: body.tools.map((t) => ({
          type: 'function',
          function: { name: t.name, description: t.description, parameters: t.input_schema },
        })),
      }),
    }).then((r) => r.json() as Promise<{ usage: { prompt_tokens: number; completion_tokens: number } }>);
    expect(start.input_tokens + start.cache_read_input_tokens + start.cache_creation_input_tokens).toBe(
      chat.usage.prompt_tokens,
    );
    expect((evs.at(-2)!.usage as { output_tokens: number }).output_tokens).toBe(chat.usage.completion_tokens);
  });

  it("answers a bad request in Anthropic's error shape, saying what to fix", async () => {
    const { status, text } = await post({ model: 'sim', messages: [{ role: 'user', content: 'hi' }] });
    expect(status).toBe(400);
    expect(JSON.parse(text)).toEqual({
      type: 'error',
      error: { type: 'invalid_request_error', message: expect.stringMatching(/max_tokens/) as string },
    });
    const orphan = await post({
      model: 'sim',
      max_tokens: 10,
      messages: [{ role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_x', content: 'ok' }] }],
    });
    expect(orphan.status).toBe(400);
    expect(orphan.text).toMatch(/toolu_x/);
  });
});

describe('translating a Messages API request for the policies', () => {
  it('a call whose arguments the client could not parse (sent back as {}) reads as the cut-off object it was, so the policy recovers', () => {
    const req = parseMessagesRequest(
      JSON.stringify({
        model: 'sim',
        max_tokens: 10,
        system: 'S',
        messages: [
          { role: 'user', content: 'T' },
          {
            role: 'assistant',
            content: [
              { type: 'tool_use', id: 'a', name: 'calculator', input: {} },
              { type: 'tool_use', id: 'b', name: 'calculator', input: { expression: '1+1' } },
            ],
          },
          {
            role: 'user',
            content: [
              {
                type: 'tool_result',
                tool_use_id: 'a',
                content: 'Error: calculator: The arguments are not valid JSON (Unexpected end).',
                is_error: true,
              },
              { type: 'tool_result', tool_use_id: 'b', content: [{ type: 'text', text: '2' }] },
            ],
          },
        ],
      }),
    );
    expect(req.messages).toEqual([
      { role: 'system', content: 'S' },
      { role: 'user', content: 'T' },
      {
        role: 'assistant',
        content: '',
        tool_calls: [
          { id: 'a', type: 'function', function: { name: 'calculator', arguments: '{' } },
          { id: 'b', type: 'function', function: { name: 'calculator', arguments: '{"expression":"1+1"}' } },
        ],
      },
      {
        role: 'tool',
        tool_call_id: 'a',
        content: 'Error: calculator: The arguments are not valid JSON (Unexpected end).',
      },
      { role: 'tool', tool_call_id: 'b', content: '2' },
    ]);
  });
});

describe('the prompt cache', () => {
  const request = (
    system: string,
    tools: ReturnType<typeof tool>[],
    marks: { tools?: boolean; system?: boolean; last?: boolean },
    turns = 0,
  ) => {
    const messages: unknown[] = [{ role: 'user', content: [{ type: 'text', text: TASK }] }];
    for (let i = 0; i < turns; i++) {
      messages.push({
        role: 'assistant',
        content: [{ type: 'tool_use', id: `t${i}`, name: 'read_file', input: { path: `f${i}.txt` } }],
      });
      messages.push({
        role: 'user',
        content: [{ type: 'tool_result', tool_use_id: `t${i}`, content: `contents ${i} `.repeat(200) }],
      });
    }
    if (marks.last) {
      const last = messages.at(-1) as { content: Record<string, unknown>[] };
      last.content[last.content.length - 1] = {
        ...last.content[last.content.length - 1],
        cache_control: { type: 'ephemeral' },
      };
    }
    return parseMessagesRequest(
      JSON.stringify({
        model: 'sim',
        max_tokens: 100,
        system: marks.system ? [{ type: 'text', text: system, cache_control: { type: 'ephemeral' } }] : system,
        tools: tools.map((t, i) =>
          marks.tools && i === tools.length - 1 ? { ...t, cache_control: { type: 'ephemeral' } } : t,
        ),
        messages,
      }),
    );
  };

  it('writes a long enough prefix once, reads it while it lives, and writes it again once it expired', () => {
    let now = 0;
    const cache = new PromptCache(() => now);
    const req = request(BIG_SYSTEM, [tool('read_file')], { tools: true, system: true });
    const prefix = countPromptTokens([{ role: 'system', content: BIG_SYSTEM }], req.tools) - 3;
    expect(prefix).toBeGreaterThanOrEqual(MIN_CACHE_TOKENS);
    expect(cache.use(req.cache)).toEqual({ read: 0, write: prefix });
    now += CACHE_TTL_MS - 1;
    expect(cache.use(req.cache)).toEqual({ read: prefix, write: 0 });
    // The read refreshed its lifetime.
    now += CACHE_TTL_MS - 1;
    expect(cache.use(req.cache)).toEqual({ read: prefix, write: 0 });
    now += CACHE_TTL_MS;
    expect(cache.use(req.cache)).toEqual({ read: 0, write: prefix });
  });

  it('never caches a prefix under the minimum, and caches nothing without cache_control', () => {
    const cache = new PromptCache(() => 0);
    const short = request('Short system prompt.', [tool('read_file')], { tools: true, system: true });
    expect(cache.use(short.cache)).toEqual({ read: 0, write: 0 });
    expect(cache.use(short.cache)).toEqual({ read: 0, write: 0 });
    const unmarked = request(BIG_SYSTEM, [tool('read_file')], {});
    expect(cache.use(unmarked.cache)).toEqual({ read: 0, write: 0 });
  });

  it('a tool added in front of the system prompt changes the prefix: nothing is read, all is written again', () => {
    const cache = new PromptCache(() => 0);
    const before = request(BIG_SYSTEM, [tool('search_tools')], { tools: true, system: true });
    cache.use(before.cache);
    const after = request(BIG_SYSTEM, [tool('search_tools'), tool('read_file')], { tools: true, system: true });
    const r = cache.use(after.cache);
    expect(r.read).toBe(0);
    expect(r.write).toBe(countPromptTokens([{ role: 'system', content: BIG_SYSTEM }], after.tools) - 3);
  });

  it("a conversation breakpoint reads the previous step's entry by looking back, and writes only what is new", () => {
    const cache = new PromptCache(() => 0);
    const step1 = request('Short.', [tool('read_file')], { tools: true, system: true, last: true }, 2);
    const first = cache.use(step1.cache);
    expect(first.read).toBe(0);
    expect(first.write).toBeGreaterThanOrEqual(MIN_CACHE_TOKENS);
    const step2 = request('Short.', [tool('read_file')], { tools: true, system: true, last: true }, 3);
    const second = cache.use(step2.cache);
    expect(second.read).toBe(first.write);
    const whole = countPromptTokens(step2.messages, step2.tools) - 3;
    expect(second.read + second.write).toBe(whole);
  });
});
