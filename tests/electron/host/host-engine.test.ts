/**
 * The host with the real worker, the real engine and the simulated model: parallel modes, a fair start,
 * a worker killed mid-run, cancel of a hanging provider.
 */
import { readFile } from 'node:fs/promises';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { SimFault } from '../../../shared/run-spec.js';
import type { RunFinishedEvent, StepEvent } from '../../../shared/step-event.js';
import { computeTotals, groupByRun, summarizeRun } from '../../../shared/summary.js';
import { createHost, type Host } from '../../../electron/host/host.js';
import { parseRunLog } from '../../../electron/host/run-log-reader.js';
import { forkLauncher, type WorkerLauncher } from '../../../electron/host/launcher.js';
import type { RunTiming } from '../../../electron/host/run-session.js';
import { waitFor } from './session-helpers.js';

const hosts: Host[] = [];
afterEach(async () => {
  await Promise.all(hosts.splice(0).map((h) => h.close()));
});

/** The real fork launcher, with simulated faults added to one mode's spec as it is sent (a test seam). */
function faultFor(mode: string, faults: SimFault[]): WorkerLauncher {
  const real = forkLauncher();
  return {
    launch(opts) {
      const handle = real.launch(opts);
      const send = handle.send.bind(handle);
      return {
        ...handle,
        pid: handle.pid,
        send(m) {
          if (m.type === 'init' && m.spec.mode === mode)
            send({ ...m, spec: { ...m.spec, settings: { ...m.spec.settings, simFaults: faults } } });
          else send(m);
        },
      };
    },
  };
}

async function newHost(launcher?: WorkerLauncher, timing?: Partial<RunTiming>) {
  const dataDir = await mkdtemp(join(tmpdir(), 'parallax-engine-'));
  const events: StepEvent[] = [];
  const pids = new Map<string, number>();
  const base = launcher ?? forkLauncher();
  const host = createHost({
    dataDir,
    getApiKey: async () => null,
    onWarning: () => {},
    onEvents: (b) => events.push(...b),
    ...(timing ? { timing } : {}),
    launcher: {
      launch: (o) => {
        const h = base.launch(o);
        pids.set(o.name, h.pid!);
        return h;
      },
    },
  });
  hosts.push(host);
  return { host, events, pids, dataDir };
}

const finished = (events: StepEvent[], runId: string) =>
  events.find((e): e is RunFinishedEvent => e.runId === runId && e.type === 'run-finished');

describe('host + real engine + simulated model', () => {
  it('runs ReAct and Code Mode in parallel, both answer log-stats correctly, and their first requests land together', async () => {
    const { host, events } = await newHost();
    const meta = await host['comparison:start']({
      task: 'log-stats',
      modes: ['react', 'code'],
      provider: { name: 'simulated', baseUrl: null, model: 'sim' },
    });
    await host.whenDone(meta.id);
    const byRun = groupByRun(events);
    const [react, code] = meta.runs.map((r) => summarizeRun(byRun.get(r.runId) ?? []));
    for (const s of [react, code]) {
      expect(s.status, s.error ?? '').toBe('answered');
      expect(s.validation?.ok, s.validation?.detail).toBe(true);
    }
    expect(code.mode).toBe('code');
    // Parallel: each run's span overlaps the other's.
    const span = (runId: string) => {
      const evs = byRun.get(runId)!;
      const start = (evs[0] as { startedAt: number }).startedAt;
      return [start, start + evs[evs.length - 1].t];
    };
    const [a, b] = meta.runs.map((r) => span(r.runId));
    expect(a[0]).toBeLessThan(b[1]);
    expect(b[0]).toBeLessThan(a[1]);
    // A fair start: each run's first request went out before the other run had finished.
    expect(react.firstRequestAt!).toBeLessThan(b[1]);
    expect(code.firstRequestAt!).toBeLessThan(a[1]);
    // What was streamed is what is stored.
    expect((await host['history:open'](meta.id)).events).toEqual(meta.runs.flatMap((r) => byRun.get(r.runId)!));
  });

  it('kill -9 of one worker mid-run: that run is crashed with every received event on disk, the other answers', async () => {
    const { host, events, pids, dataDir } = await newHost(faultFor('react', ['hang']));
    const meta = await host['comparison:start']({
      task: 'log-stats',
      modes: ['react', 'code'],
      provider: { name: 'simulated', baseUrl: null, model: 'sim' },
    });
    const [react, code] = meta.runs;
    await waitFor(
      () => events.some((e) => e.runId === react.runId && e.type === 'model-request'),
      60_000,
      'the hanging request',
    );
    process.kill(pids.get(react.runId)!, 'SIGKILL');
    await host.whenDone(meta.id);

    const killed = events.filter((e) => e.runId === react.runId);
    const fin = finished(events, react.runId)!;
    expect(fin.status).toBe('crashed');
    expect(fin.error).toMatch(/ReAct worker process was killed by SIGKILL/);
    expect(fin.seq).toBe(killed.length - 1);
    expect(fin.totals).toEqual(computeTotals(killed));
    const file = join(dataDir, 'comparisons', meta.id, 'runs', `${react.runId}.jsonl`);
    expect(parseRunLog(await readFile(file, 'utf8'), react.runId, file).events).toEqual(killed);
    expect(finished(events, code.runId)).toMatchObject({ status: 'answered', validation: { ok: true } });
  });

  it('cancels a run whose provider hangs (the worker ends it itself), then the rest of the comparison', async () => {
    // A grace far past any busy machine's delay: the run can end only by the worker's own cancel.
    const { host, events } = await newHost(undefined, { cancelGraceMs: 30_000 });
    const meta = await host['comparison:start']({
      task: 'calc',
      modes: ['react', 'code'],
      provider: { name: 'simulated', baseUrl: null, model: 'sim' },
      settings: { simFaults: ['hang'] },
    });
    const [react, code] = meta.runs;
    await waitFor(
      () => meta.runs.every((r) => events.some((e) => e.runId === r.runId && e.type === 'model-request')),
      60_000,
      'both requests',
    );
    await host['run:cancel'](react.runId);
    await waitFor(() => finished(events, react.runId) !== undefined, 25_000, 'the cancelled run');
    expect(finished(events, react.runId)!.error ?? '').not.toMatch(/did not end its run/); // ended by itself, not stopped
    expect(finished(events, react.runId)!.status).toBe('cancelled');
    expect(finished(events, code.runId)).toBeUndefined();
    await host['comparison:cancel'](meta.id);
    await host.whenDone(meta.id);
    expect(finished(events, code.runId)!.status).toBe('cancelled');
    const list = await host['history:list']();
    expect(list[0].runs.map((r) => r.status)).toEqual(['cancelled', 'cancelled']);
  });
});
