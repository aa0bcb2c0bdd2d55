/**
 * `npm run bench -- run-start`: only the `parallax run` line of the startup bench, median of 9 — spawn → the first
 * chat-completions request at a loopback OpenAI-compatible server that reports usage (the built tree; `npm run
 * build` first), beside a bare `node -e 0` start.
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { cliRunFirstRequest, RUN_START_SAMPLES } from './startup.bench.js';

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const run = promisify(execFile);

export default async function runStartBench(): Promise<void> {
  const bare: number[] = [];
  for (let i = 0; i < 5; i++) {
    const t0 = performance.now();
    await run(process.execPath, ['-e', '0']);
    bare.push(performance.now() - t0);
  }
  const samples: number[] = [];
  for (let i = 0; i < RUN_START_SAMPLES; i++) samples.push(await cliRunFirstRequest());
  const m = median(samples);
  console.log(`bare node start (node -e 0), median of 5: ${Math.round(median(bare))} ms`);
  console.log(`parallax run, loopback OpenAI-compatible server (usage reported): spawn → first request, median of ${RUN_START_SAMPLES}: ${Math.round(m)} ms (${(m / median(bare)).toFixed(2)}× bare node); samples ${samples.map((x) => Math.round(x)).join(', ')}`);
}
