/**
 * Start-up and staying light, against a bare `node -e 0` start measured in the same run: Run → every mode's
 * first model request (host, with and without the warm pool), `parallax compare` from a cold CLI,
 * `parallax --version`, the gap between trial rounds, peak memory per worker, and `parallax history` /
 * `report latest` with 1,000 stored comparisons. Uses the built tree (`npm run build`); the loop's own
 * overhead per step is in engine.bench.ts.
 */
import { execFile, spawn } from 'node:child_process';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { existsSync, readFileSync } from 'node:fs';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { DEFAULT_SETTINGS, type ModeId } from '../shared/run-spec.js';
import type { StepEvent, StepEventInput } from '../shared/step-event.js';
import { computeTotals } from '../shared/summary.js';
import { createHost, type HostOptions } from '../electron/host/host.js';
import { forkLauncher, type WorkerLauncher } from '../electron/host/launcher.js';
import { cpuReadable, cpuTimeline, treeCpu } from './process-cpu.js';

const run = promisify(execFile);
const root = fileURLToPath(new URL('..', import.meta.url));
const bin = join(root, 'bin', 'parallax.js');
const builtWorker = join(root, 'dist', 'worker', 'worker-main.js'); // the bundle `npm run build` makes
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const ms = (n: number) => `${Math.round(n).toLocaleString('en-US')} ms`;
const mb = (bytes: number) => `${(bytes / 1048576).toFixed(0)} MB`;
const ratio = (n: number, base: number) => `${(n / base).toFixed(2)}× bare node`;
const SIM = { name: 'simulated', baseUrl: null, model: 'sim' } as const;
const ALL_MODES: ModeId[] = ['react', 'code', 'hybrid', 'react-search'];

/** Wall time of a child process from spawn to exit. */
async function timeProcess(args: string[], env: NodeJS.ProcessEnv = process.env): Promise<number> {
  const t0 = performance.now();
  await run(process.execPath, args, { env, maxBuffer: 64 * 1024 * 1024 });
  return performance.now() - t0;
}

async function medianOf(n: number, fn: () => Promise<number>): Promise<number> {
  const xs: number[] = [];
  for (let i = 0; i < n; i++) xs.push(await fn());
  return median(xs);
}

/** Peak resident memory (VmHWM) of each worker process, sampled from /proc while it lives (Linux only). */
function peakTracker(inner: WorkerLauncher): {
  launcher: WorkerLauncher;
  peaks: number[];
  byMode: Map<string, number[]>;
  stop(): void;
} {
  const live = new Map<number, number>();
  const peaks: number[] = [];
  /** Peaks by the mode of the run each worker was given (from its init message). */
  const byMode = new Map<string, number[]>();
  const sample = (): void => {
    for (const [pid, peak] of live) {
      try {
        const kb = Number(/VmHWM:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0);
        live.set(pid, Math.max(peak, kb * 1024));
      } catch {
        /* exited between samples */
      }
    }
  };
  const timer = setInterval(sample, 25);
  return {
    peaks,
    byMode,
    stop: () => clearInterval(timer),
    launcher: {
      launch(options) {
        const handle = inner.launch(options);
        let mode = 'never given a run';
        if (handle.pid !== undefined) {
          const pid = handle.pid;
          live.set(pid, 0);
          handle.onExit(() => {
            const peak = live.get(pid) ?? 0;
            live.delete(pid);
            if (peak > 0) {
              peaks.push(peak);
              byMode.set(mode, [...(byMode.get(mode) ?? []), peak]);
            }
          });
        }
        return {
          pid: handle.pid,
          onMessage: (fn) => handle.onMessage(fn),
          onExit: (fn) => handle.onExit(fn),
          kill: () => handle.kill(),
          send(message) {
            if (message.type === 'init') mode = message.spec.mode;
            handle.send(message);
          },
        };
      },
    },
  };
}

interface StartFigures {
  readonly toAllFirst: number[];
  readonly spread: number[];
  readonly peaks: number[];
  readonly byMode: Map<string, number[]>;
}

