/**
 * `npm run bench -- startup-targets`: the start-up goals as ratios to a bare `node -e 0` measured in the same run,
 * each a median, printed with the machine's load average (build first: `npm run build`):
 * - `parallax run` spawn → the first chat-completions request at a loopback server: ≤ 2.5× bare node;
 * - `parallax compare` (react + code, simulated model) from a cold CLI → every mode's first request: ≤ 5×;
 * - `parallax --help` and every command's `--help`: ≤ 2× (the slowest of them is the figure);
 * - the host with a warm pool kept as the app keeps it, 4 modes: Run → every mode's first request ≤ 200 ms.
 * Beside each wall figure, the CPU time (user + system) the same processes spent (bench/process-cpu.ts): what the
 * work costs whatever the load, where wall time adds every wait for a core.
 * PARALLAX_BENCH_BEFORE=<another checkout, built> measures that checkout too, its samples taken in turn with this
 * one's so that both meet the same load, and prints a before/after table. PARALLAX_BENCH_SAMPLES=N (default 7).
 */
import { execFile } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { cliCompareCpu, cliRunFirstRequestCpu } from './startup.bench.js';

const run = promisify(execFile);
const here = fileURLToPath(new URL('..', import.meta.url));
const median = (xs: readonly number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const load = () =>
  loadavg()
    .map((x) => x.toFixed(1))
    .join(' ');
const COMMANDS = [
  'start',
  'run',
  'report',
  'tasks',
  'sim-server',
  'compare',
  'history',
  'serve',
  'exec',
  'prices',
  'suite',
  'tools',
  'diff',
];
const MODES4 = ['react', 'code', 'hybrid', 'react-search'];

async function wall(args: readonly string[]): Promise<number> {
  const t0 = performance.now();
  await run(process.execPath, args, { maxBuffer: 1 << 24 });
  return performance.now() - t0;
}

/**
 * CPU time (user + system, ms) of a whole process, from the shell's `times` (getrusage of its reaped children,
 * microseconds); a sample of its own, so that the wall figures carry no shell.
 */
async function cpuOfProcess(args: readonly string[]): Promise<number> {
  const { stdout } = await run('bash', [
    '-c',
    '"$0" "$@" >/dev/null 2>&1 </dev/null; times',
    process.execPath,
    ...args,
  ]);
  const children = stdout
    .trim()
    .split('\n')
    .at(-1)!
    .match(/(\d+)m([\d.]+)s/g)!;
  return children.reduce((sum, t) => {
    const [, m, sec] = /(\d+)m([\d.]+)s/.exec(t)!;
    return sum + (Number(m) * 60 + Number(sec)) * 1000;
  }, 0);
}

/** The slowest `--help` of the CLI and of each command (each a median of `n`), which it was, and its CPU time. */
async function helpFigure(
  cli: string,
  n: number,
): Promise<{ ms: number; which: string; all: Record<string, number>; cpu: Record<string, number> }> {
  const all: Record<string, number> = {};
  const cpu: Record<string, number> = {};
  for (const args of [['--help'], ...COMMANDS.map((c) => [c, '--help'])]) {
    const xs: number[] = [];
    const cs: number[] = [];
    for (let i = 0; i < n; i++) {
      xs.push(await wall([cli, ...args]));
      cs.push(await cpuOfProcess([cli, ...args]));
    }
    all[args.join(' ')] = median(xs);
    cpu[args.join(' ')] = median(cs);
  }
  const [which, ms] = Object.entries(all).sort((a, b) => b[1] - a[1])[0]!;
  return { ms, which, all, cpu };
}

interface HostLike {
  warmPool(n: number): Promise<void>;
  'comparison:start'(r: unknown): Promise<{ id: string; runs: { runId: string }[] }>;
  whenDone(id: string): Promise<void>;
  close(): Promise<void>;
}

/** A checkout's host (its build) with a warm pool as the app keeps it: Run → the last mode's first request, per Run. */
async function warmPoolFigures(root: string, modes: readonly string[], n: number): Promise<number[]> {
  const { createHost } = (await import(pathToFileURL(join(root, 'dist/electron/host/host.js')).href)) as {
    createHost: (o: unknown) => HostLike;
  };
  const { forkLauncher } = (await import(pathToFileURL(join(root, 'dist/electron/host/launcher.js')).href)) as {
    forkLauncher: (o: unknown) => unknown;
  };
  const dataDir = await mkdtemp(join(tmpdir(), 'parallax-bench-targets-'));
  const started = new Map<string, number>();
  const first = new Map<string, number>();
  const host = createHost({
    dataDir,
    getApiKey: async () => null,
    onWarning: () => {},
    launcher: forkLauncher({ entry: join(root, 'dist/worker/worker-main.js') }),
    pool: { size: modes.length, keepWarm: true },
    onEvents: (batch: { type: string; runId: string; startedAt?: number; t: number }[]) => {
      for (const e of batch) {
        if (e.type === 'run-started') started.set(e.runId, e.startedAt!);
        if (e.type === 'model-request' && !first.has(e.runId)) first.set(e.runId, started.get(e.runId)! + e.t);
      }
    },
  });
  const out: number[] = [];
  try {
    for (let i = 0; i <= n; i++) {
      await host.warmPool(modes.length);
      // The composer is on screen for a while before Run: what a standing pool does in that time is done.
      await new Promise((r) => setTimeout(r, 500));
      const t0 = Date.now();
      const meta = await host['comparison:start']({
        task: 'log-stats',
        modes,
        provider: { name: 'simulated', baseUrl: null, model: 'sim' },
      });
      await host.whenDone(meta.id);
      const last = Math.max(...meta.runs.map((r) => first.get(r.runId) ?? NaN));
      if (Number.isNaN(last)) throw new Error('a run reached no model request; is the build complete?');
      if (i > 0) out.push(last - t0); // the first Run also warms this process's host
    }
  } finally {
    await host.close();
    await rm(dataDir, { recursive: true, force: true });
  }
  return out;
}

interface Figures {
  bare: number;
  run: number;
  compare: number;
  help: number;
  helpWhich: string;
  warm: number;
  /** CPU time (user + system), ms: bare node, run and compare up to their first requests, the top-level --help. */
  cpu: { bare: number; run: number | null; compare: number | null; help: number; helpWhich: number };
}

export default async function startupTargets(): Promise<void> {
  const n = Number(process.env.PARALLAX_BENCH_SAMPLES ?? 7);
  const before = process.env.PARALLAX_BENCH_BEFORE;
  const checkouts = [
    ...(before ? [{ name: 'before', root: before }] : []),
    { name: before ? 'after' : 'this checkout', root: here },
  ];
  console.log(
    `load average at start ${load()} on ${availableParallelism()} cores; medians of ${n}; ${checkouts.map((c) => `${c.name}: ${c.root}`).join(', ')}`,
  );
  const samples = checkouts.map(() => ({
    bare: [] as number[],
    run: [] as number[],
    compare: [] as number[],
    cpu: { bare: [] as number[], run: [] as number[], compare: [] as number[] },
  }));
  // Sample by sample, in turn, so that every checkout meets the same load.
  for (let i = 0; i < n; i++) {
    for (const [k, c] of checkouts.entries()) {
      const cli = join(c.root, 'bin', 'parallax.js');
      const s = samples[k]!;
      s.bare.push(await wall(['-e', '0']));
      s.cpu.bare.push(await cpuOfProcess(['-e', '0']));
      const r = await cliRunFirstRequestCpu(cli);
      s.run.push(r.ms);
      if (r.cpuMs !== null) s.cpu.run.push(r.cpuMs);
      const cmp = await cliCompareCpu(['react', 'code'], cli);
      s.compare.push(cmp.ms);
      if (cmp.cpuMs !== null) s.cpu.compare.push(cmp.cpuMs);
    }
  }
  const orNull = (xs: number[]) => (xs.length ? median(xs) : null);
  const figures: Figures[] = [];
  for (const [k, c] of checkouts.entries()) {
    const help = await helpFigure(join(c.root, 'bin', 'parallax.js'), Math.max(3, Math.ceil(n / 2)));
    const warm = median(await warmPoolFigures(c.root, MODES4, Math.max(3, Math.ceil(n / 2))));
    // One bare start for every checkout: their samples were taken in turn, so the same unit serves all.
    const s = samples[k]!;
    figures.push({
      bare: median(samples.flatMap((x) => x.bare)),
      run: median(s.run),
      compare: median(s.compare),
      help: help.ms,
      helpWhich: help.which,
      warm,
      cpu: {
        bare: median(samples.flatMap((x) => x.cpu.bare)),
        run: orNull(s.cpu.run),
        compare: orNull(s.cpu.compare),
        help: help.cpu['--help']!,
        helpWhich: help.cpu[help.which]!,
      },
    });
    console.log(
      `${c.name}: --help of each command, wall ms (CPU ms): ${Object.entries(help.all)
        .map(([a, ms]) => `${a} ${Math.round(ms)} (${Math.round(help.cpu[a]!)})`)
        .join(', ')}`,
    );
  }
  const ms = (x: number) => `${Math.round(x).toLocaleString('en-US')} ms`;
  const rows: [string, (f: Figures) => number, (f: Figures) => string, number, 'ratio' | 'ms'][] = [
    ['parallax run: spawn → first request', (f) => f.run / f.bare, (f) => ms(f.run), 2.5, 'ratio'],
    [
      'parallax compare (react + code), cold: spawn → every first request',
      (f) => f.compare / f.bare,
      (f) => ms(f.compare),
      5,
      'ratio',
    ],
    [
      "--help and every command's --help (the slowest)",
      (f) => f.help / f.bare,
      (f) => `${ms(f.help)} (${f.helpWhich})`,
      2,
      'ratio',
    ],
    ['warm pool, 4 modes: Run → every first request', (f) => f.warm, (f) => ms(f.warm), 200, 'ms'],
  ];
  console.log(
    `\nload average at the end ${load()}; bare node -e 0 (the unit of the ratios), median of ${n * checkouts.length}: ${ms(figures[0]!.bare)}`,
  );
  console.log(
    `| goal | ${checkouts.map((c) => `${c.name}: figure | ratio`).join(' | ')} | target | met (${checkouts.at(-1)!.name}) |`,
  );
  console.log(`|---|${checkouts.map(() => '---|---').join('|')}|---|---|`);
  for (const [label, value, shown, target, unit] of rows) {
    const cells = figures.map((f) => `${shown(f)} | ${unit === 'ratio' ? `${value(f).toFixed(2)}×` : '—'}`);
    const last = value(figures.at(-1)!);
    console.log(
      `| ${label} | ${cells.join(' | ')} | ${unit === 'ratio' ? `≤ ${target}×` : `≤ ${target} ms`} | ${last <= target ? 'yes' : 'NO'} |`,
    );
  }
  // CPU time is what the work costs whatever the load (wall time adds every wait for a core): the same goals in CPU.
  const cpuMs = (x: number | null) => (x === null ? 'n/a' : ms(x));
  const cpuRatio = (x: number | null, f: Figures) => (x === null ? '—' : `${(x / f.cpu.bare).toFixed(2)}×`);
  console.log(
    `\nCPU time (user + system) of the same processes, medians (bare node -e 0: ${figures.map((f, k) => `${checkouts[k]!.name} ${ms(f.cpu.bare)}`).join(', ')}):`,
  );
  console.log(`| CPU time | ${checkouts.map((c) => `${c.name} | ratio`).join(' | ')} |`);
  console.log(`|---|${checkouts.map(() => '---|---').join('|')}|`);
  const cpuRows: [string, (f: Figures) => number | null][] = [
    ['parallax run, up to its first request', (f) => f.cpu.run],
    ['parallax compare (react + code), CLI and workers up to every first request', (f) => f.cpu.compare],
    ['parallax --help (whole process)', (f) => f.cpu.help],
    ['the slowest --help of the table above (whole process)', (f) => f.cpu.helpWhich],
  ];
  for (const [label, value] of cpuRows)
    console.log(`| ${label} | ${figures.map((f) => `${cpuMs(value(f))} | ${cpuRatio(value(f), f)}`).join(' | ')} |`);
}
