/**
 * Concurrent rounds: a suite of 50 runs (5 built-in tasks × ReAct and Code Mode × 5 trials) on the simulated
 * model, through the host as `parallax suite run` runs it, with 1 round in flight and with 4 (and the default
 * for this machine's cores). Prints each wall time, the ratio to sequential, the runs answered and the median
 * run wall time (which rounds side by side stretch: they share the cores, as reports say beside latency);
 * then the same with the simulated model's 'slow' fault, where the runs wait on the model as on a real one.
 * `npm run bench -- concurrency`; BENCH_CONCURRENCY_LEVELS=1,2,4 to choose the levels.
 */
import { availableParallelism, tmpdir } from 'node:os';
import { mkdtemp, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { defaultConcurrency } from '../shared/concurrency.js';
import { builtinSuite } from '../shared/suite.js';
import type { RunFinishedEvent } from '../shared/step-event.js';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { createHost } from '../electron/host/host.js';
import { forkLauncher } from '../electron/host/launcher.js';
import { runSuite } from '../electron/suite/run-suite.js';
import { SLOW_REPLY_MS } from '../electron/sim/sim-server.js';
import { SuiteStore } from '../electron/suite/suite-store.js';

const TASKS = ['log-stats', 'weather-f', 'calc', 'config-lookup', 'missing-file'];
const MODES = ['react', 'code'] as const;
const TRIALS = 5;
// The worker bundle, as `parallax suite run` from the built app starts it; else the source under tsx (slower to load).
const BUNDLE = fileURLToPath(new URL('../dist/worker/worker-main.js', import.meta.url));
const entry = existsSync(BUNDLE) ? BUNDLE : undefined;

async function suiteAt(
  concurrency: number,
  slow: boolean,
): Promise<{ wallMs: number; runs: number; answered: number; medianRunMs: number }> {
  const dataDir = await mkdtemp(join(tmpdir(), 'parallax-bench-concurrency-'));
  const host = createHost({
    dataDir,
    caller: 'cli',
    getApiKey: async () => null,
    onEvents: () => {},
    onWarning: () => {},
    pool: {},
    launcher: forkLauncher({ entry }),
  });
  const full = builtinSuite();
  const suite = {
    ...full,
    tasks: full.tasks.filter((t) => TASKS.includes(t.id)),
    source: 'builtin',
    fixtures: new Map<string, string>(),
  };
  try {
    await host.warmPool(MODES.length);
    const t0 = performance.now();
    const record = await runSuite({
      host,
      suite,
      modes: [...MODES],
      trials: TRIALS,
      concurrency,
      store: new SuiteStore(dataDir),
      provider: { name: 'simulated', baseUrl: null, model: 'sim' },
      settings: slow ? { simFaults: ['slow'] } : {},
    });
    const wallMs = performance.now() - t0;
    const finished: RunFinishedEvent[] = [];
    for (const t of record.tasks) {
      if (!t.comparisonId) continue;
      const stored = await host['history:open'](t.comparisonId);
      finished.push(...stored.events.filter((e): e is RunFinishedEvent => e.type === 'run-finished'));
    }
    const walls = finished.map((e) => e.totals.wallMs).sort((a, b) => a - b);
    return {
      wallMs,
      runs: finished.length,
      answered: finished.filter((e) => e.status === 'answered').length,
      medianRunMs: walls[Math.floor(walls.length / 2)] ?? NaN,
    };
  } finally {
    await host.close();
    await rm(dataDir, { recursive: true, force: true });
  }
}

export default async function bench(): Promise<void> {
  const cores = availableParallelism();
  const levels = (process.env.BENCH_CONCURRENCY_LEVELS ?? '1,4').split(',').map(Number);
  console.log(
    `suite of ${TASKS.length} tasks × ${MODES.length} modes × ${TRIALS} trials = ${TASKS.length * MODES.length * TRIALS} runs, simulated model, ${cores} cores (default concurrency here: ${defaultConcurrency(true, cores)}); workers ${entry ? 'from dist (npm run build; may be stale)' : 'from source under tsx'}`,
  );
  // As is, the simulated model answers at once and the workers' start-up on the cores dominates; with its
  // 'slow' fault (400 ms before each reply) the runs wait on the model, as against a real provider.
  for (const slow of [false, true]) {
    console.log(
      slow
        ? `with replies ${SLOW_REPLY_MS} ms slow (the 'slow' fault: waiting on the model, like a real provider):`
        : 'the simulated model as is (replies at once: the cores are the bottleneck):',
    );
    let sequential = NaN;
    for (const level of levels) {
      const r = await suiteAt(level, slow);
      if (level === 1) sequential = r.wallMs;
      const ratio = Number.isNaN(sequential) ? '' : `, ${(r.wallMs / sequential).toFixed(2)}× the sequential time`;
      console.log(
        `  concurrency ${level}: ${(r.wallMs / 1000).toFixed(1)} s wall${ratio}; ${r.answered}/${r.runs} answered; median run wall ${Math.round(r.medianRunMs)} ms`,
      );
    }
  }
}
