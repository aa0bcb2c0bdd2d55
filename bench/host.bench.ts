/**
 * The host's own costs, so they never distort a comparison: how long from "start" until each mode's first
 * model request, how far apart the modes' first requests land (the fairness of the start), and how many
 * events per second flow from a worker through fork IPC, the fan-in and the JSONL history. With trials: what
 * a round costs between the end of one and the start of the next, and the start gap within each round.
 */
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { StepEvent } from '../shared/step-event.js';
import { createHost } from '../electron/host/host.js';
import { forkLauncher } from '../electron/host/launcher.js';
import { SYNTHETIC_WORKER } from '../tests/helpers/synthetic-worker-path.js';

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const max = (xs: number[]) => Math.max(...xs);
const f0 = (n: number) => Math.round(n).toLocaleString('en-US');

async function startLatency(rounds: number, label: string, entry?: string): Promise<void> {
  const dataDir = await mkdtemp(join(tmpdir(), 'parallax-bench-host-'));
  const firstAt = new Map<string, number>();
  const startedAt = new Map<string, number>();
  const inEngine: number[] = [];
  const host = createHost({
    dataDir,
    getApiKey: async () => null,
    onWarning: () => {},
    launcher: forkLauncher({ entry }),
    onEvents: (batch) => {
      for (const e of batch) {
        if (e.type === 'run-started') startedAt.set(e.runId, e.startedAt);
        if (e.type === 'model-request' && !firstAt.has(e.runId)) {
          firstAt.set(e.runId, (startedAt.get(e.runId) ?? NaN) + e.t);
          inEngine.push(e.t);
        }
      }
    },
  });
  const toFirst: Record<string, number[]> = { react: [], code: [] };
  const gaps: number[] = [];
  const failures: string[] = [];
  try {
    for (let i = 0; i < rounds; i++) {
      const t0 = Date.now();
      const meta = await host['comparison:start']({
        task: 'log-stats',
        modes: ['react', 'code'],
        provider: { name: 'simulated', baseUrl: null, model: 'sim' },
      });
      await host.whenDone(meta.id);
      const firsts = meta.runs.map((r) => firstAt.get(r.runId));
      if (firsts.some((t) => t === undefined || Number.isNaN(t))) {
        const stored = await host['history:open'](meta.id);
        failures.push(
          stored.events
            .filter((e) => e.type === 'run-finished')
            .map((e) => (e as { error?: string }).error ?? '')
            .join(' / '),
        );
        continue;
      }
      meta.runs.forEach((r, j) => toFirst[r.mode].push(firsts[j]! - t0));
      gaps.push(Math.abs(firsts[0]! - firsts[1]!));
    }
  } finally {
    await host.close();
    await rm(dataDir, { recursive: true, force: true });
  }
  if (gaps.length === 0) {
    console.log(
      `start latency (${label}): no run reached a model request (${failures[0] ?? 'unknown'}); is the engine complete?`,
    );
    return;
  }
  const all = [...toFirst.react, ...toFirst.code];
  console.log(
    `start latency, ${label}, log-stats, simulated model, ${gaps.length} comparisons (react + code, one worker each, released together):`,
  );
  console.log(
    `  start → first model request: ReAct median ${f0(median(toFirst.react))} ms, Code Mode median ${f0(median(toFirst.code))} ms (max ${f0(max(all))} ms)`,
  );
  console.log(
    `  of which after the release (run start → first request, in the engine): median ${median(inEngine).toFixed(1)} ms`,
  );
  console.log(
    `  gap between the two first requests: median ${median(gaps).toFixed(1)} ms, max ${max(gaps).toFixed(1)} ms`,
  );
  console.log(`  ratio gap / start latency (median): ${(median(gaps) / median(all)).toFixed(4)}`);
}

/** Trials run in rounds: the time between the last run-finished of a round and the first run-started of the next. */
async function rounds(trials: number, label: string, entry?: string): Promise<void> {
  const dataDir = await mkdtemp(join(tmpdir(), 'parallax-bench-host-'));
  const host = createHost({
    dataDir,
    getApiKey: async () => null,
    onWarning: () => {},
    onEvents: () => {},
    launcher: forkLauncher({ entry }),
  });
  try {
    const meta = await host['comparison:start']({
      task: 'calc',
      modes: ['react', 'code'],
      trials,
      provider: { name: 'simulated', baseUrl: null, model: 'sim' },
    });
    await host.whenDone(meta.id);
    const stored = await host['history:open'](meta.id);
    const span = new Map<string, { start: number; end: number; first: number | null }>();
    for (const r of meta.runs) {
      const evs = stored.events.filter((e) => e.runId === r.runId);
      const started = evs.find((e) => e.type === 'run-started');
      const req = evs.find((e) => e.type === 'model-request');
      if (started?.type !== 'run-started') continue;
      span.set(r.runId, {
        start: started.startedAt,
        end: started.startedAt + evs[evs.length - 1].t,
        first: req ? started.startedAt + req.t : null,
      });
    }
    const round = (k: number) =>
      meta.runs
        .filter((r) => r.trial === k)
        .map((r) => span.get(r.runId))
        .filter((x) => x !== undefined);
    const turnover: number[] = [];
    const gaps: number[] = [];
    for (let k = 1; k <= trials; k++) {
      const firsts = round(k)
        .map((x) => x.first)
        .filter((t): t is number => t !== null);
      if (firsts.length === 2) gaps.push(Math.abs(firsts[0] - firsts[1]));
      if (k < trials)
        turnover.push(Math.min(...round(k + 1).map((x) => x.start)) - Math.max(...round(k).map((x) => x.end)));
    }
    console.log(`trials, ${label}, calc, simulated model, react + code × ${trials} trials:`);
    console.log(
      `  between rounds (last run-finished → next run-started: worker spawn, load, release): median ${f0(median(turnover))} ms, max ${f0(max(turnover))} ms`,
    );
    if (gaps.length)
      console.log(
        `  gap between the modes' first requests within a round: median ${median(gaps).toFixed(1)} ms, max ${max(gaps).toFixed(1)} ms`,
      );
  } finally {
    await host.close();
    await rm(dataDir, { recursive: true, force: true });
  }
}

