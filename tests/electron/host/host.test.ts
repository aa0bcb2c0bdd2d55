import { SIM_MODEL_IDS } from '../../../shared/sim-models.js';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtemp, readdir, readFile, writeFile, mkdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { ComparisonRequest } from '../../../shared/run-spec.js';
import type { RunFinishedEvent, StepEvent } from '../../../shared/step-event.js';
import { createHost, type Host, type HostOptions } from '../../../electron/host/host.js';
import { memoryKeyStore } from '../../../electron/host/key-store.js';
import type { WorkerLauncher } from '../../../electron/host/launcher.js';
import { syntheticLauncher, waitFor } from './session-helpers.js';

const hosts: Host[] = [];
const servers: Server[] = [];
afterEach(async () => {
  await Promise.all(hosts.splice(0).map((h) => h.close()));
  await Promise.all(servers.splice(0).map((s) => new Promise((r) => s.close(r))));
});

async function makeHost(opts: Partial<HostOptions> & { launcher: WorkerLauncher }, dataDir?: string) {
  const dir = dataDir ?? (await mkdtemp(join(tmpdir(), 'parallax-host-')));
  const events: StepEvent[] = [];
  const batches: number[] = [];
  const keys = memoryKeyStore({});
  const host = createHost({
    dataDir: dir,
    getApiKey: keys.getApiKey,
    keys,
    onWarning: () => {},
    onEvents: (b) => (events.push(...b), batches.push(b.length)),
    ...opts,
  });
  hosts.push(host);
  return { host, dir, events, batches, keys };
}

const sim = (task = 'log-stats', modes: ComparisonRequest['modes'] = ['react', 'code']): ComparisonRequest => ({
  task,
  modes,
  provider: { name: 'simulated', baseUrl: null, model: 'sim' },
});

function countingLauncher(inner: WorkerLauncher) {
  const counter = { launched: 0 };
  const launcher: WorkerLauncher = { launch: (o) => (counter.launched++, inner.launch(o)) };
  return { launcher, counter };
}

async function httpServer(handler: Parameters<typeof createServer>[1]): Promise<string> {
  const server = createServer(handler);
  servers.push(server);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
}

