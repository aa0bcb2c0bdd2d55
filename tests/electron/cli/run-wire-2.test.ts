/**
 * The real CLI (`parallax run --mode … --base-url <replay> [--protocol anthropic] --api-key-env VAR`) against every
 * round-two wire shape, in ReAct, Code Mode and ReAct (text): the event log must hold what the wire said (the same
 * judge as the host + worker test), the exit code must say whether the run answered, and the key appears nowhere
 * in the output.
 */
import { spawn } from 'node:child_process';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { StepEvent } from '../../../shared/step-event.js';
import { startReplayServer } from '../../helpers/replay-server.js';
import { TASK, WORKSPACE_FILES } from '../../helpers/wire-shapes.js';
import { WIRE_SHAPES_2 } from '../../helpers/wire-shapes-2.js';
import { judge } from '../host/provider-wire-2.test.js';

const KEY = 'sk-replay-cli2-1a2b3c4d5e';
const BIN = join(process.cwd(), 'bin/parallax.js');
const dirs: string[] = [];
afterAll(() => Promise.all(dirs.map((d) => rm(d, { recursive: true, force: true }))));

function exec(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((done) => {
    const child = spawn(process.execPath, [BIN, ...args], { env: { ...process.env, PARALLAX_FROM_SOURCE: '1', REPLAY_KEY_2: KEY }, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '', stderr = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    child.on('close', (code) => done({ code, stdout, stderr }));
  });
}

describe.concurrent('parallax run against round-two provider shapes', { timeout: 240_000 }, () => {
  for (const shape of WIRE_SHAPES_2) {
    for (const family of shape.families) {
      it(`${shape.name} in ${family}`, async () => {
        const { replies, expect: want } = shape.build(family);
        const server = await startReplayServer(replies);
        const dir = await mkdtemp(join(tmpdir(), 'parallax-cli-wire2-'));
        dirs.push(dir);
        const ws = join(dir, 'ws');
        await mkdir(ws);
        for (const [f, text] of Object.entries(WORKSPACE_FILES)) await writeFile(join(ws, f), text);
        const log = join(dir, 'events.jsonl');
        try {
          const r = await exec([
            'run', '--task', TASK, '--mode', family, '--workspace', ws, '--base-url', server.url, '--model', 'replay', '--max-steps', '4',
            '--api-key-env', 'REPLAY_KEY_2', '--events', log, '--json', '--settings', '{"maxRetries":1}',
            ...(shape.protocol === 'anthropic' ? ['--protocol', 'anthropic'] : []),
          ]);
          const text = await readFile(log, 'utf8');
          expect(r.stdout + r.stderr + text).not.toContain(KEY);
          const events = text.trim().split('\n').map((l) => JSON.parse(l) as StepEvent);
          const reqs = server.chatRequests();
          judge(events, reqs.length, reqs[1], want);
          expect(r.code).toBe(want.status === 'answered' ? 0 : 1);
          expect((JSON.parse(r.stdout) as { status: string }).status).toBe(want.status);
        } finally {
          await server.close();
        }
      });
    }
  }

  it('--protocol needs --base-url, and a preset at another URL is told the CLI flags to use', async () => {
    const a = await exec(['run', '--task', 'calc', '--protocol', 'anthropic']);
    expect(a.code).not.toBe(0);
    expect(a.stderr).toMatch(/--protocol goes with --base-url/);
    const b = await exec(['run', '--task', 'calc', '--provider', 'anthropic', '--base-url', 'https://gateway.example.com/v1']);
    expect(b.code).not.toBe(0);
    expect(b.stderr).toMatch(/drop --provider anthropic and pass --base-url https:\/\/gateway\.example\.com\/v1 --protocol anthropic --api-key-env VAR/);
    expect(b.stderr).toMatch(/Flag to fix: --base-url\./);
    expect(b.stderr).not.toMatch(/Custom base URL|Field to fix/);
  });

  it('refuses a misspelt --settings key and a mistyped task id, each with a suggestion', async () => {
    const s = await exec(['run', '--task', 'calc', '--settings', '{"maxStep":1}']);
    expect(s.code).not.toBe(0);
    expect(s.stderr).toMatch(/Unknown key in settings: "maxStep" \(did you mean "maxSteps"\?\)\. Valid settings: .*maxSteps/);
    const t = await exec(['run', '--task', 'log-stat']);
    expect(t.code).not.toBe(0);
    expect(t.stderr).toMatch(/"log-stat" is not a built-in task \(did you mean "log-stats"\?\)\. Built-in tasks: .*calc/);
  });
});
