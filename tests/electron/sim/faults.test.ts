import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import OpenAI from 'openai';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { startSimServer, type SimServer } from '../../../electron/sim/index.js';
import { SLOW_REPLY_MS } from '../../../electron/sim/sim-server.js';
import { EXPLORE_PROGRAM, LOG_STATS_PROGRAM } from '../../../electron/sim/policies/log-stats.js';
import { prepareFixture } from '../../../electron/tasks/fixtures.js';
import { validateAnswer } from '../../../electron/tasks/index.js';
import { BUILTIN_TASKS } from '../../../shared/tasks.js';
import { drive, wireTools, closeSandbox } from './drive.js';

let sim: SimServer;
let workspace: string;
beforeAll(async () => {
  sim = await startSimServer();
  workspace = await mkdtemp(path.join(tmpdir(), 'parallax-sim-faults-'));
  await prepareFixture('log-stats', workspace);
});
afterAll(async () => {
  closeSandbox();
  await sim.close();
  await rm(workspace, { recursive: true, force: true });
});

const calc = BUILTIN_TASKS[3];
const logs = BUILTIN_TASKS[0];
const body = JSON.stringify({
  model: 'sim',
  messages: [{ role: 'user', content: calc.text }],
  tools: wireTools('react'),
});
const post = (headers: Record<string, string>, signal?: AbortSignal) =>
  fetch(`${sim.url}/chat/completions`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body,
    signal,
  });

