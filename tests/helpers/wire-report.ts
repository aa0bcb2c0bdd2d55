/**
 * Prints what `parallax run` records for every replayed wire shape, as a Markdown table: status, the tool calls
 * recorded, each step's usage and its source, what went back to the provider, and the error shown.
 *
 *   npx tsx tests/helpers/wire-report.ts [--cli path/to/electron/cli/main.(ts|js)] [--timeout-s 120] [--stall-timeout-s 30]
 *
 * `--cli` points at another checkout's CLI (source or built), to compare two versions on the same replies.
 * A run still going after the timeout is reported as hung (stall shapes get their own, shorter timeout).
 */
import { spawn } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { StepEvent } from '../../shared/step-event.js';
import { startReplayServer, type ReplayReply } from './replay-server.js';
import { TASK, WIRE_SHAPES, WORKSPACE_FILES, type WireShape } from './wire-shapes.js';
import { FAILURE_SHAPES, STALL_SHAPES, STATUS_SHAPES, okText } from './wire-failures.js';

const args = process.argv.slice(2);
const opt = (name: string) => (args.includes(name) ? args[args.indexOf(name) + 1] : undefined);
const cli = resolve(opt('--cli') ?? fileURLToPath(new URL('../../electron/cli/main.ts', import.meta.url)));
const timeoutMs = Number(opt('--timeout-s') ?? 120) * 1000;
const stallTimeoutMs = Number(opt('--stall-timeout-s') ?? 30) * 1000;

function runCli(
  argv: string[],
  limitMs = timeoutMs,
): Promise<{ code: number | null; stdout: string; stderr: string; ms: number; killed: boolean }> {
  const t0 = Date.now();
  return new Promise((done) => {
    const child = spawn(process.execPath, [...(cli.endsWith('.ts') ? ['--import', 'tsx'] : []), cli, ...argv], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '',
      stderr = '',
      killed = false;
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    const timer = setTimeout(() => {
      killed = true;
      child.kill('SIGKILL');
    }, limitMs);
    child.on('close', (code) => {
      clearTimeout(timer);
      done({ code, stdout, stderr, ms: Date.now() - t0, killed });
    });
  });
}

let supportsSettings: boolean | null = null;

async function record(replies: readonly ReplayReply[], settings: Record<string, unknown>, limitMs = timeoutMs) {
  const server = await startReplayServer(replies);
  const dir = await mkdtemp(join(tmpdir(), 'parallax-wire-'));
  try {
    for (const [f, text] of Object.entries(WORKSPACE_FILES)) await writeFile(join(dir, f), text);
    const events = join(dir, 'events.jsonl');
    if (supportsSettings === null) supportsSettings = (await runCli(['run', '--help'])).stdout.includes('--settings');
    const r = await runCli(
      [
        'run',
        '--task',
        TASK,
        '--workspace',
        dir,
        '--base-url',
        server.url,
        '--model',
        'replay',
        '--max-steps',
        '4',
        '--json',
        '--events',
        events,
        ...(supportsSettings ? ['--settings', JSON.stringify(settings)] : []),
      ],
      limitMs,
    );
    const log = await readFile(events, 'utf8').catch(() => '');
    const evs = log.trim()
      ? log
          .trim()
          .split('\n')
          .map((l) => JSON.parse(l) as StepEvent)
      : [];
    return { r, evs, server };
  } finally {
    await server.close();
    await rm(dir, { recursive: true, force: true });
  }
}

const cell = (s: string) => s.replace(/\|/g, '\\|').replace(/\n/g, ' ');
const short = (s: string, n = 90) => (s.length > n ? `${s.slice(0, n)}…` : s);

function usageCell(evs: StepEvent[]): string {
  return (
    evs
      .flatMap((e) => {
        if (e.type !== 'model-response') return [];
        const src = e.usageSource ?? (e.usage ? 'reported?' : 'none');
        if (!e.usage) return [`null (${src})`];
        const u = e.usage as unknown as Record<string, number>;
        return [
          `${Object.entries(u)
            .map(([k, v]) => `${k} ${v}`)
            .join(', ')} (${src})`,
        ];
      })
      .join(' / ') || '—'
  );
}

function callsCell(evs: StepEvent[]): string {
  const calls = evs.flatMap((e) => (e.type === 'model-response' ? e.toolCalls : []));
  return calls.map((c) => `${c.name}(${c.arguments}) #${c.id}`).join('; ') || 'none';
}

async function successRow(shape: WireShape): Promise<string> {
  const { r, evs, server } = await record(shape.replies, {});
  const fin = evs.find((e) => e.type === 'run-finished');
  const second = server.chatRequests()[1];
  const roundTrip = shape.expect.roundTrip ? (second ? shape.expect.roundTrip(second) : ['no second request']) : [];
  const status =
    fin?.type === 'run-finished'
      ? `${fin.status}${fin.error ? `: ${short(fin.error, 80)}` : ''}`
      : r.killed
        ? `hung (killed after ${timeoutMs / 1000} s)`
        : `exit ${r.code}`;
  return `| ${shape.name} | ${cell(status)} | ${cell(callsCell(evs))} | ${cell(usageCell(evs))} | ${cell(roundTrip.length ? roundTrip.join('; ') : shape.expect.roundTrip ? 'ok' : '—')} |`;
}

async function failureRow(
  name: string,
  replies: readonly ReplayReply[],
  settings: Record<string, unknown>,
  limitMs = timeoutMs,
): Promise<string> {
  const { r, evs, server } = await record(replies, settings, limitMs);
  const fin = evs.find((e) => e.type === 'run-finished');
  const retries = evs.filter((e) => e.type === 'model-retry').length;
  const status =
    fin?.type === 'run-finished'
      ? `${fin.status} after ${server.chatRequests().length} request(s), ${retries} retr${retries === 1 ? 'y' : 'ies'}`
      : r.killed
        ? `hung (killed after ${limitMs / 1000} s)`
        : `exit ${r.code}`;
  const msg =
    fin?.type === 'run-finished'
      ? (fin.error ?? (fin.answer ? `answer: ${fin.answer}` : ''))
      : short(r.stderr.trim(), 120);
  return `| ${name} | ${cell(status)} | ${cell(short(msg, 160))} | ${(r.ms / 1000).toFixed(1)} s |`;
}

console.log(`CLI: ${cli}\n`);
console.log(
  '| shape | status | tool calls recorded | usage per step (source) | sent back on request 2 |\n|---|---|---|---|---|',
);
for (const s of WIRE_SHAPES) console.log(await successRow(s));

console.log('\n| failure | outcome | message | time |\n|---|---|---|---|');
const fast = { maxRetries: 1, streamIdleTimeoutMs: 2000, requestDeadlineMs: 6000 };
for (const f of FAILURE_SHAPES) console.log(await failureRow(f.name, f.replies, fast));
for (const [name, reply] of Object.entries(STALL_SHAPES))
  console.log(await failureRow(name, [reply, okText()], { ...fast, maxRetries: 0 }, stallTimeoutMs));

console.log('\n| status reply | outcome | message | time |\n|---|---|---|---|');
for (const s of STATUS_SHAPES) console.log(await failureRow(s.name, s.replies, { maxRetries: 1 }));
