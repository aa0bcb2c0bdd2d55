/**
 * Prints what `parallax run` records for every round-two wire shape (tests/helpers/wire-shapes-2.ts) in each
 * mode it applies to, as a Markdown table: outcome, step 1's usage and its source, the calls, the refusal text
 * on the event, and whether that is what the wire said.
 *
 *   npx tsx tests/helpers/wire-report-2.ts [--cli path/to/electron/cli/main.(ts|js)] [--timeout-s 120]
 *
 * `--cli` points at another checkout's CLI, to compare two versions on the same replies.
 */
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ModelResponseEvent, RunFinishedEvent } from '../../shared/step-event.js';
import { cliReplay } from './cli-replay.js';
import { WIRE_SHAPES_2, type Family, type Shape2 } from './wire-shapes-2.js';

const args = process.argv.slice(2);
const opt = (name: string) => (args.includes(name) ? args[args.indexOf(name) + 1] : undefined);
const cli = resolve(opt('--cli') ?? fileURLToPath(new URL('../../electron/cli/main.ts', import.meta.url)));
const { run } = cliReplay('sk-report-2', { cli, timeoutMs: Number(opt('--timeout-s') ?? 120) * 1000 });

const cell = (s: string) => s.replace(/\|/g, '\\|').replace(/\n/g, ' ');
const short = (s: string, n = 110) => (s.length > n ? `${s.slice(0, n)}…` : s);

async function row(shape: Shape2, family: Family): Promise<string> {
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
  const step = r.events.find((e): e is ModelResponseEvent => e.type === 'model-response');
  const status = fin
    ? `${fin.status}${fin.error ? `: ${short(fin.error, 90)}` : fin.answer ? '' : ' (empty answer)'}`
    : `no run (exit ${r.code}): ${short(r.stderr.trim().split('\n').pop() ?? '', 90)}`;
  const u = step?.usage
    ? `${Object.entries(step.usage)
        .map(([k, v]) => `${k} ${v}`)
        .join(', ')} (${step.usageSource ?? 'reported'})`
    : '—';
  const calls = step?.toolCalls.length
    ? step.toolCalls.map((c) => `${c.name}${c.cut ? ' [cut]' : ''}`).join(', ')
    : 'none';
  const refusal = step && 'refusal' in step && step.refusal ? `"${short(step.refusal, 40)}"` : '—';
  const requests = r.server.chatRequests().length;
  const ok = fin?.status === want.status && requests === want.requests ? 'yes' : 'no';
  return `| ${shape.name} | ${family} | ${cell(status)} | ${cell(u)} | ${cell(calls)} | ${cell(refusal)} | ${requests} | ${ok} |`;
}

console.log(`CLI: ${cli}\n`);
console.log(
  '| shape | mode | outcome | step 1 usage (source) | step 1 calls | refusal on event | requests | right |\n|---|---|---|---|---|---|---|---|',
);
const jobs = WIRE_SHAPES_2.flatMap((s) => s.families.map((f) => [s, f] as const));
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
