/**
 * run_shell in bubblewrap, attacked as a model that writes the commands would: read the parent's environment
 * and memory, escape the kill with setsid / double fork / nohup, reach the network, read the user's files, hard
 * link an outside file into the workspace, fill the disk or memory, fork without end. What must not happen is
 * written beside each attack. Skipped where bubblewrap cannot run (the capability check says why).
 */
import { execFile, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createRequire } from 'node:module';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { existsSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { detectShellSandbox, shellSandbox } from '../../../../electron/engine/sandbox/shell-sandbox.js';
import { findTool, invokeTool } from '../../../../electron/engine/tools/index.js';
import type { ShellResult } from '../../../../electron/engine/tools/run-shell.js';
import { contextFor, tempWorkspace, type TempWorkspace } from '../tools/helpers.js';
import { killAll, noneLeft, processesWith, uniqueSleep } from './shell-helpers.js';

const sandboxed = shellSandbox().kind === 'bubblewrap';
const tsx = pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href;
const probe = fileURLToPath(new URL('./shell-probe.ts', import.meta.url));

let ws: TempWorkspace;
beforeEach(() => {
  ws = tempWorkspace();
  writeFileSync(path.join(ws.outside, 'secret.txt'), 'TOP SECRET');
});
afterEach(() => ws.cleanup());

const run = (command: string, limits?: Parameters<typeof contextFor>[1]) =>
  invokeTool(findTool('run_shell')!, { command }, contextFor(ws.root, limits)) as Promise<ShellResult>;

describe('the capability check', () => {
  it('names the reason when there is no sandbox: other systems, bubblewrap missing, namespaces refused', () => {
    expect(detectShellSandbox({ platform: 'darwin' })).toMatchObject({ kind: 'none', reason: expect.stringContaining('macOS') });
    expect(detectShellSandbox({ platform: 'win32' }).reason).toContain('Windows');
    const missing = detectShellSandbox({ platform: 'linux', bwrap: null });
    expect(missing.kind).toBe('none');
    expect(missing.reason).toContain('Install the "bubblewrap" package');
    // A "bubblewrap" that cannot create namespaces (here: a binary that always fails) is detected, not trusted.
    const broken = detectShellSandbox({ platform: 'linux', bwrap: '/bin/false' });
    expect(broken.kind).toBe('none');
    expect(broken.reason).toContain('cannot create namespaces');
  });

  it('PARALLAX_SANDBOX=off turns bubblewrap off as if it were missing, and says how to turn it back on', () => {
    const off = detectShellSandbox({ platform: 'linux', env: { PARALLAX_SANDBOX: 'off' } });
    expect(off).toMatchObject({ kind: 'none', reason: expect.stringContaining('Remove PARALLAX_SANDBOX=off') });
    expect(detectShellSandbox({ platform: 'linux', env: { PARALLAX_SANDBOX: ' OFF ' } }).kind).toBe('none');
    if (process.platform === 'linux' && detectShellSandbox().kind === 'bubblewrap') {
      expect(detectShellSandbox({ platform: 'linux', env: { PARALLAX_SANDBOX: 'on' } }).kind).toBe('bubblewrap');
    }
  });

  it('finds bubblewrap on this Linux machine (installed by .ci/run)', () => {
    if (process.platform !== 'linux') return;
    expect(shellSandbox()).toMatchObject({ kind: 'bubblewrap', reason: expect.stringContaining('no network') });
  });
});

describe.runIf(sandboxed)('run_shell in bubblewrap', () => {
  it('tr "\\0" "\\n" </proc/$PPID/environ, and every other /proc entry: no secret of the worker or the host', async () => {
    const canary = `sk-canary-${randomBytes(6).toString('hex')}`;
    const command = [
      'echo "ppid=$PPID"',
      'tr "\\0" "\\n" </proc/$PPID/environ',
      'for p in /proc/[0-9]*; do tr "\\0" "\\n" <$p/environ; tr "\\0" " " <$p/cmdline; echo; done 2>/dev/null',
      'ls /proc | grep -c "^[0-9]"',
      'head -c 4096 /proc/1/mem >/dev/null 2>&1 && echo mem-readable || echo mem-refused',
    ].join('; ');
    const stdout = await new Promise<string>((resolve, reject) =>
      execFile(process.execPath, ['--import', tsx, probe, ws.root, command], { env: { ...process.env, OPENAI_API_KEY: canary, PARALLAX_TEST_SECRET: canary } }, (error, out) =>
        error ? reject(error) : resolve(out),
      ),
    );
    const result = JSON.parse(stdout) as ShellResult;
    expect(result.stdout).toContain('ppid=1'); // its parent is the namespace's init, not the worker
    expect(result.stdout).not.toContain(canary);
    expect(result.stdout).not.toContain('OPENAI_API_KEY');
    expect(result.stdout).not.toMatch(/node|vitest|tsx/); // no process of the host or the worker is visible
    const visible = Number(/^(\d+)$/m.exec(result.stdout.split('\n').slice(-3).join('\n'))?.[1]);
    expect(visible).toBeLessThan(8);
  });

  it('setsid -f, a double fork and nohup … &: nothing is left once the call returns', async () => {
    const token = uniqueSleep();
    const result = await run(`setsid -f sleep ${token} >/dev/null 2>&1; (sleep ${token} &) ; nohup sleep ${token} >/dev/null 2>&1 & echo started`);
    expect(result.stdout).toBe('started\n');
    const left = await noneLeft(token);
    killAll(left);
    expect(left).toEqual([]);
  });

  it('a command that escapes with setsid and never ends is killed at the deadline, escapee included', async () => {
    const token = uniqueSleep();
    const started = Date.now();
    const result = await run(`setsid -f sleep ${token}; sleep ${token}`, { shellTimeoutMs: 500 });
    expect(result.timedOut).toBe(true);
    expect(result.stderr).toContain('ran longer than 0.5 s');
    expect(Date.now() - started).toBeLessThan(4000);
    const left = await noneLeft(token);
    killAll(left);
    expect(left).toEqual([]);
  });

  it('the worker dies mid-command (kill -9): the sandbox and the process that escaped with setsid die with it', async () => {
    const token = uniqueSleep();
    const child = spawn(process.execPath, ['--import', tsx, probe, ws.root, `setsid -f sleep ${token}; sleep ${token}`], { stdio: 'ignore' });
    const until = Date.now() + 30_000;
    const sleeps = (): number[] => processesWith(token).filter((pid) => readFileSync(`/proc/${pid}/cmdline`, 'utf8').startsWith('sleep\0'));
    while (sleeps().length < 2 && Date.now() < until) await new Promise((r) => setTimeout(r, 50));
    expect(sleeps()).toHaveLength(2); // the escaped one and the foreground one both run
    child.kill('SIGKILL');
    const left = await noneLeft(token, 5000);
    killAll(left);
    expect(left).toEqual([]);
  });

  it('curl to a server on the host\'s loopback: no connection is made (no network at all)', async () => {
    let connections = 0;
    const server: Server = createServer((_req, res) => res.end('reached'));
    server.on('connection', () => connections++);
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const port = (server.address() as AddressInfo).port;
    try {
      const result = await run(`curl -s -m 2 http://127.0.0.1:${port}/ || echo no-curl-reach; tail -n +3 /proc/net/dev | cut -d: -f1`);
      expect(result.stdout).not.toContain('reached');
      expect(result.stdout).toContain('no-curl-reach');
      expect(result.stdout.trim().split('\n').slice(1).map((s) => s.trim())).toEqual(['lo']); // only its own loopback
      expect(connections).toBe(0);
    } finally {
      server.close();
    }
  });

  it('cat ~/..., ls /home /root, ../outside/secret.txt: the user\'s files and other folders are not there', async () => {
    const result = await run('ls /home /root /run /var 2>&1; cat ../outside/secret.txt 2>&1; echo "home=$HOME"; ls -A ~ | wc -l');
    expect(result.stdout).not.toContain('TOP SECRET');
    expect(result.stdout).toMatch(/\/home.*No such file/);
    expect(result.stdout).toMatch(/\/root.*No such file/);
    expect(result.stdout).toContain('home=/tmp/home');
    expect(result.stdout.trim().endsWith('0')).toBe(true); // a fresh, empty home
  });

  it('ln /etc/hostname and ../outside/secret.txt into the workspace: refused, nothing outside is reachable by link', async () => {
    const result = await run('ln /etc/hostname h 2>&1; ln ../outside/secret.txt s 2>&1; ls');
    expect(result.stdout).toMatch(/Invalid cross-device link|Operation not permitted|No such file/);
    expect(existsSync(path.join(ws.root, 'h'))).toBe(false);
    expect(existsSync(path.join(ws.root, 's'))).toBe(false);
  });

  it('writes outside the workspace fail: system folders and the root are read-only; /tmp is private', async () => {
    const marker = `parallax-${randomBytes(4).toString('hex')}`;
    const result = await run(`touch /usr/${marker} 2>&1; touch /${marker} 2>&1; echo hi > /tmp/${marker} && echo tmp-ok; echo ok > inside.txt`);
    expect(result.stdout.match(/Read-only file system/g)?.length).toBe(2);
    expect(result.stdout).toContain('tmp-ok');
    expect(existsSync(`/tmp/${marker}`)).toBe(false); // the host's /tmp never saw it
    expect(readFileSync(path.join(ws.root, 'inside.txt'), 'utf8')).toBe('ok\n');
  });

  it('head -c 8M into the private /tmp: stopped by its size, not the machine\'s memory', async () => {
    const result = await run('head -c 8388608 /dev/zero > /tmp/fill; wc -c < /tmp/fill', { shellTmpBytes: 1024 * 1024 });
    expect(result.stderr).toMatch(/No space left on device/);
    expect(Number(result.stdout.trim())).toBeLessThanOrEqual(1024 * 1024);
  });

  it('has no controlling terminal to push keystrokes into (TIOCSTI): a session of its own, tty_nr 0', async () => {
    const result = await run('read -r _ _ _ _ _ sid tty _ </proc/$$/stat; echo "sid=$sid tty=$tty"; tty');
    expect(result.stdout).toContain('sid=1 tty=0'); // the sandbox's own session, led by its init
    expect(result.stdout).toContain('not a tty');
  });
});

describe.runIf(sandboxed || process.platform === 'linux')('limits (process count, file size, write budget)', () => {
  it('starting 200 sleeps with a limit of 20 processes: the command is stopped and says why', async () => {
    const token = uniqueSleep();
    const result = await run(`i=0; while [ $i -lt 200 ]; do sleep ${token} & i=$((i+1)); done; wait`, { shellMaxProcesses: 20, shellTimeoutMs: 8000 });
    expect(result.exitCode).toBeNull();
    expect(result.stderr).toContain('started more than 20 processes');
    const left = await noneLeft(token);
    killAll(left);
    expect(left).toEqual([]);
  });

  it('head -c 3M > big with a 1 MB write budget: the file stops at 1 MB, later writes are refused with a clear message', async () => {
    const limits = { workspaceWriteBytes: 1024 * 1024 };
    const result = await run('head -c 3145728 /dev/zero > big; echo "exit=$?"', limits);
    expect(statSync(path.join(ws.root, 'big')).size).toBeLessThanOrEqual(1024 * 1024);
    expect(result.stderr).toContain("workspace write budget of 1 MB is used up");
    const refused = await invokeTool(findTool('write_file')!, { path: 'more.txt', content: 'x'.repeat(10) }, contextFor(ws.root, limits)).catch((e: Error) => e.message);
    expect(refused).toContain("would pass this run's workspace write budget");
    expect(existsSync(path.join(ws.root, 'more.txt'))).toBe(false);
  });
});
