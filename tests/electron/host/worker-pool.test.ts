/**
 * The warm pool with real worker processes: Run takes loaded workers and still releases the round together;
 * trials run on workers loaded during the round before; a worker that dies while idle is replaced and never
 * handed out; idle workers are reaped; workers for another environment are not used.
 */
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { WorkerProgram } from '../../../shared/modes.js';
import type { StepEvent } from '../../../shared/step-event.js';
import { createHost, type Host, type HostOptions } from '../../../electron/host/host.js';
import { forkLauncher, type WorkerHandle, type WorkerLauncher } from '../../../electron/host/launcher.js';
import { WorkerPool } from '../../../electron/host/worker-pool.js';
import { waitFor } from './session-helpers.js';

const SIM = { name: 'simulated', baseUrl: null, model: 'sim' } as const;
const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0)) await c();
});

const alive = (pid: number | undefined): boolean => {
  if (pid === undefined) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

/**
 * A launcher that records every worker it starts, when, which run each was given (from its init message), how
 * many have exited, every message sent to each, and, in order, each worker's `ready` and each `go` sent to it.
 */
function recordingLauncher(inner: WorkerLauncher = forkLauncher()) {
  const launched: { pid: number | undefined; name: string; at: number; handle: WorkerHandle }[] = [];
  const runOf = new Map<number, string>();
  const order: { what: 'ready' | 'go'; pid: number | undefined }[] = [];
  const exits = { count: 0 };
  const sent: { pid: number | undefined; type: string }[] = [];
  const launcher: WorkerLauncher = {
    launch(options) {
      const handle = inner.launch(options);
      launched.push({ pid: handle.pid, name: options.name, at: Date.now(), handle });
      handle.onMessage((m) => m.type === 'ready' && order.push({ what: 'ready', pid: handle.pid }));
      handle.onExit(() => exits.count++);
      const send = handle.send.bind(handle);
      return {
        ...handle,
        pid: handle.pid,
        onMessage: handle.onMessage.bind(handle),
        onExit: handle.onExit.bind(handle),
        kill: handle.kill.bind(handle),
        send(message) {
          sent.push({ pid: handle.pid, type: message.type });
          if (message.type === 'init' && handle.pid !== undefined) runOf.set(handle.pid, message.spec.runId);
          if (message.type === 'go') order.push({ what: 'go', pid: handle.pid });
          send(message);
        },
      };
    },
  };
  return { launcher, launched, runOf, order, exits, sent };
}

async function pooledHost(launcher: WorkerLauncher, pool: HostOptions['pool']) {
  const dataDir = await mkdtemp(join(tmpdir(), 'parallax-pool-'));
  const events: StepEvent[] = [];
  const host: Host = createHost({
    dataDir,
    launcher,
    pool,
    getApiKey: async () => null,
    onWarning: () => {},
    onEvents: (b) => void events.push(...b),
  });
  cleanups.push(() => host.close());
  return { host, events };
}

describe('the warm pool', () => {
  it('a standing pool tells its workers to preload (the compute thread tool search needs), a one-off warm-up does not; a tool-search run from it answers', async () => {
    const standing = recordingLauncher();
    const { host, events } = await pooledHost(standing.launcher, { keepWarm: true, size: 2 });
    await host.warmPool(2);
    expect(
      standing.sent
        .filter((m) => m.type === 'preload')
        .map((m) => m.pid)
        .sort(),
    ).toEqual(standing.launched.map((l) => l.pid).sort());
    const meta = await host['comparison:start']({
      task: 'tool-catalog',
      modes: ['react-search', 'react'],
      provider: SIM,
    });
    await host.whenDone(meta.id);
    for (const r of meta.runs) {
      const finished = events.find((e) => e.runId === r.runId && e.type === 'run-finished');
      expect(finished?.type === 'run-finished' && finished.status, r.mode).toBe('answered');
    }
    expect(events.some((e) => e.type === 'tool-search')).toBe(true);

    const oneOff = recordingLauncher();
    const pool = new WorkerPool(oneOff.launcher, process.env);
    cleanups.push(() => pool.close());
    await pool.warm(2, false);
    expect(oneOff.launched).toHaveLength(2);
    expect(oneOff.sent.filter((m) => m.type === 'preload')).toEqual([]);
  });

  it('serves Run from workers loaded before it, releases them together, and refills for the next comparison', async () => {
    const rec = recordingLauncher();
    const { host, events } = await pooledHost(rec.launcher, { keepWarm: true, size: 2 });
    await host['app:ready'](); // the page is shown: the pool starts loading
    await waitFor(() => rec.launched.length === 2);
    await host.warmPool(2);
    const pooled = rec.launched.map((l) => l.pid);
    const meta = await host['comparison:start']({ task: 'log-stats', modes: ['react', 'code'], provider: SIM });
    expect(rec.launched).toHaveLength(2); // no fresh worker for this Run
    await host.whenDone(meta.id);
    expect(meta.runs.map((r) => [...rec.runOf].find(([, id]) => id === r.runId)?.[0])).toEqual(
      expect.arrayContaining(pooled),
    );
    for (const r of meta.runs) {
      const finished = events.find((e) => e.runId === r.runId && e.type === 'run-finished');
      expect(finished?.type === 'run-finished' && finished.status).toBe('answered');
    }
    // Each worker's start-up is on its run: loaded before Run (the pool's head start), never reported as zero.
    for (const r of meta.runs) {
      const started = events.find((e) => e.runId === r.runId && e.type === 'run-started');
      const finished = events.find((e) => e.runId === r.runId && e.type === 'run-finished');
      const start = started?.type === 'run-started' ? started.workerStart : undefined;
      expect(start?.pooled).toBe(true);
      expect(start!.beforeRunMs).toBeGreaterThan(0);
      expect(start!.ms).toBeGreaterThanOrEqual(start!.beforeRunMs);
      expect(finished?.type === 'run-finished' && finished.totals.startupMs).toBe(start!.ms);
    }
    // Released together: no worker was told to go before both were ready, and the two gos went out back to back.
    expect(rec.order.map((o) => o.what)).toEqual(['ready', 'ready', 'go', 'go']);
    expect(new Set(rec.order.map((o) => o.pid))).toEqual(new Set(pooled));
    // Refilled for the next Run, with workers that have not been given a run.
    await waitFor(() => rec.launched.length === 4, 30_000);
    const refill = rec.launched.slice(2).map((l) => l.pid!);
    expect(refill.every((pid) => !rec.runOf.has(pid) && alive(pid))).toBe(true);
    await host.close();
    await waitFor(() => refill.every((pid) => !alive(pid)), 60_000);
  });

  it('takes a pool made and warmed before the host (the CLI forks first), and closes it with the host', async () => {
    const rec = recordingLauncher();
    const pool = new WorkerPool(rec.launcher, process.env);
    void pool.warm(2, false);
    const early = rec.launched.map((l) => l.pid);
    expect(early).toHaveLength(2); // forked at once, before any host exists
    const { host } = await pooledHost(rec.launcher, { instance: pool });
    await host.warmPool(2);
    expect(rec.launched).toHaveLength(2); // the host's warm-up found them: none started twice
    const meta = await host['comparison:start']({ task: 'log-stats', modes: ['react', 'code'], provider: SIM });
    await host.whenDone(meta.id);
    expect(rec.launched).toHaveLength(2);
    expect(meta.runs.map((r) => [...rec.runOf].find(([, id]) => id === r.runId)?.[0]).sort()).toEqual(
      [...early].sort(),
    );
    // An unused pooled worker dies with the host.
    void pool.warm(1, false);
    const spare = rec.launched[2].pid;
    await host.close();
    await waitFor(() => !alive(spare), 60_000);
  });

  it('runs every trial round on workers that loaded during the round before', async () => {
    const rec = recordingLauncher();
    const { host, events } = await pooledHost(rec.launcher, {});
    await host.warmPool(2);
    const meta = await host['comparison:start']({ task: 'calc', modes: ['react', 'code'], trials: 3, provider: SIM });
    await host.whenDone(meta.id);
    expect(rec.launched).toHaveLength(6); // two per round, none left over after the last (the CLI keeps none warm)
    const startOf = (runId: string) => {
      const e = events.find((x) => x.runId === runId && x.type === 'run-started');
      return e?.type === 'run-started' ? e.startedAt : NaN;
    };
    for (const trial of [2, 3]) {
      const runs = meta.runs.filter((r) => r.trial === trial);
      const previous = meta.runs.filter((r) => r.trial === trial - 1);
      const previousEnd = Math.max(
        ...previous.map((r) => {
          const evs = events.filter((e) => e.runId === r.runId);
          return startOf(r.runId) + evs[evs.length - 1].t;
        }),
      );
      for (const r of runs) {
        const pid = [...rec.runOf].find(([, id]) => id === r.runId)![0];
        const launchedAt = rec.launched.find((l) => l.pid === pid)!.at;
        expect(launchedAt).toBeLessThanOrEqual(previousEnd);
      }
      for (const r of runs) {
        const finished = events.find((e) => e.runId === r.runId && e.type === 'run-finished');
        expect(finished?.type === 'run-finished' && finished.status).toBe('answered');
      }
    }
  });

  it('replaces a worker that died while idle and never hands it out', async () => {
    const rec = recordingLauncher();
    const warnings: string[] = [];
    const pool = new WorkerPool(rec.launcher, process.env, { warn: (m) => warnings.push(m) });
    cleanups.push(() => pool.close());
    await pool.warm(2);
    expect(pool.loadedCount).toBe(2);
    const victim = rec.launched[0];
    process.kill(victim.pid!, 'SIGKILL');
    await waitFor(() => rec.launched.length === 3 && pool.size === 2, 30_000);
    const taken = pool.takeFor(['none', 'javascript'], process.env).filter((h) => h !== undefined);
    expect(taken).toHaveLength(2);
    expect(taken.map((h) => h.pid)).not.toContain(victim.pid);
    expect(taken.every((h) => alive(h.pid))).toBe(true);
    expect(pool.size).toBe(0);
    expect(warnings).toEqual([]);
    for (const h of taken) h.kill();
  });

  it('gives no worker to a round whose environment differs, and reaps idle workers', async () => {
    const rec = recordingLauncher();
    const pool = new WorkerPool(rec.launcher, { PATH: process.env.PATH, TZ: 'UTC' }, { idleMs: 1500 });
    cleanups.push(() => pool.close());
    await pool.warm(1);
    expect(pool.takeFor(['none'], { PATH: process.env.PATH, TZ: 'Asia/Shanghai' })).toEqual([]);
    // Variables outside the worker's allowlist do not make a difference (they never reach it).
    expect(pool.matches({ PATH: process.env.PATH, TZ: 'UTC', OPENAI_API_KEY: 'sk-x' })).toBe(true);
    expect(pool.size).toBe(1);
    const pid = rec.launched[0].pid;
    await waitFor(() => pool.size === 0 && !alive(pid), 60_000);
    expect(rec.launched).toHaveLength(1); // reaped, not replaced
  });

  it('stops refilling when workers keep dying before they load, and says why', async () => {
    const warnings: string[] = [];
    const failing: WorkerLauncher = forkLauncher({ entry: join(tmpdir(), 'parallax-no-such-worker.js') });
    const rec = recordingLauncher(failing);
    const pool = new WorkerPool(rec.launcher, process.env, { warn: (m) => warnings.push(m) });
    cleanups.push(() => pool.close());
    await pool.warm(2);
    await waitFor(() => warnings.length >= 1, 30_000);
    expect(warnings[0]).toMatch(/keep exiting before they load.*Runs will start their own workers/s);
    // Every worker started has exited, the one still in flight when the limit was reached included: it added no
    // second warning.
    await waitFor(() => rec.exits.count === rec.launched.length, 30_000, 'every failing worker to exit');
    expect(warnings).toHaveLength(1);
    expect(rec.launched.length).toBeLessThanOrEqual(4);
    expect(pool.takeFor(['none', 'none'], process.env)).toEqual([undefined, undefined]);
  });
});

describe('a pool told which program language each run will run', () => {
  /** Workers that say 'loaded' at once and run nothing: what the pool hands out is all that is checked. */
  function fakeLauncher() {
    const launched: { program: WorkerProgram | undefined; handle: WorkerHandle }[] = [];
    const launcher: WorkerLauncher = {
      launch({ program }) {
        const handle: WorkerHandle = {
          pid: 100_000 + launched.length,
          send: () => {},
          onMessage: (listener) => void setImmediate(() => listener({ type: 'loaded' })),
          onExit: () => {},
          kill: () => {},
        };
        launched.push({ program, handle });
        return handle;
      },
    };
    return { launcher, launched };
  }
  const env = { PATH: '/usr/bin' };

  it("starts each column's worker for its language and hands each run the one started for its language", async () => {
    const { launcher, launched } = fakeLauncher();
    const pool = new WorkerPool(launcher, env);
    await pool.warm(['none', 'javascript', 'python'], false);
    expect(launched.map((l) => l.program)).toEqual(['none', 'javascript', 'python']);
    const [a, b, c] = launched.map((l) => l.handle);
    expect(pool.takeFor(['python', 'none', 'javascript'], env)).toEqual([c, a, b]);
    expect(pool.size).toBe(0);
  });

  it('else one started for any run, else another; where the pool is short, none', async () => {
    const { launcher, launched } = fakeLauncher();
    const pool = new WorkerPool(launcher, env);
    await pool.warm(1, false); // for any run
    await pool.warm(['none', 'none'], false); // one more, for a run without programs
    expect(launched.map((l) => l.program)).toEqual([undefined, 'none']);
    const [any, none] = launched.map((l) => l.handle);
    expect(pool.takeFor(['javascript', 'python', 'none'], env)).toEqual([any, undefined, none]);
    await pool.warm(['none'], false);
    expect(pool.takeFor(['python'], env)).toEqual([launched[2]!.handle]);
    expect(pool.takeFor(['python'], { PATH: '/elsewhere' })).toEqual([]);
  });

  it("prepares the next round's workers only for the languages no idle worker was started for", async () => {
    const { launcher, launched } = fakeLauncher();
    const pool = new WorkerPool(launcher, env);
    await pool.warm(['javascript'], false);
    pool.prepare(['none', 'javascript', 'python']);
    expect(launched.map((l) => l.program)).toEqual(['javascript', 'none', 'python']);
    pool.close();
  });
});
