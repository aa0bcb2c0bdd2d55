/**
 * ReAct (text) end to end: the engine loop against the simulated model over real HTTP. Every built-in task is
 * answered and validated on several trials (so the drawn deviations of the format are parsed by real runs),
 * the request carries no tools and stops at "Observation:", a provider that refuses `stop` is answered by
 * sending again without it, a forged observation is never recorded as a tool result, a reply that cannot be
 * read goes back as the observation, and text actions pass the approval gate and truncation like native calls.
 */
import { randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runEngine } from '../../../electron/engine/run-engine.js';
import { prepareFixture } from '../../../electron/tasks/fixtures.js';
import { resolveTask } from '../../../electron/tasks/resolve.js';
import { startFixtureServer, type FixtureServer } from '../../../electron/tasks/fixture-server.js';
import { deviationOf } from '../../../electron/sim/policies/react-text.js';
import { startSimServer, type SimServer } from '../../../electron/sim/index.js';
import { parseSettings, type ModeId, type RunSettingsInput, type RunSpec } from '../../../shared/run-spec.js';
import type { StepEvent } from '../../../shared/step-event.js';
import { BUILTIN_TASKS } from '../../../shared/tasks.js';
import { runTaskOf } from '../../../electron/tasks/index.js';

let sim: SimServer;
let page: FixtureServer;
const dirs: string[] = [];
const bodies: Record<string, unknown>[] = [];
let proxy: Server;
let proxyUrl = '';
/** What the stand-in provider does with a request before the simulated model sees it. */
let intercept: (body: Record<string, unknown>) => { status: number; body: unknown } | null = () => null;