/**
 * Run → the LAST mode's first model request (every mode has started), and the spread of the first requests.
 * `pool`: the host keeps warm workers (started before the first Run, as when the composer is shown).
 */
async function hostStart(modes: ModeId[], repeats: number, pool: boolean): Promise<StartFigures> {
  const dataDir = await mkdtemp(join(tmpdir(), 'parallax-bench-startup-'));
  const firstAt = new Map<string, number>();
  const startedAt = new Map<string, number>();
  const tracker = peakTracker(forkLauncher({ entry: builtWorker }));
  const options: HostOptions & { pool?: unknown } = {
    dataDir,
    getApiKey: async () => null,
    onWarning: () => {},
    launcher: tracker.launcher,
    // As the app keeps it (keepWarm): started when the composer is shown, refilled after every comparison.
    onEvents: (batch) => {
      for (const e of batch) {
        if (e.type === 'run-started') startedAt.set(e.runId, e.startedAt);
        if (e.type === 'model-request' && !firstAt.has(e.runId))
          firstAt.set(e.runId, (startedAt.get(e.runId) ?? NaN) + e.t);
      }
    },
    ...(pool ? { pool: { size: modes.length, keepWarm: true } } : {}),
  };
  const host = createHost(options) as ReturnType<typeof createHost> & { warmPool?: (n: number) => Promise<void> };
  const toAllFirst: number[] = [];
  const spread: number[] = [];
  try {
    for (let i = 0; i < repeats; i++) {
      if (pool) await host.warmPool?.(modes.length);
      const t0 = Date.now();
      const meta = await host['comparison:start']({ task: 'log-stats', modes, provider: SIM });
      await host.whenDone(meta.id);
      const firsts = meta.runs.map((r) => firstAt.get(r.runId) ?? NaN);
      if (firsts.some((t) => Number.isNaN(t)))
        throw new Error('a run reached no model request; is the build complete?');
      toAllFirst.push(Math.max(...firsts) - t0);
      spread.push(Math.max(...firsts) - Math.min(...firsts));
    }
  } finally {
    await host.close();
    tracker.stop();
    await rm(dataDir, { recursive: true, force: true });
  }
  return { toAllFirst, spread, peaks: tracker.peaks, byMode: tracker.byMode };
}

/** Trials: last run-finished of a round → first run-started of the next. */
async function roundGaps(trials: number, pool: boolean): Promise<number[]> {
  const dataDir = await mkdtemp(join(tmpdir(), 'parallax-bench-startup-'));
  const options: HostOptions & { pool?: unknown } = {
    dataDir,
    getApiKey: async () => null,
    onWarning: () => {},
    onEvents: () => {},
    launcher: forkLauncher({ entry: builtWorker }),
    ...(pool ? { pool: { size: 2 } } : {}),
  };
  const host = createHost(options) as ReturnType<typeof createHost> & { warmPool?: (n: number) => Promise<void> };
  try {
    if (pool) await host.warmPool?.(2);
    const meta = await host['comparison:start']({ task: 'calc', modes: ['react', 'code'], trials, provider: SIM });
    await host.whenDone(meta.id);
    const stored = await host['history:open'](meta.id);
    const span = new Map<string, { start: number; end: number }>();
    for (const r of meta.runs) {
      const evs = stored.events.filter((e) => e.runId === r.runId);
      const started = evs.find((e) => e.type === 'run-started');
      if (started?.type === 'run-started')
        span.set(r.runId, { start: started.startedAt, end: started.startedAt + evs[evs.length - 1].t });
    }
    const round = (k: number) => meta.runs.filter((r) => r.trial === k).map((r) => span.get(r.runId)!);
    const gaps: number[] = [];
    for (let k = 1; k < trials; k++)
      gaps.push(Math.min(...round(k + 1).map((x) => x.start)) - Math.max(...round(k).map((x) => x.end)));
    return gaps;
  } finally {
    await host.close();
    await rm(dataDir, { recursive: true, force: true });
  }
}

/** `parallax compare` started cold: process spawn → the last mode's first model request (read from its history). */
export async function cliCompare(modes: ModeId[], cli: string = bin): Promise<number> {
  return (await cliCompareCpu(modes, cli)).ms;
}

