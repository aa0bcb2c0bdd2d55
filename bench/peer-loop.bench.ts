/**
 * The loop's own overhead per step, Parallax beside the agent frameworks a user would pick instead, in one run:
 * the Vercel AI SDK (`generateText` and `streamText` over `@ai-sdk/openai-compatible`), OpenAI Agents JS (`run`
 * with `OpenAIChatCompletionsModel`) and LangGraph JS (`createReactAgent` with `@langchain/openai`). Each drives
 * the same scripted instant server in a process of its own (bench/peers/loop-child.mjs) for runs of exactly N
 * steps; overhead per step = (run wall time − time inside the server) ÷ N, the tool's time shown apart. Rounds
 * alternate the contestants so that a loaded machine weighs on all alike; each figure is the median over rounds
 * and runs, printed with the load average. Goal: Parallax ≤ the AI SDK's `generateText` at N = 10 and N = 100.
 *
 * The frameworks are installed into bench/peers (its own package.json and lock) on first use, never into the
 * app's dependencies. PARALLAX_BENCH_PEER_STEPS=10,100 and PARALLAX_BENCH_PEER_ROUNDS=3 change the plan.
 * PARALLAX_BENCH_BEFORE=<another checkout> adds that checkout's engine as one more contestant (its loop-child.mjs
 * and sources; bench/peers/loop-child.mjs is copied there when it has none).
 */
import { execFile, spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { availableParallelism, loadavg } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { promisify } from 'node:util';

const run = promisify(execFile);
const root = fileURLToPath(new URL('..', import.meta.url));
const peers = join(root, 'bench', 'peers');
const child = join(peers, 'loop-child.mjs');
const tsx = pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href;
const median = (xs: readonly number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const load = () =>
  loadavg()
    .map((x) => x.toFixed(1))
    .join(' ');

const BEFORE = process.env.PARALLAX_BENCH_BEFORE;
export const CONTESTANTS = [
  'parallax',
  ...(BEFORE ? (['parallax-before'] as const) : []),
  'ai-sdk-generateText',
  'ai-sdk-streamText',
  'openai-agents',
  'langgraph',
] as const;
type Contestant =
  | 'parallax'
  | 'parallax-before'
  | 'ai-sdk-generateText'
  | 'ai-sdk-streamText'
  | 'openai-agents'
  | 'langgraph';
const LABEL: Record<Contestant, string> = {
  parallax: 'Parallax (ReAct, streamed, events recorded)',
  'parallax-before': `Parallax at ${BEFORE ?? ''}`,
  'ai-sdk-generateText': 'AI SDK generateText',
  'ai-sdk-streamText': 'AI SDK streamText',
  'openai-agents': 'OpenAI Agents JS run',
  langgraph: 'LangGraph JS createReactAgent',
};

interface Samples {
  wall: number[];
  server: number[];
  tool: number[];
}

/** The frameworks, installed into bench/peers from its lock on first use. */
function ensurePeers(): void {
  if (
    existsSync(join(peers, 'node_modules', 'ai', 'package.json')) &&
    existsSync(join(peers, 'node_modules', '@langchain', 'langgraph', 'package.json'))
  )
    return;
  console.log("installing the agent frameworks into bench/peers (first use; not the app's dependencies)…");
  const r = spawnSync('npm', ['ci', '--no-audit', '--no-fund', '--loglevel=error'], { cwd: peers, stdio: 'inherit' });
  if (r.status !== 0) throw new Error('npm ci in bench/peers failed; the peers are needed for this bench');
}

async function sample(who: Contestant, steps: number, runs: number): Promise<Samples> {
  // Parallax's engine runs from the TypeScript sources (tsx), as engine.bench.ts runs it; the peers from their builds.
  const before = who === 'parallax-before';
  const script = before ? join(BEFORE!, 'bench', 'peers', 'loop-child.mjs') : child;
  if (before && !existsSync(script)) {
    mkdirSync(dirname(script), { recursive: true });
    copyFileSync(child, script);
  }
  const args = [
    ...(who.startsWith('parallax') ? ['--import', tsx] : []),
    script,
    before ? 'parallax' : who,
    String(steps),
    String(runs),
  ];
  const { stdout } = await run(process.execPath, args, {
    cwd: before ? BEFORE : root,
    maxBuffer: 1 << 24,
    timeout: 600_000,
  });
  return JSON.parse(stdout.trim().split('\n').at(-1)!) as Samples;
}

export interface PeerFigures {
  readonly steps: number;
  readonly perStep: Record<Contestant, number>;
  readonly noTool: Record<Contestant, number>;
  readonly load: string;
}

export async function peerLoop(stepsList: readonly number[], rounds: number): Promise<PeerFigures[]> {
  ensurePeers();
  const out: PeerFigures[] = [];
  for (const steps of stepsList) {
    const runs = steps >= 100 ? 3 : 11;
    const per = Object.fromEntries(CONTESTANTS.map((c) => [c, [] as number[]])) as Record<Contestant, number[]>;
    const noTool = Object.fromEntries(CONTESTANTS.map((c) => [c, [] as number[]])) as Record<Contestant, number[]>;
    for (let r = 0; r < rounds; r++) {
      // Each round in another order, so no contestant always follows the same one.
      const order = CONTESTANTS.map((_, i) => CONTESTANTS[(i + r) % CONTESTANTS.length]!);
      for (const who of order) {
        const s = await sample(who, steps, runs);
        s.wall.forEach((w, i) => {
          per[who].push((w - s.server[i]!) / steps);
          noTool[who].push((w - s.server[i]! - s.tool[i]!) / steps);
        });
      }
    }
    const figures: PeerFigures = {
      steps,
      perStep: Object.fromEntries(CONTESTANTS.map((c) => [c, median(per[c])])) as Record<Contestant, number>,
      noTool: Object.fromEntries(CONTESTANTS.map((c) => [c, median(noTool[c])])) as Record<Contestant, number>,
      load: load(),
    };
    out.push(figures);
    const base = figures.perStep['ai-sdk-generateText'];
    console.log(
      `N = ${steps} steps, ${rounds} rounds × ${runs} runs each (after a warm-up run), load average ${figures.load} on ${availableParallelism()} cores:`,
    );
    console.log(`  ${'contestant'.padEnd(46)} ${'per step'.padStart(9)} ${'w/o tool'.padStart(9)}  vs generateText`);
    for (const c of CONTESTANTS) {
      console.log(
        `  ${LABEL[c].padEnd(46)} ${figures.perStep[c].toFixed(2).padStart(6)} ms ${figures.noTool[c].toFixed(2).padStart(6)} ms  ${(figures.perStep[c] / base).toFixed(2)}×`,
      );
    }
    const p = figures.perStep.parallax;
    console.log(
      `  goal: Parallax ≤ generateText: ${p.toFixed(2)} ms against ${base.toFixed(2)} ms — ${p <= base ? 'met' : 'NOT met'}`,
    );
  }
  return out;
}

export default async function peerLoopBench(): Promise<void> {
  const steps = (process.env.PARALLAX_BENCH_PEER_STEPS ?? '10,100').split(',').map(Number);
  const rounds = Number(process.env.PARALLAX_BENCH_PEER_ROUNDS ?? 2);
  console.log(
    `the loop's own overhead per step: (wall − time in the scripted server) ÷ N, medians; load average ${load()}`,
  );
  await peerLoop(steps, rounds);
}
