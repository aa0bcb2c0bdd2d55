import { existsSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { findTool, invokeTool, sanitizedShellEnv } from '../../../../electron/engine/tools/index.js';
import type { ShellResult } from '../../../../electron/engine/tools/run-shell.js';
import { ToolError } from '../../../../electron/engine/tools/tool.js';
import { runShellCommand } from '../../../../electron/engine/sandbox/shell-runner.js';
import { shellSandbox } from '../../../../electron/engine/sandbox/shell-sandbox.js';
import { killAll, noneLeft, processesWith, uniqueSleep } from '../sandbox/shell-helpers.js';
import { contextFor, tempWorkspace, type TempWorkspace } from './helpers.js';

let ws: TempWorkspace;
beforeEach(() => {
  ws = tempWorkspace();
});
afterEach(() => ws.cleanup());

const shell = findTool('run_shell')!;
const run = (command: string, limits?: Parameters<typeof contextFor>[1], signal?: AbortSignal) =>
  invokeTool(shell, { command }, contextFor(ws.root, limits, signal)) as Promise<ShellResult>;

describe('run_shell', () => {
  it('runs in the workspace and returns exit code, stdout and stderr', async () => {
    writeFileSync(path.join(ws.root, 'one.txt'), 'a\nb\n');
    const result = await run('pwd; wc -l < one.txt; echo oops >&2; exit 3');
    expect(result).toEqual({ exitCode: 3, stdout: `${ws.root}\n2\n`, stderr: 'oops\n', timedOut: false });
    // In the sandbox the home is an empty folder of its private /tmp; without one, the workspace.
    expect((await run('echo "$HOME"')).stdout).toBe(
      shellSandbox().kind === 'bubblewrap' ? '/tmp/home\n' : `${ws.root}\n`,
    );
  });

  it('keeps API keys and secrets out of the environment', async () => {
    const saved = { ...process.env };
    Object.assign(process.env, {
      OPENAI_API_KEY: 'sk-test',
      PARALLAX_SECRET_TOKEN: 'x',
      DEEPSEEK_API_KEY: 'dk',
      AWS_SECRET_ACCESS_KEY: 'aws',
      MY_PASSWORD: 'pw',
    });
    try {
      const { stdout } = await run('env');
      for (const leaked of [
        'OPENAI_API_KEY',
        'sk-test',
        'PARALLAX_SECRET_TOKEN',
        'DEEPSEEK_API_KEY',
        'AWS_SECRET',
        'MY_PASSWORD',
      ]) {
        expect(stdout).not.toContain(leaked);
      }
      expect(stdout).toMatch(/^PATH=/m);
    } finally {
      process.env = saved;
    }
  });

  it('times out fast and kills everything the command started, background children too', async () => {
    const token = uniqueSleep();
    // The sleeps last 300 s or more: only the 0.3 s limit can end the command within the test's own timeout.
    const result = await run(`sleep ${token} & sleep ${token}`, { shellTimeoutMs: 300 });
    expect(result.timedOut).toBe(true);
    expect(result.exitCode).toBeNull();
    expect(result.stderr).toContain('ran longer than 0.3 s');
    const left = await noneLeft(token);
    killAll(left);
    expect(left).toEqual([]);
  });

  it('stops background processes left behind when the command ends', async () => {
    const token = uniqueSleep();
    const result = await run(`sleep ${token} & echo started`);
    expect(result).toMatchObject({ exitCode: 0, stdout: 'started\n' });
    const left = await noneLeft(token);
    killAll(left);
    expect(left).toEqual([]);
  });

  it('caps each stream with a marker that says how much was dropped', async () => {
    const result = await run('head -c 5000 /dev/zero | tr "\\0" a; head -c 300 /dev/zero | tr "\\0" b >&2', {
      shellOutputBytes: 1000,
    });
    expect(result.stdout.startsWith('a'.repeat(1000) + '\n[output truncated: 4000 more bytes not shown')).toBe(true);
    expect(result.stderr).toBe('b'.repeat(300));
  });

  it('has no stdin: a command reading input gets end-of-file', async () => {
    expect((await run('cat; echo done')).stdout).toBe('done\n');
  });

  it('is cancelled by the run signal, which kills the command', async () => {
    const controller = new AbortController();
    const token = uniqueSleep(); // 300 s or more: only the cancel can end it within the test's own timeout
    const pending = run(`echo $$ > sh.pid; sleep ${token}`, undefined, controller.signal);
    const pidFile = path.join(ws.root, 'sh.pid');
    while (!existsSync(pidFile)) await new Promise((r) => setTimeout(r, 10));
    expect(processesWith(token).length).toBeGreaterThan(0);
    controller.abort();
    const error = await pending.catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ToolError);
    expect((error as Error).message).toContain('cancelled');
    // Killed, not abandoned: its sleep is gone too.
    const left = await noneLeft(token);
    killAll(left);
    expect(left).toEqual([]);
  });
  it('is cancelled in its first milliseconds, again and again: every call ends and leaves nothing running', async () => {
    // bubblewrap's first child makes a session of its own before it asks to die with its parent: a cancel in that
    // window once left it alive, holding the output pipes, and the call never ended.
    const token = uniqueSleep();
    for (let i = 0; i < 24; i++) {
      const controller = new AbortController();
      const pending = run(`sleep ${token}`, undefined, controller.signal).catch((e: unknown) => e);
      // Cancelled as soon as the sandbox (whose command line holds the token) is seen, or up to 5 ms later.
      while (processesWith(token).length === 0) await new Promise((r) => setImmediate(r));
      if (i % 3 > 0) await new Promise((r) => setTimeout(r, i % 6));
      controller.abort();
      const error = await pending;
      expect((error as Error).message).toContain('cancelled');
    }
    const left = await noneLeft(token);
    killAll(left);
    expect(left).toEqual([]);
  });
});

