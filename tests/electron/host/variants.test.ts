/**
 * Variants through the host: columns keyed and labelled by what differs, recorded in meta.json, specs and
 * run-started; each run gets its own column's key (in its init message only, never in a worker's env); bad
 * columns and missing keys refused before any worker starts, naming the column.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { ComparisonRequest, RunSpec } from '../../../shared/run-spec.js';
import type { RunStartedEvent, StepEvent } from '../../../shared/step-event.js';
import { createHost, type Host } from '../../../electron/host/host.js';
import type { WorkerLauncher } from '../../../electron/host/launcher.js';
import { planRuns } from '../../../electron/host/prepare.js';
import { providerOf, requestedVariants } from '../../../electron/host/comparison-columns.js';
import { syntheticLauncher } from './session-helpers.js';

const hosts: Host[] = [];
const servers: Server[] = [];
afterEach(async () => {
  await Promise.all(hosts.splice(0).map((h) => h.close()));
  await Promise.all(servers.splice(0).map((s) => new Promise((r) => s.close(r))));
});

/** A synthetic worker per run that records what each worker was started with and sent. */
function recordingLauncher() {
  const inner = syntheticLauncher({}, ['--events', '6']);
  const inits: { spec: RunSpec; apiKey: string | null }[] = [];
  const envs: NodeJS.ProcessEnv[] = [];
  const launcher: WorkerLauncher = {
    launch(opts) {
      envs.push(opts.env);
      const handle = inner.launch(opts);
      const send = handle.send.bind(handle);
      return {
        ...handle,
        pid: handle.pid,
        send(m) {
          if (m.type === 'init') inits.push({ spec: m.spec, apiKey: m.apiKey });
          send(m);
        },
      };
    },
  };
  return { launcher, inits, envs };
}

/** An OpenAI-compatible stand-in that answers GET /models (the preflight) and nothing else. */
async function modelsServer(): Promise<string> {
  const server = createServer((_req, res) =>
    res
      .writeHead(200, { 'content-type': 'application/json' })
      .end('{"object":"list","data":[{"id":"m","object":"model"}]}'),
  );
  servers.push(server);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
}

async function makeHost(
  launcher: WorkerLauncher,
  env: NodeJS.ProcessEnv = process.env,
  caller: 'cli' | 'page' = 'cli',
) {
  const dataDir = await mkdtemp(join(tmpdir(), 'parallax-variants-'));
  const events: StepEvent[] = [];
  const host = createHost({
    dataDir,
    caller,
    env,
    launcher,
    onWarning: () => {},
    onEvents: (b) => events.push(...b),
    getApiKey: async (_info, keyEnv) => (keyEnv ? env[keyEnv]?.trim() || null : null),
  });
  hosts.push(host);
  return { host, dataDir, events };
}

const sim: ComparisonRequest['provider'] = { name: 'simulated', baseUrl: null, model: 'sim' };

