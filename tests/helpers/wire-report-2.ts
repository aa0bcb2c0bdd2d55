/**
 * Prints what `parallax run` records for every round-two wire shape (tests/helpers/wire-shapes-2.ts) in each
 * mode it applies to, as a Markdown table: outcome, step 1's usage and its source, the calls, the refusal text
 * on the event, and whether that is what the wire said.
 *
 *   npx tsx tests/helpers/wire-report-2.ts [--cli path/to/electron/cli/main.(ts|js)] [--timeout-s 120]
 *
 * `--cli` points at another checkout's CLI, to compare two versions on the same replies.
 */
import { spawn } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ModelResponseEvent, RunFinishedEvent, StepEvent } from '../../shared/step-event.js';
import { startReplayServer } from './replay-server.js';
import { TASK, WORKSPACE_FILES } from './wire-shapes.js';
import { WIRE_SHAPES_2, type Family, type Shape2 } from './wire-shapes-2.js';

const args = process.argv.slice(2);
const opt = (name: string) => (args.includes(name) ? args[args.indexOf(name) + 1] : undefined);
const cli = resolve(opt('--cli') ?? fileURLToPath(new URL('../../electron/cli/main.ts', import.meta.url)));
const timeoutMs = Number(opt('--timeout-s') ?? 120) * 1000;
const KEY = 'sk-report-2';

function runCli(argv: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((done) => {
    const child = spawn(process.execPath, [...(cli.endsWith('.ts') ? ['--import', 'tsx'] : []), cli, ...argv], {
      stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, REPLAY_KEY: KEY },
    });
    let stdout = '', stderr = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.on('close', (code) => { clearTimeout(timer); done({ code, stdout, stderr }); });
  });
}

const cell = (s: string) => s.replace(/\|/g, '\\|').replace(/\n/g, ' ');
const short = (s: string, n = 110) => (s.length > n ? `${s.slice(0, n)}…` : s);

async function row(shape: Shape2, family: Family): Promise<string> {
  const { replies, expect: want } = shape.build(family);
  const server = await startReplayServer(replies);
  const dir = await mkdtemp(join(tmpdir(), 'parallax-wire2-'));
  try {
    for (const [f, text] of Object.entries(WORKSPACE_FILES)) await writeFile(join(dir, f), text);
    const events = join(dir, 'events.jsonl');
    const r = await runCli([
      'run', '--task', TASK, '--mode', family, '--workspace', dir, '--base-url', server.url, '--model', 'replay', '--max-steps', '4',
      '--json', '--events', events, '--settings', '{"maxRetries":1}', '--api-key-env', 'REPLAY_KEY',
      ...(shape.protocol === 'anthropic' ? ['--protocol', 'anthropic'] : []),
    ]);
    const log = await readFile(events, 'utf8').catch(() => '');
    const evs = log.trim() ? log.trim().split('\n').map((l) => JSON.parse(l) as StepEvent) : [];
    const fin = evs.find((e): e is RunFinishedEvent => e.type === 'run-finished');
    const step = evs.find((e): e is ModelResponseEvent => e.type === 'model-response');
    const status = fin ? `${fin.status}${fin.error ? `: ${short(fin.error, 90)}` : fin.answer ? '' : ' (empty answer)'}` : `no run (exit ${r.code}): ${short(r.stderr.trim().split('\n').pop() ?? '', 90)}`;
    const u = step?.usage ? `${Object.entries(step.usage).map(([k, v]) => `${k} ${v}`).join(', ')} (${step.usageSource ?? 'reported'})` : '—';
    const calls = step?.toolCalls.length ? step.toolCalls.map((c) => `${c.name}${c.cut ? ' [cut]' : ''}`).join(', ') : 'none';
    const refusal = step && 'refusal' in step && step.refusal ? `"${short(step.refusal, 40)}"` : '—';
    const ok = fin?.status === want.status && server.chatRequests().length === want.requests ? 'yes' : 'no';
    return `| ${shape.name} | ${family} | ${cell(status)} | ${cell(u)} | ${cell(calls)} | ${cell(refusal)} | ${server.chatRequests().length} | ${ok} |`;
  } finally {
    await server.close();
    await rm(dir, { recursive: true, force: true });
  }
}

console.log(`CLI: ${cli}\n`);
console.log('| shape | mode | outcome | step 1 usage (source) | step 1 calls | refusal on event | requests | right |\n|---|---|---|---|---|---|---|---|');
const jobs = WIRE_SHAPES_2.flatMap((s) => s.families.map((f) => [s, f] as const));
// Two at a time: the machine is shared.
const out: string[] = new Array(jobs.length);
let next = 0;
await Promise.all([0, 1].map(async () => {
  while (next < jobs.length) {
    const i = next++;
    out[i] = await row(jobs[i]![0], jobs[i]![1]);
  }
}));
for (const line of out) console.log(line);
