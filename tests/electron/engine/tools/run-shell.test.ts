import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { findTool, invokeTool, sanitizedShellEnv } from '../../../../electron/engine/tools/index.js';
import type { ShellResult } from '../../../../electron/engine/tools/run-shell.js';
import { ToolError } from '../../../../electron/engine/tools/tool.js';
import { contextFor, tempWorkspace, type TempWorkspace } from './helpers.js';

let ws: TempWorkspace;
beforeEach(() => {
  ws = tempWorkspace();
});
afterEach(() => ws.cleanup());

const shell = findTool('run_shell')!;
const run = (command: string, limits?: Parameters<typeof contextFor>[1], signal?: AbortSignal) =>
  invokeTool(shell, { command }, contextFor(ws.root, limits, signal)) as Promise<ShellResult>;

/** Whether a process with this pid is still running (a killed process may linger as a zombie until reaped). */
function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return !/^\d+ \(.*\) Z/.test(stat);
  } catch {
    return false;
  }
}

/** A killed process closes its pipes a moment before it turns into a zombie; wait out that moment. */
async function diesSoon(pid: number): Promise<boolean> {
  for (let i = 0; i < 200 && alive(pid); i++) await new Promise((r) => setTimeout(r, 5));
  return !alive(pid);
}

describe('run_shell', () => {
  it('runs in the workspace and returns exit code, stdout and stderr', async () => {
    writeFileSync(path.join(ws.root, 'one.txt'), 'a\nb\n');
    const result = await run('pwd; wc -l < one.txt; echo oops >&2; exit 3');
    expect(result).toEqual({ exitCode: 3, stdout: `${ws.root}\n2\n`, stderr: 'oops\n', timedOut: false });
    expect((await run('echo "$HOME"')).stdout).toBe(`${ws.root}\n`);
  });

  it('keeps API keys and secrets out of the environment', async () => {
    const saved = { ...process.env };
    Object.assign(process.env, { OPENAI_API_KEY: 'sk-test', PARALLAX_SECRET_TOKEN: 'x', DEEPSEEK_API_KEY: 'dk', AWS_SECRET_ACCESS_KEY: 'aws', MY_PASSWORD: 'pw' });
    try {
      const { stdout } = await run('env');
      for (const leaked of ['OPENAI_API_KEY', 'sk-test', 'PARALLAX_SECRET_TOKEN', 'DEEPSEEK_API_KEY', 'AWS_SECRET', 'MY_PASSWORD']) {
        expect(stdout).not.toContain(leaked);
      }
      expect(stdout).toMatch(/^PATH=/m);
    } finally {
      process.env = saved;
    }
  });

  it('times out fast and kills the whole process group, background children too', async () => {
    const pidFile = path.join(ws.root, 'child.pid');
    const started = Date.now();
    const result = await run(`sleep 30 & echo $! > child.pid; sleep 30`, { shellTimeoutMs: 300 });
    expect(Date.now() - started).toBeLessThan(5000);
    expect(result.timedOut).toBe(true);
    expect(result.exitCode).toBeNull();
    expect(result.stderr).toContain('ran longer than 0.3 s');
    const childPid = Number(readFileSync(pidFile, 'utf8'));
    expect(await diesSoon(childPid)).toBe(true);
  });

  it('stops background processes left behind when the command ends', async () => {
    const result = await run('sleep 30 & echo $!');
    const pid = Number(result.stdout.trim());
    expect(result.exitCode).toBe(0);
    expect(await diesSoon(pid)).toBe(true);
  });

  it('caps each stream with a marker that says how much was dropped', async () => {
    const result = await run('head -c 5000 /dev/zero | tr "\\0" a; head -c 300 /dev/zero | tr "\\0" b >&2', { shellOutputBytes: 1000 });
    expect(result.stdout.startsWith('a'.repeat(1000) + '\n[output truncated: 4000 more bytes not shown')).toBe(true);
    expect(result.stderr).toBe('b'.repeat(300));
  });

  it('has no stdin: a command reading input gets end-of-file', async () => {
    expect((await run('cat; echo done')).stdout).toBe('done\n');
  });

  it('is cancelled by the run signal, which kills the command', async () => {
    const controller = new AbortController();
    const started = Date.now();
    const pending = run('echo $$ > sh.pid; sleep 30', undefined, controller.signal);
    const pidFile = path.join(ws.root, 'sh.pid');
    while (!existsSync(pidFile)) await new Promise((r) => setTimeout(r, 10));
    controller.abort();
    const error = await pending.catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ToolError);
    expect((error as Error).message).toContain('cancelled');
    expect(Date.now() - started).toBeLessThan(5000);
  });
});

describe('sanitizedShellEnv', () => {
  it('keeps only allowlisted variables and fills defaults', () => {
    const env = sanitizedShellEnv({ PATH: '/bin', LANG: 'en_US.UTF-8', OPENAI_API_KEY: 'sk', GITHUB_TOKEN: 'g', HOME: '/home/me', NODE_OPTIONS: '--x', TZ: 'UTC' });
    expect(env).toEqual({ PATH: '/bin', LANG: 'en_US.UTF-8', TZ: 'UTC', TERM: 'dumb', NO_COLOR: '1', PAGER: 'cat', GIT_PAGER: 'cat', SHELL: '/bin/sh' });
    expect(sanitizedShellEnv({}).PATH).toContain('/usr/bin');
    expect(sanitizedShellEnv({}).LANG).toBe('C.UTF-8');
  });
});
