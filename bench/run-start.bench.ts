/**
 * `npm run bench -- run-start`: only the `parallax run` line of the startup bench, median of 9 — spawn → the first
 * chat-completions request at a loopback OpenAI-compatible server that reports usage (the built tree; `npm run
 * build` first), beside a bare `node -e 0` start.
 *
 * PARALLAX_BENCH_BEFORE=<another checkout>/bin/parallax.js (built there) measures that CLI too, its samples taken
 * in turn with this one's, so that both meet the same load on a shared machine.
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { cliRunFirstRequest, RUN_START_SAMPLES } from './startup.bench.js';

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const run = promisify(execFile);
const ms = (n: number) => `${Math.round(n).toLocaleString('en-US')} ms`;

export default async function runStartBench(): Promise<void> {
  const before = process.env.PARALLAX_BENCH_BEFORE;
  const bare: number[] = [];
  const samples: number[] = [];
  const beforeSamples: number[] = [];
  for (let i = 0; i < RUN_START_SAMPLES; i++) {
    const t0 = performance.now();
    await run(process.execPath, ['-e', '0']);
    bare.push(performance.now() - t0);
    if (before) beforeSamples.push(await cliRunFirstRequest(before));
    samples.push(await cliRunFirstRequest());
  }
  const b = median(bare);
  const line = (label: string, xs: number[]) =>
    `${label}: median of ${xs.length} ${ms(median(xs))} (${(median(xs) / b).toFixed(2)}× bare node); samples ${xs.map((x) => Math.round(x)).join(', ')}`;
  console.log(`bare node start (node -e 0), median of ${bare.length}: ${ms(b)}`);
  console.log('parallax run, loopback OpenAI-compatible server (usage reported): spawn → first request');
  if (before) console.log(line(`  ${before}`, beforeSamples));
  console.log(line('  this checkout', samples));
}