describe('without an OS sandbox (macOS, Windows, no bubblewrap): the fallback still limits what it can', () => {
  const none = { kind: 'none' as const, reason: 'test', prlimit: shellSandbox().prlimit };
  const limits = {
    timeoutMs: 5000,
    outputBytes: 4096,
    maxProcesses: 20,
    fileBytes: 1024,
    writeBudgetBytes: 1024,
    tmpBytes: 1024,
  };
  const direct = (command: string) =>
    runShellCommand(command, {
      workspace: ws.root,
      env: { PATH: '/usr/bin:/bin' },
      limits,
      signal: new AbortController().signal,
      sandbox: none,
    });

  it('a process group kill takes background children down when the command ends', async () => {
    const token = uniqueSleep();
    expect((await direct(`sleep ${token} & echo $HOME`)).stdout).toBe(`${ws.root}\n`);
    const left = await noneLeft(token);
    killAll(left);
    expect(left).toEqual([]);
  });

  it('a command starting 200 processes is stopped by the process watchdog', async () => {
    const token = uniqueSleep();
    const result = await direct(`i=0; while [ $i -lt 200 ]; do sleep ${token} & i=$((i+1)); done; wait`);
    expect(result.stop).toBe('processes');
    const left = await noneLeft(token);
    killAll(left);
    expect(left).toEqual([]);
  });

  it.runIf(none.prlimit !== null)('the file-size limit holds (prlimit)', async () => {
    const result = await direct('head -c 100000 /dev/zero > big; wc -c < big');
    expect(Number(result.stdout.trim())).toBeLessThanOrEqual(1024);
  });
});

describe('sanitizedShellEnv', () => {
  it('keeps only allowlisted variables and fills defaults', () => {
    const env = sanitizedShellEnv({
      PATH: '/bin',
      LANG: 'en_US.UTF-8',
      OPENAI_API_KEY: 'sk',
      GITHUB_TOKEN: 'g',
      HOME: '/home/me',
      NODE_OPTIONS: '--x',
      TZ: 'UTC',
    });
    expect(env).toEqual({
      PATH: '/bin',
      LANG: 'en_US.UTF-8',
      TZ: 'UTC',
      TERM: 'dumb',
      NO_COLOR: '1',
      PAGER: 'cat',
      GIT_PAGER: 'cat',
      SHELL: '/bin/sh',
    });
    expect(sanitizedShellEnv({}).PATH).toContain('/usr/bin');
    expect(sanitizedShellEnv({}).LANG).toBe('C.UTF-8');
  });
});