/**
 * `parallax compare` from a cold CLI: spawn → every mode's first request (ms), and the CPU time (user + system)
 * the CLI and its workers spent up to then (cpuMs; null where /proc cannot be read).
 */
export async function cliCompareCpu(modes: ModeId[], cli: string = bin): Promise<{ ms: number; cpuMs: number | null }> {
  const dataDir = await mkdtemp(join(tmpdir(), 'parallax-bench-startup-'));
  try {
    const t0 = Date.now();
    const cpu: { timeline?: ReturnType<typeof cpuTimeline> } = {};
    await new Promise<void>((resolve, reject) => {
      const child = spawn(
        process.execPath,
        [cli, 'compare', '--task', 'log-stats', '--modes', modes.join(','), '--json'],
        {
          env: { ...process.env, PARALLAX_DATA_DIR: dataDir },
          stdio: ['ignore', 'ignore', 'ignore'],
        },
      );
      if (cpuReadable && child.pid !== undefined) cpu.timeline = cpuTimeline(child.pid);
      child.on('exit', (code) => (code === 0 ? resolve() : reject(new Error(`parallax compare exited with ${code}`))));
    }).finally(() => cpu.timeline?.stop());
    const { stdout } = await run(process.execPath, [bin, 'history', '--json'], {
      env: { ...process.env, PARALLAX_DATA_DIR: dataDir },
    });
    const [item] = JSON.parse(stdout) as { meta: { id: string } }[];
    const { HistoryStore } = await import('../electron/host/history-store.js');
    const stored = await new HistoryStore(dataDir).open(item.meta.id);
    const firsts = stored.meta.runs.map((r) => {
      const started = stored.events.find((e) => e.runId === r.runId && e.type === 'run-started');
      const req = stored.events.find((e) => e.runId === r.runId && e.type === 'model-request');
      return started?.type === 'run-started' && req ? started.startedAt + req.t : NaN;
    });
    const last = Math.max(...firsts);
    return { ms: last - t0, cpuMs: cpu.timeline?.at(last) ?? null };
  } finally {
    await rm(dataDir, { recursive: true, force: true });
  }
}

/** A data folder holding `count` finished two-run comparisons (10 steps each), written directly. */
export async function fillHistory(dataDir: string, count: number): Promise<void> {
  const provider = { name: 'simulated', baseUrl: 'http://127.0.0.1:0/v1', model: 'sim', simulated: true };
  const task = { id: 'log-stats', text: 'Count the lines.' };
  for (let c = 0; c < count; c++) {
    const id = `bench-${String(c).padStart(5, '0')}`;
    const runs = (['react', 'code'] as const).map((mode, i) => ({ runId: `${id}-${mode}`, mode, trial: 1, i }));
    const dir = join(dataDir, 'comparisons', id);
    await mkdir(join(dir, 'runs'), { recursive: true });
    const meta = {
      id,
      createdAt: 1_700_000_000_000 + c * 60_000,
      task,
      provider,
      settings: DEFAULT_SETTINGS,
      workspaceSource: 'log-stats fixture',
      runs: runs.map(({ runId, mode, trial }) => ({ runId, mode, trial })),
    };
    await writeFile(join(dir, 'meta.json'), JSON.stringify(meta, null, 2) + '\n');
    for (const r of runs) {
      const out: StepEvent[] = [];
      const push = (e: StepEventInput) =>
        out.push({ ...e, runId: r.runId, seq: out.length, t: out.length * 5 } as StepEvent);
      push({
        type: 'run-started',
        mode: r.mode,
        task,
        provider,
        settings: DEFAULT_SETTINGS,
        systemPrompt: 'You are an agent.',
        tools: [],
        startedAt: meta.createdAt,
        comparisonId: id,
      });
      for (let step = 1; step <= 10; step++) {
        push({ type: 'model-request', step, attempt: 1, messageCount: step * 2, toolNames: ['read_file'] });
        push({
          type: 'model-response',
          step,
          usage: { prompt: 400 + 90 * step, completion: 30 },
          latencyMs: 5,
          finishReason: step < 10 ? 'tool_calls' : 'stop',
          text: step < 10 ? '' : 'done',
          toolCalls: step < 10 ? [{ id: `c${step}`, name: 'read_file', arguments: '{"path":"a.log"}' }] : [],
        });
        if (step < 10) {
          push({ type: 'tool-started', step, callId: `c${step}`, name: 'read_file', args: { path: 'a.log' } });
          push({
            type: 'tool-finished',
            step,
            callId: `c${step}`,
            name: 'read_file',
            output: 'INFO ok\n'.repeat(200),
            rawSize: 1600,
            truncated: false,
            durationMs: 1,
            error: null,
          });
        }
      }
      push({ type: 'run-finished', status: 'answered', answer: 'done', validation: null, totals: computeTotals(out) });
      await writeFile(join(dir, 'runs', `${r.runId}.jsonl`), out.map((e) => JSON.stringify(e)).join('\n') + '\n');
    }
  }
}

