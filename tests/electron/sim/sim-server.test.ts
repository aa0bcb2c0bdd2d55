import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SIM_MODEL_IDS } from '../../../shared/sim-models.js';
import OpenAI from 'openai';
import { countTokens } from 'gpt-tokenizer/encoding/o200k_base';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { startSimServer, type SimServer } from '../../../electron/sim/index.js';
import { prepareFixture } from '../../../electron/tasks/fixtures.js';
import { BUILTIN_TASKS } from '../../../shared/tasks.js';
import { capturingClient, drive, wireTools, closeSandbox } from './drive.js';

let sim: SimServer;
let workspace: string;
beforeAll(async () => {
  sim = await startSimServer();
  workspace = await mkdtemp(path.join(tmpdir(), 'parallax-sim-wire-'));
  await prepareFixture('log-stats', workspace);
});
afterAll(async () => {
  closeSandbox();
  await sim.close();
  await rm(workspace, { recursive: true, force: true });
});

/** The documented formula, written again here from the request the test sent (not imported). */
function recountPrompt(body: Record<string, unknown>): number {
  const t = (s: string) => (s ? countTokens(s, { disallowedSpecial: new Set() }) : 0);
  let n = 3;
  for (const m of body.messages as Record<string, unknown>[]) {
    const content =
      typeof m.content === 'string'
        ? m.content
        : Array.isArray(m.content)
          ? m.content.map((p: { text?: string }) => p.text ?? '').join('')
          : '';
    n += 3 + t(m.role as string) + t(content);
    if (m.name) n += 1 + t(m.name as string);
    if (m.tool_call_id) n += t(m.tool_call_id as string);
    for (const c of (m.tool_calls ?? []) as { function: { name: string; arguments: string } }[])
      n += 3 + t(c.function.name) + t(c.function.arguments);
  }
  const tools = body.tools as unknown[] | undefined;
  if (tools?.length) n += t(JSON.stringify(tools));
  return n;
}

function recountCompletion(text: string, calls: { function: { name: string; arguments: string } }[]): number {
  const t = (s: string) => (s ? countTokens(s, { disallowedSpecial: new Set() }) : 0);
  return t(text) + calls.reduce((n, c) => n + 3 + t(c.function.name) + t(c.function.arguments), 0);
}

