/**
 * History at scale: 1,000, 5,000 and 20,000 stored comparisons (one stored comparison copied with new ids and
 * dates). Measures `parallax history` and `parallax report latest` beyond the CLI's bare start
 * (`parallax --version`), the first page of history:list (time and bytes, in the host's process), and a cold
 * start with the index and every summary missing. Goals: ≤ 300 ms beyond the start; first page ≤ 50 ms, ≤ 100 KB.
 * Needs the built CLI (`npm run build`). BENCH_HISTORY_COUNTS=1000,5000 picks the sizes.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { HistoryStore } from '../electron/host/history-store.js';
import { generate } from '../tests/helpers/history-seed.js';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const cli = join(root, 'bin', 'parallax.js');
function cliMs(dataDir: string, args: string[], times = 3): { ms: number; stderr: string } {
  const runs: number[] = [];
  let stderr = '';
  for (let i = 0; i < times; i++) {
    const t = performance.now();
    const r = spawnSync(process.execPath, [cli, ...args], { env: { ...process.env, PARALLAX_DATA_DIR: dataDir }, encoding: 'utf8', maxBuffer: 1 << 28 });
    runs.push(performance.now() - t);
    if (r.status !== 0) throw new Error(`parallax ${args.join(' ')} exited ${r.status}: ${r.stderr}`);
    stderr = r.stderr;
  }
  return { ms: runs.sort((a, b) => a - b)[Math.floor(runs.length / 2)], stderr };
}

type Paged = { page?: (q: { offset: number; limit: number }) => Promise<unknown> };

async function firstPage(dataDir: string): Promise<{ ms: number; bytes: number; what: string }> {
  const store = new HistoryStore(dataDir) as HistoryStore & Paged;
  const t = performance.now();
  const value = typeof store.page === "function" ? await store.page({ offset: 0, limit: 50 }) : await store.list();
  const ms = performance.now() - t;
  return { ms, bytes: Buffer.byteLength(JSON.stringify(value)), what: typeof store.page === "function" ? 'first page (50)' : 'whole list (no pages)' };
}

export default async function historyScaleBench(): Promise<void> {
  const counts = (process.env.BENCH_HISTORY_COUNTS ?? '1000,5000,20000').split(',').map(Number);
  const bare = cliMs(mkdtempSync(join(tmpdir(), 'parallax-bench-bare-')), ['--version'], 5).ms;
  console.log(`CLI bare start (parallax --version): ${bare.toFixed(0)} ms`);
  for (const count of counts) {
    const dataDir = mkdtempSync(join(tmpdir(), 'parallax-bench-scale-'));
    try {
      const g = performance.now();
      generate(dataDir, count);
      const genMs = performance.now() - g;
      const cold = cliMs(dataDir, ['history'], 1);
      const progress = cold.stderr.split('\n').filter(Boolean).pop() ?? '(no progress line)';
      const history = cliMs(dataDir, ['history']).ms;
      const latest = cliMs(dataDir, ['report', 'latest', '-f', 'json', '-o', join(dataDir, 'latest.json')]).ms;
      await firstPage(dataDir); // the host's first call warms its modules; the figure is the next one
      const page = await firstPage(dataDir);
      console.log(`${count.toLocaleString('en-US')} comparisons (written in ${genMs.toFixed(0)} ms):`);
      console.log(`  cold history (no index, no summaries): ${(cold.ms - bare).toFixed(0)} ms beyond start · last stderr line: ${progress}`);
      console.log(`  history: ${(history - bare).toFixed(0)} ms beyond start (goal ≤ 300) · report latest: ${(latest - bare).toFixed(0)} ms beyond start (goal ≤ 300)`);
      console.log(`  history:list ${page.what}: ${page.ms.toFixed(1)} ms (goal ≤ 50), ${(page.bytes / 1024).toFixed(1)} KB (goal ≤ 100)`);
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  }
}
