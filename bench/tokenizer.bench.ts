/**
 * What a process pays for its first token count: gpt-tokenizer's own o200k_base module (its 2.4 MB rank array
 * compiled, then the encoder built) against Parallax's counter (engine/tokens/count-tokens.ts), which builds the same
 * encoder from the build's rank table (engine/tokens/rank-table.ts). Fresh processes, alternated so the machine's load
 * weighs on both alike; CPU time (user + system) of the process from its first line to the count. Needs `npm run
 * build:node` (tsc's output and dist/worker/o200k_base.ranks).
 */
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';

const ROUNDS = 9;
const TEXT = 'The first count of a process: how long until a token figure exists.';
const counter = join(process.cwd(), 'dist', 'electron', 'engine', 'tokens', 'count-tokens.js');
const library = join(process.cwd(), 'node_modules', 'gpt-tokenizer', 'esm', 'encoding', 'o200k_base.js');

const script = (load: string) => `
  const c0 = process.cpuUsage(); const t0 = performance.now();
  ${load}
  const c = process.cpuUsage(c0);
  console.log(JSON.stringify({ n, cpu: (c.user + c.system) / 1000, wall: performance.now() - t0 }));`;

const WAYS = {
  "gpt-tokenizer's own module": script(
    `const { countTokens } = await import(${JSON.stringify(library)}); const n = countTokens(${JSON.stringify(TEXT)});`,
  ),
  'count-tokens.ts, from the rank table': script(
    `const { tok } = await import(${JSON.stringify(counter)}); const n = tok(${JSON.stringify(TEXT)});`,
  ),
};

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

export default async function bench(): Promise<void> {
  if (!existsSync(counter) || !existsSync(join(process.cwd(), 'dist', 'worker', 'o200k_base.ranks'))) {
    console.log('tokenizer: skipped, run `npm run build:node` first (no tsc output or rank table)');
    return;
  }
  const cpu = new Map<string, number[]>();
  const wall = new Map<string, number[]>();
  const counts = new Set<number>();
  for (let r = 0; r < ROUNDS; r++) {
    for (const [name, code] of Object.entries(WAYS)) {
      const { stdout } = await promisify(execFile)(process.execPath, ['--input-type=module', '-e', code]);
      const out = JSON.parse(stdout) as { n: number; cpu: number; wall: number };
      counts.add(out.n);
      cpu.set(name, [...(cpu.get(name) ?? []), out.cpu]);
      wall.set(name, [...(wall.get(name) ?? []), out.wall]);
    }
  }
  if (counts.size !== 1) throw new Error(`the two ways counted differently: ${[...counts].join(', ')}`);
  console.log(`first count in a fresh process (${ROUNDS} each, alternated; both count ${[...counts][0]} tokens):`);
  for (const name of Object.keys(WAYS))
    console.log(
      `  ${name}: CPU median ${median(cpu.get(name)!).toFixed(0)} ms, wall median ${median(wall.get(name)!).toFixed(0)} ms`,
    );
  const [a, b] = Object.keys(WAYS).map((k) => median(cpu.get(k)!));
  console.log(`  CPU ratio own module / rank table: ${(a! / b!).toFixed(2)}`);
}