/**
 * `parallax run` against a loopback OpenAI-compatible server that reports usage: spawn → the server receives the
 * first chat-completions request. What a real provider's run pays before its first request (the tokenizer is not
 * among it when the provider counts for itself).
 */
export const RUN_START_SAMPLES = 9;

export async function cliRunFirstRequest(cli: string = bin): Promise<number> {
  return (await cliRunFirstRequestCpu(cli)).ms;
}

/** `parallax run`: spawn → first request (ms), and the CPU time (user + system) the CLI spent up to it (cpuMs). */
export async function cliRunFirstRequestCpu(cli: string = bin): Promise<{ ms: number; cpuMs: number | null }> {
  let firstAt = 0;
  let cpuMs: number | null = null;
  let pid: number | undefined;
  const chunk = (delta: Record<string, unknown>, finish: string | null) => ({
    id: 'c1',
    object: 'chat.completion.chunk',
    created: 1,
    model: 'm',
    choices: [{ index: 0, delta, finish_reason: finish }],
  });
  const server = createServer((req, res) => {
    if (!req.url?.endsWith('/chat/completions')) return void res.writeHead(404).end();
    if (!firstAt) {
      firstAt = Date.now();
      if (cpuReadable && pid !== undefined) cpuMs = treeCpu(pid);
    }
    req.resume();
    res.writeHead(200, { 'content-type': 'text/event-stream' });
    for (const c of [
      chunk({ role: 'assistant', content: 'Hello.' }, null),
      chunk({}, 'stop'),
      { ...chunk({}, null), choices: [], usage: { prompt_tokens: 120, completion_tokens: 3, total_tokens: 123 } },
    ])
      res.write(`data: ${JSON.stringify(c)}\n\n`);
    res.end('data: [DONE]\n\n');
  });
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  const dataDir = await mkdtemp(join(tmpdir(), 'parallax-bench-startup-'));
  try {
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
    const t0 = Date.now();
    await new Promise<void>((resolve, reject) => {
      const child = spawn(
        process.execPath,
        [cli, 'run', '--task', 'Say hello.', '--base-url', url, '--model', 'bench-model', '--max-steps', '1', '--json'],
        {
          env: { ...process.env, PARALLAX_DATA_DIR: dataDir },
          stdio: ['ignore', 'ignore', 'inherit'],
        },
      );
      pid = child.pid;
      child.on('exit', (code) => (code === 0 ? resolve() : reject(new Error(`parallax run exited with ${code}`))));
    });
    if (!firstAt) throw new Error('parallax run sent no request');
    return { ms: firstAt - t0, cpuMs };
  } finally {
    await new Promise((ok) => server.close(ok));
    await rm(dataDir, { recursive: true, force: true });
  }
}

