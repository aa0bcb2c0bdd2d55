/**
 * Trials through the host with synthetic worker processes: rounds, one fixture copied per run, cancel of
 * the comparison or of one run between rounds, a crash that does not stop later rounds, bad trial counts.
 */
import { mkdtemp, readdir, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { MAX_TRIALS, type ComparisonRequest } from '../../../shared/run-spec.js';
import type { RunFinishedEvent, StepEvent } from '../../../shared/step-event.js';
import { createHost, type Host } from '../../../electron/host/host.js';
import type { WorkerLauncher } from '../../../electron/host/launcher.js';
import { syntheticLauncher, waitFor } from './session-helpers.js';

const hosts: Host[] = [];
afterEach(async () => {
  await Promise.all(hosts.splice(0).map((h) => h.close()));
});

/** A host whose launcher records when each run's worker was launched. */
async function trialHost(inner: WorkerLauncher) {
  const dataDir = await mkdtemp(join(tmpdir(), 'parallax-trials-'));
  const events: StepEvent[] = [];
  /** When the host saw each run's run-finished (the run has ended for it from then on, give or take the exit). */
  const finishedAt = new Map<string, number>();
  const launches: { name: string; at: number }[] = [];
  const host = createHost({
    dataDir,
    getApiKey: async () => null,
    onWarning: () => {},
    onEvents: (batch) => {
      events.push(...batch);
      for (const e of batch) if (e.type === 'run-finished') finishedAt.set(e.runId, Date.now());
    },
    launcher: { launch: (o) => (launches.push({ name: o.name, at: Date.now() }), inner.launch(o)) },
  });
  hosts.push(host);
  return { host, dataDir, events, finishedAt, launches };
}

const request = (trials: unknown, task = 'log-stats'): ComparisonRequest => ({
  task,
  modes: ['react', 'code'],
  trials: trials as number,
  provider: { name: 'simulated', baseUrl: null, model: 'sim' },
  concurrency: 1,
});

const finished = (events: readonly StepEvent[], runId: string) =>
  events.find((e): e is RunFinishedEvent => e.runId === runId && e.type === 'run-finished');

describe('trials', () => {
  it('run in rounds on copies of one fixture: round k+1 is launched only after every run of round k ended', async () => {
    const { host, dataDir, events, finishedAt, launches } = await trialHost(syntheticLauncher({}, ['--events', '60']));
    const meta = await host['comparison:start'](request(3));
    expect(meta.runs.map((r) => [r.mode, r.trial])).toEqual([
      ['react', 1],
      ['code', 1],
      ['react', 2],
      ['code', 2],
      ['react', 3],
      ['code', 3],
    ]);
    expect(new Set(meta.runs.map((r) => r.runId)).size).toBe(6);
    await host.whenDone(meta.id);

    expect(launches.map((l) => l.name)).toEqual(meta.runs.map((r) => r.runId));
    for (let round = 1; round < 3; round++) {
      const ended = Math.max(...meta.runs.filter((r) => r.trial === round).map((r) => finishedAt.get(r.runId)!));
      const next = launches.filter((l) => meta.runs.find((r) => r.runId === l.name)!.trial === round + 1);
      expect(next).toHaveLength(2);
      for (const l of next) expect(l.at).toBeGreaterThanOrEqual(ended);
    }
    for (const r of meta.runs) expect(finished(events, r.runId)?.status).toBe('answered');

    // One folder per run, named with its trial, each a copy of the same generated fixture.
    const ws = join(dataDir, 'comparisons', meta.id, 'workspaces');
    expect((await readdir(ws)).sort()).toEqual(['code-t1', 'code-t2', 'code-t3', 'react-t1', 'react-t2', 'react-t3']);
    const files = (await readdir(join(ws, 'react-t1'))).sort();
    expect(files.length).toBeGreaterThanOrEqual(5);
    for (const folder of ['code-t1', 'react-t3']) {
      expect((await readdir(join(ws, folder))).sort()).toEqual(files);
      for (const f of files)
        expect(await readFile(join(ws, folder, f), 'utf8')).toBe(await readFile(join(ws, 'react-t1', f), 'utf8'));
    }
    const [item] = await host['history:list']();
    expect(item.runs.map((r) => r.status)).toEqual(Array(6).fill('answered'));
  });

  it("starts round k+1 at round k's last run-finished, without waiting for its workers' teardown", async () => {
    // Every worker's exit is held back, as a slow process teardown would be, until round 2 has been launched (a
    // host that waited for the teardown never launches it: then a 30 s backstop lets the exits through, late).
    const exitsAt = new Map<string, number>();
    const inner = syntheticLauncher({}, ['--events', '20']);
    let releaseExits = (): void => {};
    const exitsHeld = new Promise<void>((resolve) => (releaseExits = resolve));
    const backstop = setTimeout(releaseExits, 30_000);
    let launchCount = 0;
    const slowExit: WorkerLauncher = {
      launch(o) {
        const handle = inner.launch(o);
        if (++launchCount === 4) releaseExits();
        return {
          ...handle,
          pid: handle.pid,
          onExit: (listener) =>
            handle.onExit((exit) => void exitsHeld.then(() => (exitsAt.set(o.name, Date.now()), listener(exit)))),
        };
      },
    };
    const { host, events, finishedAt, launches } = await trialHost(slowExit);
    const meta = await host['comparison:start'](request(2));
    await host.whenDone(meta.id);
    const [round1, round2] = [1, 2].map((k) => meta.runs.filter((r) => r.trial === k));
    const lastFinished = Math.max(...round1.map((r) => finishedAt.get(r.runId)!));
    const launched2 = launches.filter((l) => round2.some((r) => r.runId === l.name)).map((l) => l.at);
    expect(launched2).toHaveLength(2);
    for (const at of launched2) expect(at).toBeGreaterThanOrEqual(lastFinished);
    // Launched before round 1's exits were reported.
    const round1Exits = Math.min(...round1.map((r) => exitsAt.get(r.runId)!));
    for (const at of launched2) expect(at).toBeLessThanOrEqual(round1Exits);
    for (const r of meta.runs) expect(finished(events, r.runId)?.status).toBe('answered');
    await waitFor(() => exitsAt.size === 4, 30_000, 'every exit');
    clearTimeout(backstop);
  });

  it('cancel during round 1 records every listed run with a final status and starts no new worker', async () => {
    const { host, events, launches } = await trialHost(syntheticLauncher({}, ['--events', '4', '--then', 'hang']));
    const meta = await host['comparison:start'](request(3, 'calc'));
    await waitFor(
      () => meta.runs.slice(0, 2).every((r) => events.filter((e) => e.runId === r.runId).length >= 4),
      30_000,
      'round 1 to run',
    );
    // Not yet started runs count as live: history shows them as running, not as interrupted.
    expect((await host['history:list']())[0].runs.map((r) => r.status)).toEqual(Array(6).fill('running'));
    await host['comparison:cancel'](meta.id);
    await host.whenDone(meta.id);
    // A pause to prove something does NOT happen (no worker launched after the cancel): the host exposes no
    // state to wait on instead.
    await new Promise((r) => setTimeout(r, 300));
    expect(launches).toHaveLength(2);

    const stored = await host['history:open'](meta.id);
    expect(stored.interruptedRunIds).toEqual([]);
    for (const r of meta.runs) {
      const types = stored.events.filter((e) => e.runId === r.runId).map((e) => e.type);
      expect(types[0]).toBe('run-started');
      expect(types.at(-1)).toBe('run-finished');
      expect(finished(stored.events, r.runId)!.status).toBe('cancelled');
    }
    for (const r of meta.runs.slice(2)) {
      const fin = finished(stored.events, r.runId)!;
      expect(fin.error).toMatch(/before it started/);
      expect(fin.totals.steps).toBe(0);
    }
    expect((await host['history:list']())[0].runs.map((r) => r.status)).toEqual(Array(6).fill('cancelled'));
  });

  it('cancel of one run affects that run only, whether it runs or waits for its round', async () => {
    const { host, events, launches } = await trialHost(
      syntheticLauncher({ react: ['--events', '4', '--then', 'hang'], code: ['--events', '20'] }),
    );
    const meta = await host['comparison:start'](request(2, 'calc'));
    const [react1, code1, react2, code2] = meta.runs;
    await waitFor(
      () => finished(events, code1.runId) !== undefined && events.some((e) => e.runId === react1.runId && e.seq === 3),
      30_000,
      'round 1',
    );
    await host['run:cancel'](code2.runId); // waits for round 2
    await waitFor(() => finished(events, code2.runId) !== undefined, 30_000, 'the waiting run to be recorded');
    expect(finished(events, react1.runId)).toBeUndefined();
    expect(launches).toHaveLength(2);

    await host['run:cancel'](react1.runId);
    await waitFor(() => events.some((e) => e.runId === react2.runId && e.seq === 3), 30_000, 'round 2 to start');
    expect(launches.map((l) => l.name)).toEqual([react1.runId, code1.runId, react2.runId]);
    await host['run:cancel'](react2.runId);
    await host.whenDone(meta.id);
    expect(meta.runs.map((r) => finished(events, r.runId)!.status)).toEqual([
      'cancelled',
      'answered',
      'cancelled',
      'cancelled',
    ]);
  });

  it('a crash in round 1 does not stop the later rounds', async () => {
    const crash = syntheticLauncher({}, ['--events', '3', '--then', 'crash']);
    const ok = syntheticLauncher({}, ['--events', '10']);
    const { host, events, launches } = await trialHost({
      launch: (o) => (o.name.endsWith('-react-t1') ? crash : ok).launch(o),
    });
    const meta = await host['comparison:start'](request(2, 'calc'));
    await host.whenDone(meta.id);
    expect(launches).toHaveLength(4);
    expect(meta.runs.map((r) => finished(events, r.runId)!.status)).toEqual([
      'crashed',
      'answered',
      'answered',
      'answered',
    ]);
  });

  it("gives each run's spec its trial number, which the simulated model varies by", async () => {
    const ok = syntheticLauncher({}, ['--events', '4']);
    const sent = new Map<string, number | undefined>();
    const { host } = await trialHost({
      launch: (o) => {
        const handle = ok.launch(o);
        const send = handle.send.bind(handle);
        return Object.assign(Object.create(handle) as typeof handle, {
          send: (m: Parameters<typeof send>[0]) => (m.type === 'init' && sent.set(m.spec.runId, m.spec.trial), send(m)),
        });
      },
    });
    const meta = await host['comparison:start'](request(3, 'calc'));
    await host.whenDone(meta.id);
    expect(meta.runs.map((r) => sent.get(r.runId))).toEqual(meta.runs.map((r) => r.trial));
    expect(meta.runs.map((r) => r.trial)).toEqual([1, 1, 2, 2, 3, 3]);
  });

  it('refuses a trial count outside 1..MAX_TRIALS with the allowed range, before anything starts', async () => {
    const { host, launches } = await trialHost(syntheticLauncher({}));
    for (const bad of [0, MAX_TRIALS + 1, 2.5, '3', Number.NaN, -1]) {
      await expect(host['comparison:start'](request(bad, 'calc'))).rejects.toThrow(
        `Trials must be a whole number from 1 to ${MAX_TRIALS}`,
      );
    }
    expect(launches).toHaveLength(0);
    expect(await host['history:list']()).toEqual([]);
    // Absent means one trial, with the run ids and folders of a comparison without trials.
    const meta = await host['comparison:start']({ ...request(undefined, 'calc'), trials: undefined });
    expect(meta.runs).toEqual([
      { runId: `${meta.id}-react`, mode: 'react', trial: 1 },
      { runId: `${meta.id}-code`, mode: 'code', trial: 1 },
    ]);
    await host['comparison:cancel'](meta.id);
    await host.whenDone(meta.id);
  });
});