describe('HTTP faults', () => {
  it("'429-once' refuses the first request of each run id with Retry-After, then answers", async () => {
    const h = { 'x-parallax-sim-faults': '429-once', 'x-parallax-run-id': 'run-a' };
    const first = await post(h);
    expect(first.status).toBe(429);
    expect(Number(first.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect((await first.json()).error).toMatchObject({ type: 'rate_limit_error', code: 'rate_limit_exceeded' });
    expect((await post(h)).status).toBe(200);
    expect((await post({ ...h, 'x-parallax-run-id': 'run-b' })).status).toBe(429);
    // The SDK's own retry honours the delay and then succeeds.
    const client = new OpenAI({
      baseURL: sim.url,
      apiKey: 'x',
      maxRetries: 1,
      defaultHeaders: { ...h, 'x-parallax-run-id': 'run-c' },
    });
    const res = await client.chat.completions.create({
      model: 'sim',
      messages: [{ role: 'user', content: calc.text }],
      tools: wireTools('react') as never,
    });
    expect(res.choices[0].message.tool_calls).toHaveLength(1);
  });

  it("'500' fails every request", async () => {
    for (let i = 0; i < 3; i++) {
      const res = await post({ 'x-parallax-sim-faults': '500', 'x-parallax-run-id': 'r500' });
      expect(res.status).toBe(500);
      expect((await res.json()).error.type).toBe('server_error');
    }
    const client = new OpenAI({
      baseURL: sim.url,
      apiKey: 'x',
      maxRetries: 0,
      defaultHeaders: { 'x-parallax-sim-faults': '500' },
    });
    await expect(
      client.chat.completions.create({ model: 'sim', messages: [{ role: 'user', content: 'hi' }] }),
    ).rejects.toMatchObject({ status: 500 });
  });

  it("'hang' never answers and forgets the request once the client gives up", async () => {
    const client = new OpenAI({
      baseURL: sim.url,
      apiKey: 'x',
      maxRetries: 0,
      timeout: 300,
      defaultHeaders: { 'x-parallax-sim-faults': 'hang' },
    });
    const started = Date.now();
    await expect(
      client.chat.completions.create({ model: 'sim', messages: [{ role: 'user', content: calc.text }], stream: true }),
    ).rejects.toThrow(/timed out/i);
    expect(Date.now() - started).toBeGreaterThanOrEqual(250);
    // The server hears the client's close a moment later (much later on a busy machine): wait for it, generously.
    for (const until = Date.now() + 30_000; sim.hangingRequests() > 0 && Date.now() < until; )
      await new Promise((r) => setTimeout(r, 20));
    expect(sim.hangingRequests()).toBe(0);
  });

  it("'slow' pauses before each reply and then answers exactly as without the fault", async () => {
    const started = Date.now();
    const slow = await post({ 'x-parallax-sim-faults': 'slow', 'x-parallax-run-id': 'r-slow' });
    expect(slow.status).toBe(200);
    const slowBody = await slow.json();
    expect(Date.now() - started).toBeGreaterThanOrEqual(SLOW_REPLY_MS - 5);
    const plain = await (await post({ 'x-parallax-run-id': 'r-plain' })).json();
    expect(slowBody.choices[0].message.tool_calls.map((c: { function: unknown }) => c.function)).toEqual(
      plain.choices[0].message.tool_calls.map((c: { function: unknown }) => c.function),
    );
    expect(slowBody.usage).toEqual(plain.usage);
  });

  it('applies server-wide faults from the option', async () => {
    const failing = await startSimServer({ faults: ['500'] });
    try {
      const res = await fetch(`${failing.url}/chat/completions`, {
        method: 'POST',
        body,
        headers: { 'content-type': 'application/json' },
      });
      expect(res.status).toBe(500);
    } finally {
      await failing.close();
    }
    await expect(startSimServer({ faults: ['nope' as never] })).rejects.toThrow(/Unknown simulated fault "nope"/);
  });
});

describe('reply faults: the first call is broken once, the policy reads the error and recovers', () => {
  it("'malformed-args' sends arguments that are not JSON, then the real call", async () => {
    const run = await drive({
      baseURL: sim.url,
      task: calc.text,
      mode: 'react',
      workspace,
      faults: ['malformed-args'],
    });
    expect(() => JSON.parse(run.steps[0].calls[0].function.arguments)).toThrow();
    expect(run.steps[0].results[0]).toMatch(/not valid JSON/);
    expect(run.steps[1].text).toMatch(/previous call failed \(Error: calculator: The arguments are not valid JSON/);
    expect(JSON.parse(run.steps[1].calls[0].function.arguments)).toEqual({ expression: '123 * 456 + 789' });
    expect(run.steps).toHaveLength(3);
    expect(await validateAnswer({ id: 'calc', text: calc.text }, run.answer, { workspace })).toMatchObject({
      ok: true,
    });
  });

  it("'unknown-tool' names a tool that does not exist, then the right one", async () => {
    const run = await drive({ baseURL: sim.url, task: logs.text, mode: 'react', workspace, faults: ['unknown-tool'] });
    expect(run.steps[0].calls[0].function.name).toBe('bash');
    expect(run.steps[0].results[0]).toMatch(/does not exist/);
    expect(run.steps[1].calls.map((c) => [c.function.name, JSON.parse(c.function.arguments)])).toEqual([
      ['run_shell', { command: 'wc -l *.txt' }],
    ]);
    expect(await validateAnswer({ id: 'log-stats', text: logs.text }, run.answer, { workspace })).toMatchObject({
      ok: true,
    });
  });

  it("'loop-forever' sends an endless program in Code Mode, then the real one after the timeout", async () => {
    // The limit is named here because the messages below quote it.
    const run = await drive({
      baseURL: sim.url,
      task: logs.text,
      mode: 'code',
      workspace,
      faults: ['loop-forever'],
      codeTimeoutMs: 3000,
    });
    expect(JSON.parse(run.steps[0].calls[0].function.arguments).code).toBe('while (true) {}');
    expect(run.steps[0].results[0]).toMatch(/time limit of 3000 ms exceeded/);
    expect(run.steps[1].text).toMatch(/^My previous call failed \(Error: time limit of 3000 ms exceeded/);
    // The broken program took the place of the first look; then the look, the counting program, the answer.
    expect(run.steps.map((s) => JSON.parse(s.calls[0]?.function.arguments ?? '{}').code)).toEqual([
      'while (true) {}',
      EXPLORE_PROGRAM,
      LOG_STATS_PROGRAM,
      undefined,
    ]);
    expect(await validateAnswer({ id: 'log-stats', text: logs.text }, run.answer, { workspace })).toMatchObject({
      ok: true,
    });
  });

  it('stacks several faults, one per reply, and still finishes', async () => {
    const run = await drive({
      baseURL: sim.url,
      task: calc.text,
      mode: 'code',
      workspace,
      faults: ['unknown-tool', 'malformed-args', 'loop-forever'],
    });
    expect(run.steps.map((s) => s.calls[0]?.function.name ?? 'answer')).toEqual([
      'run_python',
      'run_code',
      'run_code',
      'run_code',
      'answer',
    ]);
    expect(run.answer).toContain('56877');
  });
});
