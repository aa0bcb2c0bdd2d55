import { randomUUID } from 'node:crypto';
import { mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseSettings, type ModeId, type RunSettingsInput, type RunSpec } from '../../../shared/run-spec.js';
import type { StepEvent } from '../../../shared/step-event.js';
import { computeTotals, summarizeRun } from '../../../shared/summary.js';
import { runEngine } from '../../../electron/engine/run-engine.js';
import { shellSandbox } from '../../../electron/engine/sandbox/shell-sandbox.js';
import { startSimServer, type SimServer } from '../../../electron/sim/index.js';
import { logStatsStyle } from '../../../electron/sim/policies/log-stats.js';
import { prepareFixture } from '../../../electron/tasks/fixtures.js';
import { resolveTask } from '../../../electron/tasks/resolve.js';
import { startErrorServer, startRecordingProxy } from '../../helpers/recording-proxy.js';
import { sse, startReplayServer } from '../../helpers/replay-server.js';
import { chunk, usageChunk } from '../../helpers/wire-shapes.js';
import { runTaskOf } from '../../../electron/tasks/index.js';

let sim: SimServer;
const dirs: string[] = [];

beforeAll(async () => {
  sim = await startSimServer();
});
afterAll(async () => {
  await sim.close();
  await Promise.all(dirs.map((d) => rm(d, { recursive: true, force: true })));
});

async function workspaceFor(taskId: string): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'parallax-engine-'));
  dirs.push(dir);
  await prepareFixture(taskId, dir);
  return dir;
}

async function run(opts: {
  task: string;
  mode?: ModeId;
  baseUrl?: string;
  settings?: RunSettingsInput;
  workspace?: string;
  signal?: AbortSignal;
  simulated?: boolean;
  trial?: number;
}) {
  const events: StepEvent[] = [];
  const spec: RunSpec = {
    runId: randomUUID(),
    task: resolveTask(opts.task, { fixtureUrl: null }),
    mode: opts.mode ?? 'react',
    provider: { name: 'simulated', baseUrl: opts.baseUrl ?? sim.url, model: 'sim', simulated: opts.simulated ?? true },
    apiKeyEnv: null,
    settings: parseSettings(opts.settings ?? {}),
    workspace: opts.workspace ?? (await workspaceFor(opts.task)),
    ...(opts.trial !== undefined ? { trial: opts.trial } : {}),
  };
  await runEngine(
    spec,
    { apiKey: null, signal: opts.signal ?? new AbortController().signal, emit: (e) => events.push(e) },
    runTaskOf(spec.task),
  );
  return { events, summary: summarizeRun(events) };
}

/** A trial whose ReAct policy lists and reads the files (trial 1 counts with the shell, as the seed's run did). */
const READING_TRIAL = Array.from({ length: 100 }, (_, i) => i + 1).find((t) => logStatsStyle(t).react === 'read')!;

const ofType = <T extends StepEvent['type']>(events: StepEvent[], type: T) =>
  events.filter((e): e is Extract<StepEvent, { type: T }> => e.type === type);