export default async function startupBench(): Promise<void> {
  if (!existsSync(builtWorker)) {
    console.log('startup: skipped (no dist/; run npm run build first)');
    return;
  }
  const bare = await medianOf(7, () => timeProcess(['-e', '0']));
  console.log(`bare node start (node -e 0), median of 7: ${ms(bare)} — the unit of the ratios below`);
  const version = await medianOf(7, () => timeProcess([bin, '--version']));
  console.log(`parallax --version (dist), median of 7: ${ms(version)} (${ratio(version, bare)}; goal ≤ 3×)`);
  const help = await medianOf(5, () => timeProcess([bin, '--help']));
  console.log(`parallax --help (dist), median of 5: ${ms(help)} (${ratio(help, bare)})`);

  for (const modes of [ALL_MODES.slice(0, 2), ALL_MODES]) {
    const cold = await hostStart(modes, 3, false);
    const warm = await hostStart(modes, 4, true);
    const goal = modes.length === 2 ? 100 : 200;
    console.log(
      `host, ${modes.length} modes (${modes.join(', ')}), log-stats, simulated model: Run → every mode's first model request`,
    );
    console.log(
      `  fresh workers, median of 3: ${ms(median(cold.toAllFirst))} (${ratio(median(cold.toAllFirst), bare)}); first requests spread ${median(cold.spread).toFixed(1)} ms`,
    );
    console.log(
      `  warm pool, median of 4:     ${ms(median(warm.toAllFirst))} (${ratio(median(warm.toAllFirst), bare)}; goal ≤ ${goal} ms); first requests spread ${median(warm.spread).toFixed(1)} ms`,
    );
    const peaks = [...cold.peaks, ...warm.peaks];
    if (peaks.length)
      console.log(
        `  peak memory per worker (VmHWM): median ${mb(median(peaks))}, max ${mb(Math.max(...peaks))} (goal ≤ 100 MB)`,
      );
    const byMode = [...new Set([...cold.byMode.keys(), ...warm.byMode.keys()])].map((mode) => {
      const xs = [...(cold.byMode.get(mode) ?? []), ...(warm.byMode.get(mode) ?? [])];
      return `${mode} ${mb(median(xs))} (max ${mb(Math.max(...xs))})`;
    });
    if (byMode.length) console.log(`    by mode, median: ${byMode.join(', ')}`);
  }

  const compare = await medianOf(3, () => cliCompare(['react', 'code']));
  console.log(
    `parallax compare from a cold CLI, react + code, simulated model: spawn → every first request, median of 3: ${ms(compare)} (${ratio(compare, bare)}; goal ≤ 600 ms)`,
  );

  const runFirst = await medianOf(RUN_START_SAMPLES, cliRunFirstRequest);
  console.log(
    `parallax run from a cold CLI against a loopback OpenAI-compatible server (usage reported): spawn → first request, median of ${RUN_START_SAMPLES}: ${ms(runFirst)} (${ratio(runFirst, bare)})`,
  );

  for (const pool of [false, true]) {
    const gaps = await roundGaps(4, pool);
    console.log(
      `trials, calc, react + code × 4, ${pool ? 'warm pool' : 'fresh workers'}: between rounds median ${ms(median(gaps))}, max ${ms(Math.max(...gaps))} (goal ≤ 150 ms)`,
    );
  }

  const dataDir = await mkdtemp(join(tmpdir(), 'parallax-bench-startup-'));
  try {
    await fillHistory(dataDir, 1000);
    const env = { ...process.env, PARALLAX_DATA_DIR: dataDir };
    // The first call may build the history summary; the figure is what every later call costs.
    const first = await timeProcess([bin, 'history'], env);
    const history = await medianOf(3, () => timeProcess([bin, 'history'], env));
    const latest = await medianOf(3, () => timeProcess([bin, 'report', 'latest', '-f', 'md'], env));
    // The CLI's own start is --help: commander and every command's options, what a command loads before its
    // action (--version alone answers before any of that).
    console.log(
      `1,000 stored comparisons (2 runs × 10 steps each): beyond the CLI's own start (--help, ${ms(help)}), goal ≤ 300 ms`,
    );
    console.log(`  parallax history: ${ms(history)} → ${ms(history - help)} beyond (first call ${ms(first)})`);
    console.log(`  parallax report latest -f md: ${ms(latest)} → ${ms(latest - help)} beyond`);
  } finally {
    await rm(dataDir, { recursive: true, force: true });
  }
}
