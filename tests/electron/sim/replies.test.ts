/**
 * The simulated model loads what answers a request (replies.ts: parsing, policies, the token counter and its
 * tokenizer) with its first request, not with the server: a comparison's host starts the server before its
 * workers' first requests, and the tokenizer would take the cores they load on. The counts stay exact.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';

const loaded = vi.hoisted(() => ({ counter: false, tokenizer: false }));
vi.mock('../../../electron/engine/tokens/count-tokens.js', async (original) => {
  loaded.counter = true;
  return original();
});
vi.mock('gpt-tokenizer/GptEncoding', async (original) => {
  loaded.tokenizer = true;
  return original();
});

import { startSimServer, type SimServer } from '../../../electron/sim/sim-server.js';

let sim: SimServer;
beforeAll(async () => {
  sim = await startSimServer();
});
afterAll(() => sim.close());

const request = {
  model: 'sim',
  messages: [
    { role: 'system', content: 'You are a careful agent.' },
    { role: 'user', content: 'How many lines of logs/app.log are errors?' },
  ],
  tools: [
    {
      type: 'function',
      function: { name: 'read_file', description: 'Read a file.', parameters: { type: 'object', properties: {} } },
    },
  ],
};

describe('the simulated model loads its replies with its first request', () => {
  it('starting and listing models load no counter; the first POST loads it and counts its usage exactly', async () => {
    expect(loaded).toEqual({ counter: false, tokenizer: false });
    const models = await fetch(`${sim.url}/models`);
    expect(models.status).toBe(200);
    expect(loaded, 'after GET /v1/models').toEqual({ counter: false, tokenizer: false });

    const res = await fetch(`${sim.url}/chat/completions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(request),
    });
    expect(res.status).toBe(200);
    const body = (await res.json()) as {
      usage: { prompt_tokens: number; completion_tokens: number };
      choices: {
        message: { content: string | null; tool_calls?: { function: { name: string; arguments: string } }[] };
      }[];
    };
    expect(loaded).toEqual({ counter: true, tokenizer: true });
    const { countCompletionTokens, countPromptTokens } =
      await import('../../../electron/engine/tokens/count-tokens.js');
    const reply = body.choices[0]!.message;
    expect(body.usage.prompt_tokens).toBe(countPromptTokens(request.messages, request.tools));
    expect(body.usage.completion_tokens).toBe(
      countCompletionTokens(
        reply.content ?? '',
        (reply.tool_calls ?? []).map((c) => c.function),
      ),
    );
  });

  it('a body it cannot parse still gets its 400 in the shape of the API asked, once the replies are loaded', async () => {
    const chat = await fetch(`${sim.url}/chat/completions`, { method: 'POST', body: '{"messages": []}' });
    expect(chat.status).toBe(400);
    expect(((await chat.json()) as { error: { param: string } }).error.param).toBe('messages');
    const messages = await fetch(`${sim.url}/messages`, { method: 'POST', body: '{"model": "sim"}' });
    expect(messages.status).toBe(400);
    expect(((await messages.json()) as { type: string }).type).toBe('error');
  });
});
