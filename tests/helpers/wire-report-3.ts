/**
 * Prints what `parallax run` records for every round-three wire shape (tests/helpers/wire-shapes-3.ts,
 * wire-shapes-3-anthropic.ts and wire-shapes-3-filtered.ts) in each mode it applies to, as a Markdown table: outcome, the cost and reasoning
 * recorded, what differs from what the wire said (and what went back on the next request), and whether that is right.
 *
 *   npx tsx tests/helpers/wire-report-3.ts [--cli path/to/electron/cli/main.(ts|js)] [--timeout-s 120]
 *
 * `--cli` points at another checkout's CLI, to compare two versions on the same replies.
 */
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ModelResponseEvent, RunFinishedEvent } from '../../shared/step-event.js';
import { cliReplay } from './cli-replay.js';
import { problems3 } from './wire-judge-3.js';
import { WIRE_SHAPES_3_OPENAI, type Shape3 } from './wire-shapes-3.js';
import { WIRE_SHAPES_3_ANTHROPIC } from './wire-shapes-3-anthropic.js';
import { WIRE_SHAPES_3_FILTERED } from './wire-shapes-3-filtered.js';
import type { Family } from './wire-shapes-2.js';

const args = process.argv.slice(2);
const opt = (name: string) => (args.includes(name) ? args[args.indexOf(name) + 1] : undefined);
const cli = resolve(opt('--cli') ?? fileURLToPath(new URL('../../electron/cli/main.ts', import.meta.url)));
const { run } = cliReplay('sk-report-3', { cli, timeoutMs: Number(opt('--timeout-s') ?? 120) * 1000 });

const cell = (s: string) => s.replace(/\|/g, '\\|').replace(/\n/g, ' ');
const short = (s: string, n = 90) => (s.length > n ? `${s.slice(0, n)}…` : s);

async function row(shape: Shape3, family: Family): Promise<string> {
  const { replies, expect: want } = shape.build(family);
  const r = await run(replies, [
    '--mode',
    family,
    '--max-steps',
    '4',
    '--json',
    '--settings',
    '{"maxRetries":1}',
    ...(shape.protocol === 'anthropic' ? ['--protocol', 'anthropic'] : []),
  ]);
  const fin = r.events.find((e): e is RunFinishedEvent => e.type === 'run-finished');
  const steps = r.events.filter((e): e is ModelResponseEvent => e.type === 'model-response');
  const status = fin
    ? `${fin.status}${fin.status === 'answered' ? (fin.answer ? '' : ' with ""') : fin.error ? `: ${short(fin.error, 70)}` : ''}`
    : `no run (exit ${r.code}): ${short(r.stderr.trim().split('\n').pop() ?? '', 70)}`;
  const costs = steps.map((s) => (s.usage?.cost !== undefined ? `$${s.usage.cost}` : '—')).join(' / ') || '—';
  const reasoning = steps.some((s) => s.reasoningText)
    ? steps.map((s) => (s.reasoningText ? `${s.reasoningText.length} ch` : '—')).join(' / ')
    : 'none';
  const problems = fin ? problems3(r.events, r.server.chatRequests(), want) : ['no run'];
  return `| ${shape.name} | ${family} | ${cell(status)} | ${cell(costs)} | ${reasoning} | ${r.server.chatRequests().length} | ${problems.length ? cell(short(problems.join('; '), 160)) : 'right'} |`;
}

console.log(`CLI: ${cli}\n`);
console.log(
  '| shape | mode | outcome | cost per step | reasoning per step | requests | recorded and sent back |\n|---|---|---|---|---|---|---|',
);
const jobs = [...WIRE_SHAPES_3_OPENAI, ...WIRE_SHAPES_3_ANTHROPIC, ...WIRE_SHAPES_3_FILTERED].flatMap((s) =>
  s.families.map((f) => [s, f] as const),
);
// Two at a time: the machine is shared.
const out: string[] = new Array(jobs.length);
let next = 0;
await Promise.all(
  [0, 1].map(async () => {
    while (next < jobs.length) {
      const i = next++;
      out[i] = await row(jobs[i]![0], jobs[i]![1]);
    }
  }),
);
for (const line of out) console.log(line);