describe('OpenAI wire format', () => {
  it('lists the sim model and its personalities', async () => {
    const client = new OpenAI({ baseURL: sim.url, apiKey: 'x' });
    const models = await client.models.list();
    expect(models.data.map((m) => m.id)).toEqual(SIM_MODEL_IDS);
    expect((await client.models.retrieve('sim-hasty')).id).toBe('sim-hasty');
    expect(sim.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/v1$/);
  });

  it('streams a role chunk, tool-call fragments by index, a finish chunk and a final usage chunk', async () => {
    const raw = await fetch(`${sim.url}/chat/completions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        model: 'sim',
        stream: true,
        stream_options: { include_usage: true },
        tools: wireTools('react'),
        messages: [{ role: 'user', content: resolveTime() }],
      }),
    });
    expect(raw.headers.get('content-type')).toContain('text/event-stream');
    const events = (await raw.text()).split('\n\n').filter(Boolean);
    expect(events.at(-1)).toBe('data: [DONE]');
    const chunks = events.slice(0, -1).map((e) => JSON.parse(e.replace(/^data: /, '')));
    expect(chunks[0].choices[0].delta.role).toBe('assistant');
    for (const c of chunks)
      expect(c).toMatchObject({
        object: 'chat.completion.chunk',
        model: 'sim',
        system_fingerprint: 'parallax-simulated',
      });
    const fragments = chunks.flatMap((c) => c.choices[0]?.delta.tool_calls ?? []);
    expect(new Set(fragments.map((f: { index: number }) => f.index))).toEqual(new Set([0, 1]));
    // fetch_url's arguments (a long URL) arrive in more than one fragment.
    expect(
      fragments.filter(
        (f: { index: number; function?: { arguments?: string } }) => f.index === 1 && f.function?.arguments,
      ).length,
    ).toBeGreaterThan(1);
    expect(chunks.at(-2).choices[0].finish_reason).toBe('tool_calls');
    const last = chunks.at(-1);
    expect(last.choices).toEqual([]);
    expect(last.usage.total_tokens).toBe(last.usage.prompt_tokens + last.usage.completion_tokens);
    expect(chunks.slice(0, -1).every((c) => c.usage === null)).toBe(true);
  });

  it('counts usage from the request received and the reply sent, step by step', async () => {
    const run = await drive({ baseURL: sim.url, task: BUILTIN_TASKS[0].text, mode: 'react', workspace });
    expect(run.bodies).toHaveLength(run.steps.length);
    run.steps.forEach((step, i) => {
      expect(step.usage!.prompt_tokens).toBe(recountPrompt(run.bodies[i]));
      expect(step.usage!.completion_tokens).toBe(recountCompletion(step.text, step.calls));
    });
    // The tools array alone is a large, fixed part of the first request.
    expect(run.steps[0].usage!.prompt_tokens).toBeGreaterThan(countTokens(JSON.stringify(wireTools('react'))));
  });

  it('answers without streaming in the chat.completion shape, with the same counting', async () => {
    const bodies: Record<string, unknown>[] = [];
    const client = capturingClient(sim.url, bodies);
    const res = await client.chat.completions.create({
      model: 'anything',
      messages: [{ role: 'user', content: BUILTIN_TASKS[3].text }],
      tools: wireTools('react') as never,
    });
    expect(res.model).toBe('sim');
    expect(res.system_fingerprint).toBe('parallax-simulated');
    expect(res.choices[0].finish_reason).toBe('tool_calls');
    const call = res.choices[0].message.tool_calls![0] as { function: { name: string; arguments: string } };
    expect(call.function).toEqual({ name: 'calculator', arguments: JSON.stringify({ expression: '123 * 456 + 789' }) });
    expect(res.usage!.prompt_tokens).toBe(recountPrompt(bodies[0]));
    expect(res.usage!.completion_tokens).toBe(recountCompletion('', [call]));
  });

  it('counts content parts and special-token text as plain text', async () => {
    const bodies: Record<string, unknown>[] = [];
    const client = capturingClient(sim.url, bodies);
    const res = await client.chat.completions.create({
      model: 'sim',
      messages: [
        { role: 'system', content: 'be <|endoftext|> brief', name: 'setup' },
        { role: 'user', content: [{ type: 'text', text: 'Tell me a joke.' }] },
      ],
    });
    expect(res.usage!.prompt_tokens).toBe(recountPrompt(bodies[0]));
  });

  it('answers an unknown task plainly, naming the built-in tasks and how to use a real provider', async () => {
    const client = new OpenAI({ baseURL: sim.url, apiKey: 'x' });
    const res = await client.chat.completions.create({
      model: 'sim',
      messages: [{ role: 'user', content: 'Write a haiku about autumn.' }],
      tools: wireTools('react') as never,
    });
    const msg = res.choices[0].message;
    expect(msg.tool_calls ?? []).toEqual([]);
    expect(res.choices[0].finish_reason).toBe('stop');
    for (const t of BUILTIN_TASKS) expect(msg.content).toContain(t.id);
    expect(msg.content).toMatch(/simulated/);
    expect(msg.content).toMatch(/real OpenAI-compatible provider/);
  });

  it('rejects bad requests with 400 in the OpenAI error shape', async () => {
    const post = (body: string, headers: Record<string, string> = {}) =>
      fetch(`${sim.url}/chat/completions`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...headers },
        body,
      });
    const bad = await post('{"model": "sim", "messages": [');
    expect(bad.status).toBe(400);
    expect((await bad.json()).error).toMatchObject({ type: 'invalid_request_error', code: 'invalid_json' });
    const missing = await post('{"model": "sim"}');
    expect(missing.status).toBe(400);
    expect((await missing.json()).error.message).toMatch(/Missing required parameter: "messages"/);
    const role = await post('{"messages": [{"role": "robot", "content": "hi"}]}');
    expect((await role.json()).error.param).toBe('messages.0.role');
    const fault = await post('{"messages": [{"role": "user", "content": "hi"}]}', {
      'x-parallax-sim-faults': 'explode',
    });
    expect(fault.status).toBe(400);
    expect((await fault.json()).error.message).toMatch(
      /Unknown simulated fault "explode". Valid faults: 429-once, 500/,
    );
    const client = new OpenAI({ baseURL: sim.url, apiKey: 'x', maxRetries: 0 });
    await expect(client.chat.completions.create({ model: 'sim', messages: [] })).rejects.toThrow(
      /messages: must hold at least one message/,
    );
    const wrong = await fetch(`${sim.url.replace('/v1', '')}/v2/chat`);
    expect(wrong.status).toBe(404);
  });
});

function resolveTime(): string {
  return BUILTIN_TASKS[1].text.replace(
    '{{FIXTURE_URL}}',
    'http://127.0.0.1:9/a-rather-long/path/to/the/test/page.html',
  );
}