describe('createHost', () => {
  it('refuses a provider that needs a key before any worker starts, and leaves no history behind', async () => {
    const { launcher, counter } = countingLauncher(syntheticLauncher({}));
    const { host, dir } = await makeHost({ launcher, caller: 'cli' });
    await expect(
      host['comparison:start']({
        task: 'calc',
        modes: ['react'],
        provider: { name: 'openai', baseUrl: null, model: 'gpt-4.1-mini' },
      }),
    ).rejects.toThrow(/needs an API key and none is set.*OPENAI_API_KEY/);
    await expect(host['comparison:start']({ ...sim(), modes: ['react', 'react'] })).rejects.toThrow(/listed twice/);
    await expect(host['comparison:start']({ ...sim(), modes: [] })).rejects.toThrow(/at least one mode/);
    await expect(host['comparison:start']({ ...sim(), settings: { maxSteps: 0 } })).rejects.toThrow(/maxSteps/);
    await expect(host['comparison:start']({ ...sim(), workspaceDir: join(dir, 'nope') })).rejects.toThrow(
      /does not exist/,
    );
    await expect(
      host['comparison:start']({
        task: 'calc',
        modes: ['react'],
        provider: { name: 'custom', baseUrl: 'ftp://x', model: 'm' },
      }),
    ).rejects.toThrow(/http:\/\/ or https:\/\//);
    expect(counter.launched).toBe(0);
    expect(await host['history:list']()).toEqual([]);
    expect(await readdir(join(dir, 'comparisons')).catch(() => [])).toEqual([]);
  });

  it('gives each run its own copy of a fixture generated once, and history survives a new host on the same folder', async () => {
    const { host, dir, events, batches } = await makeHost({ launcher: syntheticLauncher({}, ['--events', '500']) });
    const meta = await host['comparison:start'](sim());
    expect(meta.workspaceSource).toMatch(/^fixture:log-stats seed \d+$/);
    await host.whenDone(meta.id);
    const ws = join(dir, 'comparisons', meta.id, 'workspaces');
    const reactFiles = (await readdir(join(ws, 'react'))).sort();
    expect(reactFiles.filter((f) => f.endsWith('.txt')).length).toBeGreaterThanOrEqual(5);
    expect((await readdir(join(ws, 'code'))).sort()).toEqual(reactFiles);
    for (const f of reactFiles) {
      expect(await readFile(join(ws, 'code', f), 'utf8')).toBe(await readFile(join(ws, 'react', f), 'utf8'));
    }
    // Batched: far fewer deliveries than events, and each run's events arrive in seq order.
    expect(events).toHaveLength(1000);
    expect(batches.length).toBeLessThan(100);
    for (const r of meta.runs)
      expect(events.filter((e) => e.runId === r.runId).map((e) => e.seq)).toEqual([...Array(500).keys()]);
    await host.close();

    const { host: again } = await makeHost({ launcher: syntheticLauncher({}) }, dir);
    const stored = await again['history:open'](meta.id);
    expect(stored.meta).toEqual(meta);
    expect(stored.warnings).toEqual([]);
    expect(stored.events).toEqual(meta.runs.flatMap((r) => events.filter((e) => e.runId === r.runId)));
    const list = await again['history:list']();
    expect(list.map((c) => [c.meta.id, c.runs.map((r) => r.status)])).toEqual([[meta.id, ['answered', 'answered']]]);
    await again['history:delete'](meta.id);
    expect(await again['history:list']()).toEqual([]);
  });

  it('copies a user folder per run', async () => {
    const src = await mkdtemp(join(tmpdir(), 'parallax-src-'));
    await mkdir(join(src, 'sub'));
    await writeFile(join(src, 'sub', 'a.txt'), 'hello');
    const { host, dir } = await makeHost({ launcher: syntheticLauncher({}, ['--events', '3']), caller: 'cli' });
    const meta = await host['comparison:start']({ ...sim('free text task'), workspaceDir: src });
    expect(meta.task).toEqual({ id: null, text: 'free text task' });
    expect(meta.workspaceSource).toMatch(/^folder:/);
    await host.whenDone(meta.id);
    for (const mode of ['react', 'code']) {
      expect(await readFile(join(dir, 'comparisons', meta.id, 'workspaces', mode, 'sub', 'a.txt'), 'utf8')).toBe(
        'hello',
      );
    }
  });

  it('cancels one run, then the whole comparison; refuses to delete while running; close() ends what runs', async () => {
    const { host, events } = await makeHost({ launcher: syntheticLauncher({}, ['--events', '4', '--then', 'hang']) });
    const meta = await host['comparison:start'](sim('calc'));
    const [react, code] = meta.runs;
    await waitFor(() => events.filter((e) => e.runId === code.runId).length >= 4, 30_000, 'events');
    await host['run:cancel'](react.runId);
    await waitFor(
      () => events.some((e) => e.runId === react.runId && e.type === 'run-finished'),
      30_000,
      'react to end',
    );
    expect(events.some((e) => e.runId === code.runId && e.type === 'run-finished')).toBe(false);
    await expect(host['history:delete'](meta.id)).rejects.toThrow(/still running. Cancel it first/);
    expect((await host['history:list']())[0].runs.map((r) => r.status)).toEqual(['cancelled', 'running']);
    await host['comparison:cancel'](meta.id);
    await host.whenDone(meta.id);
    const statuses = meta.runs.map(
      (r) => (events.find((e) => e.runId === r.runId && e.type === 'run-finished') as RunFinishedEvent).status,
    );
    expect(statuses).toEqual(['cancelled', 'cancelled']);

    const second = await host['comparison:start'](sim('calc', ['code']));
    await waitFor(() => events.filter((e) => e.runId === second.runs[0].runId).length >= 4, 30_000, 'events');
    await host.close();
    const stored = await host['history:open'](second.id);
    expect((stored.events.at(-1) as RunFinishedEvent).status).toBe('cancelled');
    await expect(host['comparison:start'](sim())).rejects.toThrow(/shutting down/);
  });

  it('exports a report of a stored comparison as a download', async () => {
    const { host } = await makeHost({ launcher: syntheticLauncher({}, ['--events', '20']) });
    const meta = await host['comparison:start'](sim('calc'));
    await host.whenDone(meta.id);
    const result = await host['report:export'](meta.id, 'json');
    expect(result.status).toBe('download');
    if (result.status !== 'download') return;
    expect(result.mimeType).toMatch(/json/);
    expect(result.content).toContain(meta.id);
    await expect(host['report:export'](meta.id, 'pdf' as 'json')).rejects.toThrow(/Unknown report format/);
    await expect(host['report:export']('../x', 'json')).rejects.toThrow(/not a valid comparison id/);
  });

  it('checks providers: the simulated model, unknown model, unreachable, bad key, bad url', async () => {
    const { host, keys } = await makeHost({ launcher: syntheticLauncher({}) });
    const ok = await host['provider:test']({ name: 'simulated', baseUrl: null, model: 'sim' });
    expect(ok).toMatchObject({ ok: true, models: [...SIM_MODEL_IDS] });
    expect(await host['provider:test']({ name: 'simulated', baseUrl: null, model: 'gpt-9' })).toMatchObject({
      ok: false,
      reason: 'unknown-model',
    });
    expect(await host['provider:models']({ name: 'simulated', baseUrl: null, model: 'gpt-9' })).toMatchObject({
      ok: true,
      models: [...SIM_MODEL_IDS],
    });

    const closed = await httpServer(() => {});
    await new Promise((r) => servers.pop()!.close(r));
    expect(await host['provider:test']({ name: 'custom', baseUrl: closed, model: 'm' })).toMatchObject({
      ok: false,
      reason: 'unreachable',
    });

    let sawKey = '';
    const guarded = await httpServer((req, res) => {
      sawKey = req.headers.authorization ?? '';
      res.writeHead(401, { 'content-type': 'application/json' }).end('{"error":{"message":"bad key"}}');
    });
    await keys.set('custom', 'sk-wrong', guarded);
    expect(await host['provider:test']({ name: 'custom', baseUrl: guarded, model: 'm' })).toMatchObject({
      ok: false,
      reason: 'bad-key',
    });
    expect(sawKey).toBe('Bearer sk-wrong');

    const notApi = await httpServer((_req, res) => res.writeHead(404).end('no'));
    expect(await host['provider:test']({ name: 'custom', baseUrl: notApi, model: 'm' })).toMatchObject({
      ok: false,
      reason: 'bad-url',
    });
    expect(await host['provider:test']({ name: 'custom', baseUrl: 'not a url', model: 'm' })).toMatchObject({
      ok: false,
      reason: 'bad-url',
    });
    const webPage = await httpServer((_req, res) =>
      res.writeHead(200, { 'content-type': 'text/html' }).end('<html>a site</html>'),
    );
    expect(await host['provider:test']({ name: 'custom', baseUrl: webPage, model: 'm' })).toMatchObject({
      ok: false,
      reason: 'bad-url',
      detail: expect.stringMatching(/text\/html/),
    });
  });
});
