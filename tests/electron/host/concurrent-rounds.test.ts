/**
 * Rounds side by side through the host, with in-process workers the test drives: rounds overlap up to the
 * limit and never beyond, each round's runs are still released together, the limit is shared by comparisons
 * of the same provider, a 429 pauses new rounds and lowers the limit, and cancel stops every round in flight
 * and records every run.
 */
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { ComparisonRequest, RunSpec } from '../../../shared/run-spec.js';
import type { RunFinishedEvent, StepEvent, StepEventInput } from '../../../shared/step-event.js';
import { computeTotals } from '../../../shared/summary.js';
import { runStartedOf } from '../../../shared/run-started.js';
import { createHost, type Host } from '../../../electron/host/host.js';
import type { WorkerExit, WorkerHandle, WorkerLauncher } from '../../../electron/host/launcher.js';
import type { HostToWorker, WorkerToHost } from '../../../electron/worker/worker-protocol.js';
import { waitFor } from './session-helpers.js';

interface Script {
  /** How long a run works after its release, ms. */
  readonly workMs: number;
  /** Runs whose first request is answered 429 with this retry-after (ms). */
  readonly rateLimited?: (spec: RunSpec) => number | null;
}

/** What the workers did, on one clock: spawn, release (go), end. */
interface Trace {
  readonly spawned: Map<string, number>;
  readonly released: Map<string, number>;
  readonly ended: Map<string, number>;
}

/** Workers in this process: ready at once, working `workMs` after go, answering cancel at once. */
function inProcessLauncher(script: Script, trace: Trace): WorkerLauncher {
  return {
    launch({ name }): WorkerHandle {
      let onMessage: (m: WorkerToHost) => void = () => {};
      let onExit: (e: WorkerExit) => void = () => {};
      let spec: RunSpec | null = null;
      let timer: NodeJS.Timeout | null = null;
      let exited = false;
      const events: StepEvent[] = [];
      let startedAt = 0;
      const push = (...inputs: StepEventInput[]) => {
        const batch = inputs.map(
          (e) =>
            ({
              ...e,
              runId: spec!.runId,
              seq: events.length + inputs.indexOf(e),
              t: Date.now() - startedAt,
            }) as StepEvent,
        );
        events.push(...batch);
        onMessage({ type: 'events', events: batch });
      };
      const finish = (cancelled: boolean) => {
        if (exited) return;
        exited = true;
        if (timer) clearTimeout(timer);
        if (!spec) return void setImmediate(() => onExit({ code: 0, signal: null, stderrTail: '' }));
        if (events.length === 0) push(runStartedOf(spec!, { startedAt: Date.now(), systemPrompt: 'in-process' }));
        push({
          type: 'run-finished',
          status: cancelled ? 'cancelled' : 'answered',
          answer: cancelled ? '' : 'ok',
          ...(cancelled ? { error: 'Cancelled by the user.' } : {}),
          validation: null,
          totals: computeTotals(events),
        });
        trace.ended.set(spec!.runId, performance.now());
        setImmediate(() => onExit({ code: 0, signal: null, stderrTail: '' }));
      };
      trace.spawned.set(name, performance.now());
      setImmediate(() => onMessage({ type: 'loaded' }));
      return {
        pid: 1,
        send(m: HostToWorker) {
          if (m.type === 'init') {
            spec = m.spec;
            setTimeout(() => onMessage({ type: 'ready' }), 5);
          } else if (m.type === 'go') {
            trace.released.set(spec!.runId, performance.now());
            startedAt = Date.now();
            // Events come later, as over a real worker's IPC channel: the host's release loop is not held up.
            setImmediate(() => {
              if (exited) return;
              push(runStartedOf(spec!, { startedAt, systemPrompt: 'in-process' }), {
                type: 'model-request',
                step: 1,
                attempt: 1,
                messageCount: 2,
                toolNames: [],
              });
              const retry = script.rateLimited?.(spec!) ?? null;
              if (retry !== null)
                push({
                  type: 'model-retry',
                  step: 1,
                  attempt: 1,
                  status: 429,
                  message: 'rate limited (429)',
                  delayMs: retry,
                });
              timer = setTimeout(() => finish(false), script.workMs + (retry ?? 0));
            });
          } else if (m.type === 'cancel') {
            finish(true);
          }
        },
        onMessage: (l) => void (onMessage = l),
        onExit: (l) => void (onExit = l),
        kill: () => finish(true),
      };
    },
  };
}

const hosts: Host[] = [];
afterEach(async () => {
  await Promise.all(hosts.splice(0).map((h) => h.close()));
});

async function rig(script: Script) {
  const trace: Trace = { spawned: new Map(), released: new Map(), ended: new Map() };
  const events: StepEvent[] = [];
  const host = createHost({
    dataDir: await mkdtemp(join(tmpdir(), 'parallax-concurrent-')),
    getApiKey: async () => null,
    onWarning: () => {},
    onEvents: (batch) => void events.push(...batch),
    launcher: inProcessLauncher(script, trace),
  });
  hosts.push(host);
  return { host, trace, events };
}

const request = (
  trials: number,
  concurrency: number,
  modes: ComparisonRequest['modes'] = ['react', 'code'],
): ComparisonRequest => ({
  task: 'calc',
  modes,
  trials,
  concurrency,
  provider: { name: 'simulated', baseUrl: null, model: 'sim' },
});