async function throughput(events: number, payload: number, workers: 1 | 2): Promise<{ host: number; raw: number }> {
  const args = ['--events', String(events), '--payload', String(payload)];
  const launcher = forkLauncher({ entry: SYNTHETIC_WORKER, args });

  // Raw: the fork IPC alone, no fan-in, no disk.
  const raw = await new Promise<number>((resolve) => {
    const handle = launcher.launch({ env: process.env, name: 'raw' });
    let n = 0;
    let first = 0;
    let last = 0;
    handle.onMessage((m) => {
      if (m.type === 'ready') handle.send({ type: 'go' });
      if (m.type === 'events') {
        if (n === 0) first = performance.now();
        n += m.events.length;
        last = performance.now();
      }
    });
    handle.onExit(() => resolve((n - 1) / ((last - first) / 1000)));
    handle.send({
      type: 'init',
      apiKey: null,
      spec: {
        runId: 'raw-react',
        task: { id: null, text: 'x' },
        mode: 'react',
        provider: { name: 'x', baseUrl: 'http://127.0.0.1:9/v1', model: 'x', simulated: false },
        apiKeyEnv: null,
        settings: {} as never,
        workspace: tmpdir(),
      },
    });
  });

  // Through the host: fork IPC, seq checks, fan-in batches, JSONL appends (fsync at the end).
  const dataDir = await mkdtemp(join(tmpdir(), 'parallax-bench-host-'));
  let n = 0;
  let first = 0;
  let last = 0;
  const host = createHost({
    dataDir,
    launcher,
    getApiKey: async () => null,
    onWarning: () => {},
    onEvents: (batch: readonly StepEvent[]) => {
      if (n === 0) first = performance.now();
      n += batch.length;
      last = performance.now();
    },
  });
  try {
    const meta = await host['comparison:start']({
      task: 'calc',
      modes: workers === 2 ? ['react', 'code'] : ['react'],
      provider: { name: 'custom', baseUrl: 'http://127.0.0.1:9/v1', model: 'x' },
    });
    await host.whenDone(meta.id);
    last = Math.max(last, performance.now()); // include the final fsync
  } finally {
    await host.close();
    await rm(dataDir, { recursive: true, force: true });
  }
  return { host: (n - 1) / ((last - first) / 1000), raw };
}

export default async function bench(): Promise<void> {
  // Interleaved repeats, medians: other work on a shared 2-core machine moves single figures a lot.
  const repeats = 3;
  for (const [events, payload] of [
    [20_000, 200],
    [5_000, 4_000],
  ] as const) {
    const ones: { host: number; raw: number }[] = [];
    const twos: number[] = [];
    for (let i = 0; i < repeats; i++) {
      ones.push(await throughput(events, payload, 1));
      twos.push((await throughput(events, payload, 2)).host);
    }
    const raw = median(ones.map((o) => o.raw));
    const one = median(ones.map((o) => o.host));
    const two = median(twos);
    console.log(
      `events/s worker → host, ${f0(events)} events of ~${f0(payload)} B output each (median of ${repeats}):`,
    );
    console.log(`  raw fork IPC (1 worker, no fan-in): ${f0(raw)} events/s`);
    console.log(
      `  through the host (IPC + seq check + fan-in + JSONL), 1 worker: ${f0(one)} events/s (ratio to raw ${(one / raw).toFixed(2)})`,
    );
    console.log(
      `  through the host, 2 workers at once: ${f0(two)} events/s in all (ratio to 1 worker ${(two / one).toFixed(2)})`,
    );
  }
  await startLatency(5, 'workers from source (tsx)');
  const built = fileURLToPath(new URL('../dist/worker/worker-main.js', import.meta.url));
  if (existsSync(built)) await startLatency(5, 'workers from dist (npm run build; may be stale)', built);
  else
    console.log(
      'start latency from dist: skipped (no dist/worker/worker-main.js, the worker bundle; run npm run build)',
    );
  await rounds(4, 'workers from source (tsx)');
  if (existsSync(built)) await rounds(4, 'workers from dist', built);
}