describe('variants in the host', () => {
  it('plans runs by column key; a plain column keeps its mode as id and folder', () => {
    const runs = planRuns(
      'c1',
      [
        { key: 'code-1', mode: 'code' },
        { key: 'code', mode: 'code' },
      ],
      2,
    );
    expect(runs.map((r) => [r.runId, r.folder, r.column, r.trial])).toEqual([
      ['c1-code-1-t1', 'code-1-t1', 'code-1', 1],
      ['c1-code-t1', 'code-t1', 'code', 1],
      ['c1-code-1-t2', 'code-1-t2', 'code-1', 2],
      ['c1-code-t2', 'code-t2', 'code', 2],
    ]);
    expect(planRuns('c1', ['react', 'code'], 1).map((r) => r.runId)).toEqual(['c1-react', 'c1-code']);
  });

  it('records columns in meta.json, specs and run-started; each run its own settings', async () => {
    const { launcher, inits } = recordingLauncher();
    const { host, dataDir, events } = await makeHost(launcher);
    const meta = await host['comparison:start']({
      task: 'time-and-title',
      modes: [],
      provider: sim,
      trials: 2,
      variants: [{ mode: 'code', settings: { returnTypes: false } }, { mode: 'code' }],
    });
    await host.whenDone(meta.id);
    expect(meta.variants?.map((v) => [v.key, v.label])).toEqual([
      ['code-1', 'Code Mode · no return types'],
      ['code', 'Code Mode'],
    ]);
    expect(meta.runs.map((r) => [r.runId.slice(meta.id.length + 1), r.variant, r.trial])).toEqual([
      ['code-1-t1', 'code-1', 1],
      ['code-t1', 'code', 1],
      ['code-1-t2', 'code-1', 2],
      ['code-t2', 'code', 2],
    ]);
    const stored = JSON.parse(await readFile(join(dataDir, 'comparisons', meta.id, 'meta.json'), 'utf8'));
    expect(stored.variants).toEqual(meta.variants);
    expect(inits.map((i) => [i.spec.variant?.key, i.spec.settings.returnTypes]).sort()).toEqual([
      ['code', true],
      ['code', true],
      ['code-1', false],
      ['code-1', false],
    ]);
    const started = events.filter((e): e is RunStartedEvent => e.type === 'run-started');
    expect(started.map((e) => e.variant?.label).sort()).toEqual([
      'Code Mode',
      'Code Mode',
      'Code Mode · no return types',
      'Code Mode · no return types',
    ]);
    // Each run's own settings are recorded on its run-started.
    for (const e of started) expect(e.settings.returnTypes).toBe(e.variant?.key === 'code');
    // The history list names each run's column.
    const [item] = await host['history:list']();
    expect(item!.runs.map((r) => r.column?.label)).toEqual([
      'Code Mode · no return types',
      'Code Mode',
      'Code Mode · no return types',
      'Code Mode',
    ]);
  });

  it('a comparison of modes records no variants, as before', async () => {
    const { launcher, inits } = recordingLauncher();
    const { host } = await makeHost(launcher);
    const meta = await host['comparison:start']({ task: 'calc', modes: ['react', 'code'], provider: sim });
    await host.whenDone(meta.id);
    expect(meta.variants).toBeUndefined();
    expect(meta.runs).toEqual([
      { runId: `${meta.id}-react`, mode: 'react', trial: 1 },
      { runId: `${meta.id}-code`, mode: 'code', trial: 1 },
    ]);
    expect(inits.every((i) => i.spec.variant === undefined)).toBe(true);
  });

  it('two providers in one comparison: each run gets its own key, no worker env holds either', async () => {
    const [a, b] = [await modelsServer(), await modelsServer()];
    const env = { ...process.env, SERVER_A_KEY: 'key-for-server-a-123', SERVER_B_KEY: 'key-for-server-b-456' };
    const { launcher, inits, envs } = recordingLauncher();
    const { host } = await makeHost(launcher, env);
    const meta = await host['comparison:start']({
      task: 'calc',
      modes: [],
      provider: { name: 'custom', baseUrl: a, model: 'm', apiKeyEnv: 'SERVER_A_KEY' },
      variants: [{ mode: 'react' }, { mode: 'react', baseUrl: b, apiKeyEnv: 'SERVER_B_KEY', model: 'm2' }],
    });
    await host.whenDone(meta.id);
    const byUrl = Object.fromEntries(inits.map((i) => [i.spec.provider.baseUrl, i.apiKey]));
    expect(byUrl).toEqual({ [a]: 'key-for-server-a-123', [b]: 'key-for-server-b-456' });
    expect(meta.variants?.map((v) => v.label)).toEqual(['ReAct · m', 'ReAct · m2']);
    for (const i of inits) expect(JSON.stringify(i.spec)).not.toMatch(/key-for-server/);
    expect(envs.length).toBe(2);
    for (const e of envs) expect(JSON.stringify(e)).not.toMatch(/key-for-server|SERVER_[AB]_KEY/);
  });

  it('refuses bad columns before any worker starts, naming the column', async () => {
    const { launcher, inits, envs } = recordingLauncher();
    const { host } = await makeHost(launcher, { ...process.env, OPENAI_API_KEY: '' });
    const start = (variants: unknown, modes: ComparisonRequest['modes'] = []) =>
      host['comparison:start']({
        task: 'calc',
        modes,
        provider: sim,
        variants: variants as ComparisonRequest['variants'],
      });
    await expect(start([{ mode: 'code', settings: { maxSteps: 0 } }, { mode: 'code' }])).rejects.toThrow(
      /^Variant 1 \(Code Mode · max 0 steps\): .*maxSteps/,
    );
    await expect(start([{ mode: 'code' }, { mode: 'react', provider: 'openai' }])).rejects.toThrow(
      /^Variant 2 \(ReAct · gpt-4\.1-mini \(openai\)\): .*needs an API key.*OPENAI_API_KEY/,
    );
    await expect(start([{ mode: 'cod' }])).rejects.toThrow(/variants\.1\.mode/);
    // A misspelt key in a column's settings is refused, not run with the default.
    await expect(start([{ mode: 'code', settings: { maxStep: 1 } }, { mode: 'code' }])).rejects.toThrow(
      /^Variant 1 \(.*\): Invalid run settings — Unknown key in settings: "maxStep" \(did you mean "maxSteps"\?\)/,
    );
    await expect(start([{ mode: 'react', protocol: 'anthropic', provider: 'openai' }])).rejects.toThrow(
      /^Variant 1 .*protocol/,
    );
    await expect(start([{ mode: 'code' }, { mode: 'code' }])).rejects.toThrow(/same column/);
    await expect(start([{ mode: 'code', model: 'x' }], ['react'])).rejects.toThrow(
      /modes \(react\) and variants that run code/,
    );
    expect(inits.length + envs.length).toBe(0);
  });

  it('a page may not point a preset at another URL in a column, as for the comparison', async () => {
    const other = await modelsServer();
    const { launcher, envs } = recordingLauncher();
    const { host } = await makeHost(launcher, process.env, 'page');
    await expect(
      host['comparison:start']({
        task: 'calc',
        modes: [],
        provider: sim,
        variants: [{ mode: 'react' }, { mode: 'react', provider: 'openai', baseUrl: other }],
      }),
    ).rejects.toThrow(/^Variant 2 .*OpenAI key is only ever sent to https:\/\/api\.openai\.com\/v1/);
    await expect(
      host['comparison:start']({
        task: 'calc',
        modes: [],
        provider: sim,
        variants: [{ mode: 'react' }, { mode: 'react', baseUrl: other, provider: 'custom', apiKeyEnv: 'MY_KEY' }],
      }),
    ).rejects.toThrow(/^Variant 2 .*MY_KEY was not named in this app session/);
    expect(envs.length).toBe(0);
  });

  it("a column on another provider takes that provider's default model and none of the comparison's key variable", () => {
    const own = { name: 'custom', baseUrl: 'http://127.0.0.1:1/v1', model: 'm', apiKeyEnv: 'A_KEY' };
    expect(
      requestedVariants({ modes: [], provider: own, variants: [{ mode: 'react', provider: 'deepseek' }] })?.[0]?.model,
    ).toBe('deepseek-chat');
    expect(providerOf(own, { mode: 'react', provider: 'deepseek', model: 'deepseek-chat' })).toEqual({
      name: 'deepseek',
      baseUrl: null,
      model: 'deepseek-chat',
      apiKeyEnv: null,
    });
    expect(providerOf(own, { mode: 'react', model: 'm2' })).toEqual({ ...own, model: 'm2' });
  });
});