/** The most rounds whose runs were working (released, not ended) at the same moment. */
function peakRounds(trace: Trace, trialOf: Map<string, string>): number {
  const marks = [...trace.released].flatMap(([id, at]) => [
    { at, round: trialOf.get(id)!, d: 1 },
    { at: trace.ended.get(id)!, round: trialOf.get(id)!, d: -1 },
  ]);
  marks.sort((a, b) => a.at - b.at || a.d - b.d);
  const live = new Map<string, number>();
  let peak = 0;
  for (const m of marks) {
    live.set(m.round, (live.get(m.round) ?? 0) + m.d);
    if (live.get(m.round) === 0) live.delete(m.round);
    peak = Math.max(peak, live.size);
  }
  return peak;
}

const trialMap = (meta: { id: string; runs: readonly { runId: string; trial?: number }[] }) =>
  new Map(meta.runs.map((r) => [r.runId, `${meta.id}#${r.trial ?? 1}`]));

describe('concurrent rounds', () => {
  it('overlap up to the limit and never beyond, each round released together, concurrency in the meta', async () => {
    const { host, trace } = await rig({ workMs: 120 });
    const meta = await host['comparison:start'](request(6, 2));
    await host.whenDone(meta.id);
    expect(meta.concurrency).toBe(2);
    expect(trace.released.size).toBe(12);
    expect(peakRounds(trace, trialMap(meta))).toBe(2);
    for (let trial = 1; trial <= 6; trial++) {
      const times = meta.runs.filter((r) => r.trial === trial).map((r) => trace.released.get(r.runId)!);
      expect(Math.max(...times) - Math.min(...times), `round ${trial} released together`).toBeLessThan(15);
    }
    const sequential = await host['comparison:start'](request(3, 1));
    await host.whenDone(sequential.id);
    expect(sequential.concurrency).toBeUndefined(); // one at a time is not recorded, as before
    expect(peakRounds(trace, trialMap(sequential))).toBe(1);
  });

  it("shares one provider's limit between comparisons", async () => {
    const { host, trace } = await rig({ workMs: 100 });
    const [a, b] = await Promise.all([
      host['comparison:start'](request(4, 3, ['react'])),
      host['comparison:start'](request(4, 3, ['react'])),
    ]);
    await Promise.all([host.whenDone(a.id), host.whenDone(b.id)]);
    const trials = new Map([...trialMap(a), ...trialMap(b)]);
    expect(peakRounds(trace, trials)).toBe(3);
  });

  it('a 429 with retry-after pauses new rounds, halves the limit and is recorded in the meta', async () => {
    const { host, trace } = await rig({ workMs: 60, rateLimited: (spec) => (spec.trial === 1 ? 400 : null) });
    const meta = await host['comparison:start'](request(8, 4, ['react']));
    await host.whenDone(meta.id);
    const stored = await host['history:open'](meta.id);
    expect(stored.meta.throttled).toEqual([
      'The provider answered 429 (rate limit): new rounds waited 0.4 s and rounds at once lowered from 4 to 2.',
    ]);
    const first429 = trace.released.get(meta.runs[0].runId)!;
    // Rounds 1–4 started at once; every later round waited out the retry-after.
    const later = meta.runs.filter((r) => (r.trial ?? 1) > 4).map((r) => trace.released.get(r.runId)! - first429);
    expect(Math.min(...later)).toBeGreaterThanOrEqual(390);
    expect(stored.events.filter((e): e is RunFinishedEvent => e.type === 'run-finished').map((e) => e.status)).toEqual(
      Array(8).fill('answered'),
    );
  });

  it('cancel with rounds in flight cancels all of them and records every run, started or not', async () => {
    const { host, trace, events } = await rig({ workMs: 60_000 });
    const meta = await host['comparison:start'](request(5, 2));
    await waitFor(() => trace.released.size === 4, 10_000, 'two rounds to start');
    await host['comparison:cancel'](meta.id);
    await host.whenDone(meta.id);
    expect(trace.spawned.size).toBe(4); // rounds 3–5 never got a worker
    const finished = new Map(
      events.filter((e): e is RunFinishedEvent => e.type === 'run-finished').map((e) => [e.runId, e.status]),
    );
    expect(meta.runs.map((r) => finished.get(r.runId))).toEqual(Array(10).fill('cancelled'));
  });
});

describe('concurrent rounds against the simulated model (real workers)', () => {
  it('its 429-once fault throttles the comparison: the limit is halved and the meta says so', async () => {
    const { forkLauncher } = await import('../../../electron/host/launcher.js');
    const host = createHost({
      dataDir: await mkdtemp(join(tmpdir(), 'parallax-concurrent-sim-')),
      getApiKey: async () => null,
      onWarning: () => {},
      onEvents: () => {},
      launcher: forkLauncher(),
    });
    hosts.push(host);
    const meta = await host['comparison:start']({ ...request(3, 2, ['react']), settings: { simFaults: ['429-once'] } });
    await host.whenDone(meta.id);
    const stored = await host['history:open'](meta.id);
    expect(stored.meta.concurrency).toBe(2);
    expect(stored.meta.throttled?.[0]).toMatch(
      /^The provider answered 429 \(rate limit\): new rounds waited \d+\.\d s and rounds at once lowered from 2 to 1\.$/,
    );
    expect(stored.events.filter((e) => e.type === 'model-retry').length).toBe(3);
    expect(stored.events.filter((e): e is RunFinishedEvent => e.type === 'run-finished').map((e) => e.status)).toEqual([
      'answered',
      'answered',
      'answered',
    ]);
  });
});