describe('runEngine with the simulated model over HTTP', () => {
  it('answers log-stats in ReAct mode with gap-free events and the usage the server sent', async () => {
    const proxy = await startRecordingProxy(sim.url);
    try {
      // A trial that reads the files: its step of parallel read_file calls is checked below.
      const { events, summary } = await run({ task: 'log-stats', baseUrl: proxy.url, trial: READING_TRIAL });
      expect(summary.status).toBe('answered');
      expect(summary.validation?.ok).toBe(true);
      expect(events.map((e) => e.seq)).toEqual(events.map((_, i) => i));
      expect(events[0].type).toBe('run-started');
      // The user sees how run_shell was contained in this run.
      expect(ofType(events, 'run-started')[0].shellSandbox).toEqual({
        kind: shellSandbox().kind,
        reason: shellSandbox().reason,
      });
      expect(events.at(-1)!.type).toBe('run-finished');
      // Every step's usage equals the usage chunk the server put on the wire, in order.
      const responses = ofType(events, 'model-response');
      expect(responses.length).toBe(proxy.replies.length);
      responses.forEach((r, i) => {
        expect(r.usage).toMatchObject({
          prompt: proxy.replies[i].usage!.prompt_tokens,
          completion: proxy.replies[i].usage!.completion_tokens,
        });
      });
      // Totals are the sums of the steps.
      const finished = events.at(-1) as Extract<StepEvent, { type: 'run-finished' }>;
      expect(finished.totals.prompt).toBe(proxy.replies.reduce((n, r) => n + r.usage!.prompt_tokens, 0));
      expect(finished.totals.completion).toBe(proxy.replies.reduce((n, r) => n + r.usage!.completion_tokens, 0));
      expect(finished.totals).toEqual(computeTotals(events));
      // Parallel calls: one step asked for several read_file calls, each got its own tool-finished event.
      const multi = responses.find((r) => r.toolCalls.length > 1)!;
      const finishedCalls = ofType(events, 'tool-finished').filter((t) => t.step === multi.step);
      expect(new Set(finishedCalls.map((t) => t.callId))).toEqual(new Set(multi.toolCalls.map((c) => c.id)));
    } finally {
      await proxy.close();
    }
  });

  it('truncates a long tool result with a visible marker and records the raw size', async () => {
    const { events } = await run({ task: 'log-stats', settings: { truncateChars: 500 } });
    const cut = ofType(events, 'tool-finished').filter((t) => t.truncated);
    expect(cut.length).toBeGreaterThan(0);
    for (const t of cut) {
      expect(t.rawSize).toBeGreaterThan(500);
      expect(t.output).toContain(`[truncated: showing the first 500 of ${t.rawSize} characters]`);
    }
  });

  it('tells the model about an unknown tool, listing the tools, and goes on', async () => {
    const { events, summary } = await run({ task: 'calc', settings: { simFaults: ['unknown-tool'] } });
    const failed = ofType(events, 'tool-finished').find((t) => t.error !== null)!;
    expect(failed.output).toMatch(
      /^Error: Tool "\w+" does not exist\. Available tools: list_dir, read_file, .*calculator/,
    );
    expect(summary.status).toBe('answered');
    expect(summary.validation?.ok).toBe(true);
  });

  it('tells the model its arguments were not valid JSON and goes on', async () => {
    const { events, summary } = await run({ task: 'weather-f', settings: { simFaults: ['malformed-args'] } });
    const started = ofType(events, 'tool-started')[0];
    expect(typeof started.args).toBe('string'); // the raw text is kept when it is not JSON
    const failed = ofType(events, 'tool-finished').find((t) => t.error !== null)!;
    expect(failed.error).toMatch(/not valid JSON .*Send one JSON object/);
    expect(summary.validation?.ok).toBe(true);
  });

  it('returns a tool that throws (a path escaping the workspace) as a message, never a crash', async () => {
    const workspace = await workspaceFor('log-stats');
    const outside = await mkdtemp(join(tmpdir(), 'parallax-outside-'));
    dirs.push(outside);
    await writeFile(join(outside, 'secret.txt'), 'ERROR secret\n');
    await symlink(join(outside, 'secret.txt'), join(workspace, 'zz-escape.txt'));
    const { events, summary } = await run({ task: 'log-stats', workspace, trial: READING_TRIAL });
    const refused = ofType(events, 'tool-finished').find((t) => t.error !== null && t.output.includes('zz-escape.txt'));
    expect(refused?.error).toMatch(/outside the workspace|leaves the workspace/i);
    expect(ofType(events, 'tool-finished').every((t) => !t.output.includes('ERROR secret'))).toBe(true);
    expect(['answered', 'max-steps']).toContain(summary.status);
  });

  it('retries a 429 after the delay the server asked for, visibly, then succeeds', async () => {
    const { events, summary } = await run({ task: 'calc', settings: { simFaults: ['429-once'] } });
    const retry = ofType(events, 'model-retry');
    expect(retry).toHaveLength(1);
    expect(retry[0]).toMatchObject({ step: 1, attempt: 1, status: 429 });
    expect(retry[0].delayMs).toBe(200);
    const requests = ofType(events, 'model-request').filter((r) => r.step === 1);
    expect(requests.map((r) => r.attempt)).toEqual([1, 2]);
    expect(summary.status).toBe('answered');
    expect(summary.totals.requests).toBe(summary.totals.steps + 1);
  });

  it('gives up on a provider that keeps failing after the configured retries, with the reason', async () => {
    const { events, summary } = await run({ task: 'calc', settings: { simFaults: ['500'], maxRetries: 1 } });
    expect(ofType(events, 'model-request')).toHaveLength(2);
    expect(summary.status).toBe('error');
    expect(summary.error).toMatch(/server error \(500.*Gave up after 2 attempts/);
  });

  it('ends the run on 401 with a message that says to check the key, without retrying', async () => {
    const server = await startErrorServer(401, 'Incorrect API key provided');
    try {
      const { summary, events } = await run({ task: 'calc', baseUrl: server.url, simulated: false });
      expect(summary.status).toBe('error');
      expect(summary.error).toMatch(/rejected the API key \(401.*Incorrect API key.*Check the key/);
      expect(server.hits()).toBe(1);
      expect(ofType(events, 'model-retry')).toHaveLength(0);
    } finally {
      await server.close();
    }
  });

  it('names the socket error when the provider cannot be reached', async () => {
    const closed = await startErrorServer(500, 'unused');
    const url = closed.url;
    await closed.close(); // nothing listens on this port any more
    const { summary } = await run({ task: 'calc', baseUrl: url, simulated: false, settings: { maxRetries: 0 } });
    expect(summary.status).toBe('error');
    expect(summary.error).toMatch(
      /Nothing is listening at 127\.0\.0\.1:\d+ \(ECONNREFUSED\)\. Check the base URL and that the server is running\. Gave up after 1 attempt\./,
    );
  });

  it('cancels a run whose provider hangs', async () => {
    const controller = new AbortController();
    const done = run({ task: 'calc', settings: { simFaults: ['hang'] }, signal: controller.signal });
    while (sim.hangingRequests() === 0) await new Promise((r) => setTimeout(r, 10));
    controller.abort();
    const { summary } = await done;
    expect(summary.status).toBe('cancelled');
  });

  it('marks a tool call stopped by a cancel as cancelled (its output never reached the model), and only that one', async () => {
    const controller = new AbortController();
    // The endless program holds run_code until its 60 s limit; the cancel lands as soon as the call starts,
    // while the sandbox thread may still be starting (a cancel then must not wait for the limit).
    const events: StepEvent[] = [];
    const spec: RunSpec = {
      runId: randomUUID(),
      task: resolveTask('calc', { fixtureUrl: null }),
      mode: 'code',
      provider: { name: 'simulated', baseUrl: sim.url, model: 'sim', simulated: true },
      apiKeyEnv: null,
      settings: parseSettings({ simFaults: ['loop-forever'], codeTimeoutMs: 60_000 }),
      workspace: await workspaceFor('calc'),
    };
    const done = runEngine(
      spec,
      { apiKey: null, signal: controller.signal, emit: (e) => events.push(e) },
      runTaskOf(spec.task),
    );
    while (!events.some((e) => e.type === 'tool-started')) await new Promise((r) => setTimeout(r, 10));
    controller.abort();
    await done;
    expect(summarizeRun(events).status).toBe('cancelled');
    const finished = ofType(events, 'tool-finished');
    expect(finished).toHaveLength(1);
    expect(finished[0]).toMatchObject({ name: 'run_code', cancelled: true });
    // No request followed the cancelled call: its output went nowhere.
    expect(ofType(events, 'model-request')).toHaveLength(1);

    // A call that finishes normally carries no cancelled mark.
    const normal = await run({ task: 'calc', mode: 'code' });
    expect(ofType(normal.events, 'tool-finished').every((e) => e.cancelled === undefined)).toBe(true);
  });

  it('stops at max steps with a message that says what to change', async () => {
    const { summary } = await run({ task: 'log-stats', settings: { maxSteps: 1 } });
    expect(summary.status).toBe('max-steps');
    expect(summary.totals.steps).toBe(1);
    expect(summary.error).toMatch(/Raise "max steps"/);
  });

  it('records a missing workspace as an error run, still starting and finishing it', async () => {
    const { events, summary } = await run({
      task: 'calc',
      workspace: join(tmpdir(), `parallax-missing-${randomUUID()}`),
    });
    expect(events.map((e) => e.type)).toEqual(['run-started', 'run-finished']);
    expect(summary.error).toMatch(/does not exist/);
  });

  it('runs Code Mode on log-stats in fewer steps and fewer prompt tokens than ReAct on the same fixture', async () => {
    const workspaceA = await workspaceFor('log-stats');
    const workspaceB = await workspaceFor('log-stats');
    const react = await run({ task: 'log-stats', mode: 'react', workspace: workspaceA });
    const code = await run({ task: 'log-stats', mode: 'code', workspace: workspaceB });
    expect(react.summary.validation?.ok).toBe(true);
    expect(code.summary.validation?.ok).toBe(true);
    expect(code.summary.totals.steps).toBeLessThan(react.summary.totals.steps);
    expect(code.summary.totals.prompt).toBeLessThan(react.summary.totals.prompt);
    expect(ofType(code.events, 'code-run').length).toBeGreaterThan(0);
  });
});

describe('runEngine with many calls in one reply', () => {
  it('24 calculator calls at once: every result recorded, and no listener-leak warning for the run', async () => {
    const usage = usageChunk('c', 'm', { prompt_tokens: 40, completion_tokens: 9, total_tokens: 49 });
    const calls = Array.from({ length: 24 }, (_, i) => ({
      index: i,
      id: `call_${i}`,
      type: 'function',
      function: { name: 'calculator', arguments: JSON.stringify({ expression: `${i} * 2` }) },
    }));
    const server = await startReplayServer([
      {
        body: sse([
          chunk('c', 'm', { role: 'assistant', tool_calls: calls }),
          chunk('c', 'm', {}, 'tool_calls'),
          usage,
        ]),
      },
      {
        body: sse([
          chunk('c', 'm', { role: 'assistant', content: 'All 24 are done.' }),
          chunk('c', 'm', {}, 'stop'),
          usage,
        ]),
      },
    ]);
    // The run's signal has a listener per call in flight (a queued calculation, a command waiting for its turn):
    // Node's default limit of 10 made every such reply print "Possible EventTarget memory leak detected".
    const warnings: Error[] = [];
    const onWarning = (w: Error) => warnings.push(w);
    process.on('warning', onWarning);
    try {
      const { events, summary } = await run({ task: 'calc', baseUrl: server.url, simulated: false });
      await new Promise((r) => setImmediate(r)); // warnings are emitted on a later tick
      expect(summary.status).toBe('answered');
      const results = ofType(events, 'tool-finished');
      expect(results.map((t) => t.callId).sort()).toEqual(calls.map((c) => c.id).sort());
      expect(results.every((t) => !t.error)).toBe(true);
      expect(warnings.filter((w) => w.name === 'MaxListenersExceededWarning').map((w) => w.message)).toEqual([]);
    } finally {
      process.off('warning', onWarning);
      await server.close();
    }
  });
});