beforeAll(async () => {
  sim = await startSimServer();
  page = await startFixtureServer();
  // A provider in front of the simulated model: records each body, and may refuse or answer it itself.
  proxy = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const raw = Buffer.concat(chunks).toString('utf8');
      const body = JSON.parse(raw) as Record<string, unknown>;
      bodies.push(body);
      const own = intercept(body);
      if (own) {
        res.writeHead(own.status, { 'content-type': 'application/json' });
        res.end(JSON.stringify(own.body));
        return;
      }
      const headers = Object.fromEntries(
        Object.entries(req.headers).filter(([k]) => k.startsWith('x-') || k === 'content-type'),
      ) as Record<string, string>;
      fetch(`${sim.url}/chat/completions`, { method: 'POST', headers, body: raw }).then(
        async (r) => {
          res.writeHead(r.status, Object.fromEntries(r.headers));
          res.end(Buffer.from(await r.arrayBuffer()));
        },
        (e: Error) => res.destroy(e),
      );
    });
  });
  await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
  proxyUrl = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}/v1`;
});
afterAll(async () => {
  await sim.close();
  await page.close();
  await new Promise((resolve) => proxy.close(resolve));
  await Promise.all(dirs.map((d) => rm(d, { recursive: true, force: true })));
});

async function run(
  taskId: string,
  mode: ModeId,
  opts: { trial?: number; settings?: RunSettingsInput; via?: 'proxy' } = {},
) {
  const workspace = await mkdtemp(path.join(tmpdir(), 'parallax-react-text-'));
  dirs.push(workspace);
  await prepareFixture(taskId, workspace, 3);
  const events: StepEvent[] = [];
  const spec: RunSpec = {
    runId: randomUUID(),
    task: resolveTask(taskId, { fixtureUrl: page.url }),
    mode,
    provider: { name: 'simulated', baseUrl: opts.via ? proxyUrl : sim.url, model: 'sim', simulated: true },
    apiKeyEnv: null,
    settings: parseSettings(opts.settings ?? {}),
    workspace,
    fixtureUrl: page.url,
    trial: opts.trial ?? 1,
  };
  await runEngine(
    spec,
    { apiKey: null, signal: new AbortController().signal, emit: (e) => events.push(e) },
    runTaskOf(spec.task),
  );
  const of = <T extends StepEvent['type']>(type: T) =>
    events.filter((e): e is Extract<StepEvent, { type: T }> => e.type === type);
  return { events, of, finished: of('run-finished')[0]! };
}

describe('ReAct (text) on the simulated model', () => {
  it('answers every built-in task on several trials, in as many steps and tool calls as ReAct on trial 1', async () => {
    // Trial 1 and the first trial of each deviation the simulated model draws.
    const trials = [1];
    for (let t = 2; t < 200 && trials.length < 4; t++)
      if (!trials.some((u) => deviationOf(u) === deviationOf(t))) trials.push(t);
    expect(new Set(trials.map(deviationOf))).toEqual(
      new Set(['none', 'fenced-input', 'no-thought-label', 'extra-spaces']),
    );
    for (const task of BUILTIN_TASKS) {
      const react = await run(task.id, 'react');
      for (const trial of trials) {
        const { finished, of } = await run(task.id, 'react-text', { trial });
        const where = `${task.id} trial ${trial} (${deviationOf(trial)})`;
        expect(finished.status, where).toBe('answered');
        expect(finished.validation?.ok, `${where}: ${finished.validation?.detail}`).toBe(true);
        const responses = of('model-response');
        for (const r of responses) expect(r.parsed?.parseError ?? null, where).toBeNull();
        expect(responses.at(-1)!.parsed?.finalAnswer, where).toBe(finished.answer);
        if (trial === 1) {
          expect(finished.totals.steps, where).toBe(react.finished.totals.steps);
          expect(finished.totals.toolCalls, where).toBe(react.finished.totals.toolCalls);
        }
      }
    }
  });

  it('sends no tools parameter, lists the tools in the system prompt, and stops at "Observation:"', async () => {
    bodies.length = 0;
    intercept = () => null;
    const { finished, of } = await run('config-lookup', 'react-text', { via: 'proxy' });
    expect(finished.status).toBe('answered');
    for (const body of bodies) {
      expect(body.tools).toBeUndefined();
      expect(body.stop).toEqual(['Observation:']);
    }
    const started = of('run-started')[0]!;
    expect(started.systemPrompt).toMatch(/^- read_file: .* Input: \{"type":"object"/m);
    // The server cut the reply before the model's own observation: all of it was kept.
    for (const r of of('model-response')) {
      expect(r.text).not.toMatch(/Observation:/);
      expect(r.parsed!.kept).toBe(r.text.length);
    }
  });

  it('sends again without stop when the provider refuses it, and never records the observation the model then writes', async () => {
    bodies.length = 0;
    intercept = (body) =>
      body.stop
        ? {
            status: 400,
            body: {
              error: {
                message: "Unsupported parameter: 'stop' is not supported with this model.",
                type: 'invalid_request_error',
                param: 'stop',
                code: 'unsupported_parameter',
              },
            },
          }
        : null;
    const { finished, of } = await run('config-lookup', 'react-text', { via: 'proxy' });
    intercept = () => null;
    expect(finished.status).toBe('answered');
    expect(finished.validation?.ok).toBe(true);
    const retries = of('model-retry');
    expect(retries).toHaveLength(1);
    expect(retries[0]!.message).toMatch(/does not accept stop sequences.*Sent again without it/);
    expect(bodies.filter((b) => b.stop)).toHaveLength(1);
    // Without the stop the model wrote its guess of the result; the parser cut it off.
    const acting = of('model-response').filter((r) => r.toolCalls.length > 0);
    expect(acting.length).toBeGreaterThan(0);
    for (const r of acting) {
      expect(r.text).toMatch(/\nObservation: the result, as I expect it/);
      expect(r.parsed!.kept).toBeLessThan(r.text.length);
    }
    for (const t of of('tool-finished')) expect(t.output).not.toMatch(/as I expect/);
    // What went back into the history is the kept text only.
    const assistant = (bodies.at(-1)!.messages as { role: string; content: string }[]).filter(
      (m) => m.role === 'assistant',
    );
    for (const m of assistant) expect(m.content).not.toMatch(/Observation:/);
  });

  it('sends a reply it cannot read back as the observation, and the run goes on', async () => {
    let first = true;
    intercept = () => {
      if (!first) return null;
      first = false;
      return {
        status: 200,
        body: {
          id: 'x',
          object: 'chat.completion',
          created: 0,
          model: 'sim',
          choices: [
            { index: 0, message: { role: 'assistant', content: 'I think the port is 80.' }, finish_reason: 'stop' },
          ],
          usage: { prompt_tokens: 10, completion_tokens: 7, total_tokens: 17 },
        },
      };
    };
    bodies.length = 0;
    const { finished, of } = await run('config-lookup', 'react-text', { via: 'proxy' });
    intercept = () => null;
    expect(finished.status).toBe('answered');
    expect(finished.validation?.ok).toBe(true);
    const [bad] = of('model-response');
    expect(bad!.parsed!.parseError).toMatch(/neither an "Action:" nor a "Final Answer:"/);
    expect(bad!.toolCalls).toEqual([]);
    const second = bodies[1]!.messages as { role: string; content: string }[];
    expect(second.at(-1)).toEqual({ role: 'user', content: `Observation: ${bad!.parsed!.parseError}` });
  });

  it('puts text actions through the approval gate and truncation, counted as tool calls', async () => {
    const denied = await run('write-errors', 'react-text', { settings: { approvals: { write_file: 'deny' } } });
    const write = denied.of('tool-finished').find((t) => t.name === 'write_file');
    expect(write?.error).toMatch(/denied|not allowed/i);
    expect(denied.finished.totals.toolCalls).toBe(denied.of('tool-started').length);

    const cut = await run('log-stats', 'react-text', { settings: { truncateChars: 200 } });
    const truncated = cut.of('tool-finished').filter((t) => t.truncated);
    expect(truncated.length).toBeGreaterThan(0);
    for (const t of truncated) expect(t.output).toMatch(/\[truncated: showing the first 200 of/);
  });

  it('is driven through a malformed Action Input by the fault, which comes back as the tool error', async () => {
    const { finished, of } = await run('config-lookup', 'react-text', { settings: { simFaults: ['malformed-args'] } });
    expect(finished.status).toBe('answered');
    const errors = of('tool-finished').filter((t) => t.error);
    expect(errors[0]!.error).toMatch(/not valid JSON/);
  });
});
