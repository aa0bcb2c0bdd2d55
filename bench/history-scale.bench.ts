/**
 * History at scale: 1,000, 5,000 and 20,000 stored comparisons (one stored comparison copied with new ids and
 * dates). Measures `parallax history` and `parallax report latest` beyond the CLI's bare start
 * (`parallax --version`, measured the same way), the first page of history:list (time and bytes, in the host's
 * process), and a cold start with the index and every summary missing (its progress lines). Goals: ≤ 300 ms
 * beyond the start; first page ≤ 50 ms, ≤ 100 KB. Each CLI figure is the median of BENCH_HISTORY_REPEATS runs
 * (default 5), wall and CPU (user + system: what a loaded machine's waiting leaves out); the machine's load is
 * printed with them. Ends with a table: per count, each command beyond the start, its ratio to the goal, and
 * its ratio to the 1,000 figure (flat: the time does not grow with the count).
 * Needs the built CLI (`npm run build`). BENCH_HISTORY_COUNTS=1000,5000 picks the sizes.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { HistoryStore } from '../electron/host/history-store.js';
import { generate } from '../tests/helpers/history-seed.js';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const cli = join(root, 'bin', 'parallax.js');
const REPEATS = Math.max(1, Number(process.env.BENCH_HISTORY_REPEATS) || 5);
const load = () =>
  loadavg()
    .map((x) => x.toFixed(1))
    .join(' ');
/** CPU time (user + system, ms) of the children this process has waited for (Linux; null elsewhere). */
function childrenCpuMs(): number | null {
  try {
    const stat = readFileSync('/proc/self/stat', 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    // cutime and cstime, in clock ticks (100 a second on Linux).
    return (Number(fields[13]) + Number(fields[14])) * 10;
  } catch {
    return null;
  }
}

/** The median wall time and CPU time of `times` runs of the CLI (CPU: what a loaded machine's waiting leaves out). */
function cliMs(dataDir: string, args: string[], times = REPEATS): { ms: number; cpu: number | null; stderr: string } {
  const runs: number[] = [];
  const cpus: number[] = [];
  let stderr = '';
  for (let i = 0; i < times; i++) {
    const t = performance.now();
    const c = childrenCpuMs();
    const r = spawnSync(process.execPath, [cli, ...args], {
      env: { ...process.env, PARALLAX_DATA_DIR: dataDir },
      encoding: 'utf8',
      maxBuffer: 1 << 28,
    });
    runs.push(performance.now() - t);
    const after = childrenCpuMs();
    if (c !== null && after !== null) cpus.push(after - c);
    if (r.status !== 0) throw new Error(`parallax ${args.join(' ')} exited ${r.status}: ${r.stderr}`);
    stderr = r.stderr;
  }
  const median = (xs: number[]) => xs.sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
  return { ms: median(runs), cpu: cpus.length ? median(cpus) : null, stderr };
}

type Paged = { page?: (q: { offset: number; limit: number }) => Promise<unknown>; swept?: () => Promise<void> };

async function firstPage(
  dataDir: string,
): Promise<{ ms: number; cpu: number; bytes: number; what: string; sweepCpu: number }> {
  // As the host makes it: the meta.json sweep follows the answer (history-list.ts).
  const store = new HistoryStore(
    dataDir,
    () => {},
    () => {},
    'after',
  ) as HistoryStore & Paged;
  const t = performance.now();
  const c = process.cpuUsage();
  const value = typeof store.page === 'function' ? await store.page({ offset: 0, limit: 50 }) : await store.list();
  const ms = performance.now() - t;
  const used = process.cpuUsage(c);
  // The sweep that follows the answer, apart: left running, it would be counted in the next page's figure.
  const s = process.cpuUsage();
  await store.swept?.();
  const sweep = process.cpuUsage(s);
  return {
    ms,
    cpu: (used.user + used.system) / 1000,
    sweepCpu: (sweep.user + sweep.system) / 1000,
    bytes: Buffer.byteLength(JSON.stringify(value)),
    what: typeof store.page === 'function' ? 'first page (50)' : 'whole list (no pages)',
  };
}

interface Row {
  count: number;
  history: { ms: number; cpu: number | null };
  latest: { ms: number; cpu: number | null };
}

export default async function historyScaleBench(): Promise<void> {
  const counts = (process.env.BENCH_HISTORY_COUNTS ?? '1000,5000,20000').split(',').map(Number);
  const empty = mkdtempSync(join(tmpdir(), 'parallax-bench-bare-'));
  console.log(`load average (1, 5, 15 min): ${load()} on ${availableParallelism()} cores; medians of ${REPEATS} runs`);
  // Two starts: the bare one (`--version` answers before commander and the commands load) and a command's
  // (`history --help`: commander and the history command loaded, what it pays before its own work).
  const bare = cliMs(empty, ['--version']);
  const start = cliMs(empty, ['history', '--help']);
  const cpu = (x: number | null) => (x === null ? '' : ` (CPU ${x.toFixed(0)} ms)`);
  console.log(
    `CLI bare start (parallax --version): ${bare.ms.toFixed(0)} ms${cpu(bare.cpu)}; a command's start (parallax history --help): ${start.ms.toFixed(0)} ms${cpu(start.cpu)}`,
  );
  const beyond = (r: { ms: number; cpu: number | null }, goal: number) => {
    const d = (a: number, b: number) => `${(a - b).toFixed(0)}`;
    const cpuPart =
      r.cpu !== null && bare.cpu !== null && start.cpu !== null
        ? `; CPU ${d(r.cpu, bare.cpu)} / ${d(r.cpu, start.cpu)}`
        : '';
    return `${d(r.ms, bare.ms)} ms beyond the bare start / ${d(r.ms, start.ms)} beyond a command's start${cpuPart} (goal ≤ ${goal})`;
  };
  const rows: Row[] = [];
  for (const count of counts) {
    const dataDir = mkdtempSync(join(tmpdir(), 'parallax-bench-scale-'));
    try {
      const g = performance.now();
      generate(dataDir, count);
      const genMs = performance.now() - g;
      const cold = cliMs(dataDir, ['history'], 1);
      const progress = cold.stderr.split('\n').filter(Boolean);
      const history = cliMs(dataDir, ['history']);
      const latest = cliMs(dataDir, ['report', 'latest', '-f', 'json', '-o', join(dataDir, 'latest.json')]);
      rows.push({ count, history, latest });
      await firstPage(dataDir); // the host's first call warms its modules; the figure is the next one
      const page = await firstPage(dataDir);
      console.log(`${count.toLocaleString('en-US')} comparisons (written in ${genMs.toFixed(0)} ms; load ${load()}):`);
      console.log(
        `  cold history (no index, no summaries): ${(cold.ms - bare.ms).toFixed(0)} ms beyond start${cpu(cold.cpu)} · progress lines: ${progress.length}, the last: ${progress.at(-1) ?? '(none)'}`,
      );
      console.log(`  history: ${beyond(history, 300)}`);
      console.log(`  report latest: ${beyond(latest, 300)}`);
      console.log(
        `  history:list ${page.what}: ${page.ms.toFixed(1)} ms, CPU ${page.cpu.toFixed(1)} ms (goal ≤ 50), ${(page.bytes / 1024).toFixed(1)} KB (goal ≤ 100); the sweep after it: CPU ${page.sweepCpu.toFixed(1)} ms`,
      );
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  }
  printTable(rows, bare);
  rmSync(empty, { recursive: true, force: true });
}

/** Per count and command: wall and CPU beyond the bare start, ratio to the 300 ms goal, ratio to the first count's. */
function printTable(rows: readonly Row[], bare: { ms: number; cpu: number | null }): void {
  if (rows.length === 0) return;
  const GOAL = 300;
  const over = (x: { ms: number; cpu: number | null }) => ({
    wall: x.ms - bare.ms,
    cpu: x.cpu !== null && bare.cpu !== null ? x.cpu - bare.cpu : null,
  });
  const f = (n: number | null) => (n === null ? '—' : n.toFixed(0));
  const r = (a: number | null, b: number | null) =>
    a === null || b === null || b <= 0 ? '—' : `${(a / b).toFixed(2)}×`;
  console.log(
    `\n  beyond the bare start (parallax --version: ${bare.ms.toFixed(0)} ms, CPU ${f(bare.cpu)} ms); goal ≤ ${GOAL} ms`,
  );
  console.log('  count   command         wall ms  CPU ms  wall/goal  CPU/goal  CPU vs first count');
  for (const command of ['history', 'latest'] as const) {
    const first = over(rows[0][command]);
    for (const row of rows) {
      const x = over(row[command]);
      const name = command === 'history' ? 'history' : 'report latest';
      console.log(
        `  ${row.count.toLocaleString('en-US').padStart(6)}  ${name.padEnd(14)}  ${f(x.wall).padStart(7)}  ${f(x.cpu).padStart(6)}  ${r(x.wall, GOAL).padStart(9)}  ${r(x.cpu, GOAL).padStart(8)}  ${r(x.cpu, first.cpu).padStart(8)}`,
      );
    }
  }
}
