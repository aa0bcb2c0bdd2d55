/**
 * run_shell attacked as a model that writes the commands would, in both Linux configurations: with bubblewrap,
 * and with the OS sandbox switched off by the app's own switch (PARALLAX_SANDBOX=off, as on a Linux without
 * bubblewrap). Each attack says what must not happen. Where a configuration cannot stop an attack (no OS
 * sandbox: /proc of the host, the network, the user's files), the test shows the attack getting through and
 * asserts the one thing that then stands between it and the user: run_shell asks before each command there.
 */
import { execFile, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createRequire } from 'node:module';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { existsSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { defaultApprovalPolicy } from '../../../../shared/approval.js';
import { detectShellSandbox } from '../../../../electron/engine/sandbox/shell-sandbox.js';
import type { ShellSandboxInfo } from '../../../../electron/engine/sandbox/shell-sandbox.js';
import { runShellCommand } from '../../../../electron/engine/sandbox/shell-runner.js';
import type { ShellResult } from '../../../../electron/engine/tools/run-shell.js';
import { contextFor, tempWorkspace, type TempWorkspace } from '../tools/helpers.js';
import { commandLine, killAll, noneLeft, processesWith, uniqueSleep } from './shell-helpers.js';

type Tools = typeof import('../../../../electron/engine/tools/index.js');
const tsx = pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href;
const probe = fileURLToPath(new URL('./shell-probe.ts', import.meta.url));
const linux = process.platform === 'linux';
const bubblewrapHere = linux && detectShellSandbox({ switchedOff: false }).kind === 'bubblewrap';

const CONFIGS = [
  { name: 'with bubblewrap', switchValue: '', contained: true, available: bubblewrapHere },
  {
    name: 'with the OS sandbox switched off (PARALLAX_SANDBOX=off, as without bubblewrap)',
    switchValue: 'off',
    contained: false,
    available: linux,
  },
] as const;

describe.each(CONFIGS)('run_shell $name', ({ switchValue, contained, available }) => {
  let tools: Tools;
  let info: ShellSandboxInfo;
  let ws: TempWorkspace;
  const probeEnv = (extra: Record<string, string> = {}) => ({
    ...process.env,
    PARALLAX_SANDBOX: switchValue,
    ...extra,
  });

  beforeAll(async () => {
    if (!available) return;
    // A fresh copy of the engine that reads the switch the way the app does, at its first shellSandbox().
    const saved = process.env.PARALLAX_SANDBOX;
    process.env.PARALLAX_SANDBOX = switchValue;
    vi.resetModules();
    tools = await import('../../../../electron/engine/tools/index.js');
    info = (await import('../../../../electron/engine/sandbox/shell-sandbox.js')).shellSandbox();
    if (saved === undefined) delete process.env.PARALLAX_SANDBOX;
    else process.env.PARALLAX_SANDBOX = saved;
  });
  beforeEach(() => {
    ws = tempWorkspace();
    writeFileSync(path.join(ws.outside, 'secret.txt'), 'TOP SECRET');
  });
  afterEach(() => ws.cleanup());

  const run = (command: string, limits?: Parameters<typeof contextFor>[1]) =>
    tools.invokeTool(tools.findTool('run_shell')!, { command }, contextFor(ws.root, limits)) as Promise<ShellResult>;
  /** Runs the command in a separate process the way a worker does, with a canary secret in that process's environment. */
  const runInProbe = (command: string, canary: string) =>
    new Promise<ShellResult>((resolve, reject) =>
      execFile(
        process.execPath,
        ['--import', tsx, probe, ws.root, command],
        { env: probeEnv({ OPENAI_API_KEY: canary, PARALLAX_TEST_SECRET: canary }) },
        (error, out) => (error ? reject(error) : resolve(JSON.parse(out) as ShellResult)),
      ),
    );
  /** Where an attack gets through, commands must not run unasked. */
  const asksFirst = () =>
    expect(defaultApprovalPolicy({ shellSandbox: info.kind, userFolder: false }).run_shell).toBe('ask');

  it.runIf(available)('is the configuration it claims to be', () => {
    expect(info.kind).toBe(contained ? 'bubblewrap' : 'none');
    if (!contained) expect(info.reason).toContain('PARALLAX_SANDBOX=off');
  });

  it.runIf(available)(
    "env, printenv, set: the command's own environment holds no secret of the worker or the host",
    async () => {
      const canary = `sk-canary-${randomBytes(6).toString('hex')}`;
      const result = await runInProbe('env; set; printenv OPENAI_API_KEY || echo no-key', canary);
      expect(result.stdout).not.toContain(canary);
      expect(result.stdout).not.toMatch(/OPENAI_API_KEY=|PARALLAX_TEST_SECRET=/);
      expect(result.stdout).toContain('no-key');
    },
  );

  it.runIf(available)(
    'tr "\\0" "\\n" </proc/$PPID/environ and every other /proc entry: no secret (only in a namespace: bubblewrap\'s, or unshare\'s user namespace)',
    async () => {
      const canary = `sk-canary-${randomBytes(6).toString('hex')}`;
      const command = [
        'echo "ppid=$PPID"',
        // Up the chain of parents to the worker: each one's environment.
        'p=$PPID; while [ "$p" -gt 1 ]; do tr "\\0" "\\n" </proc/$p/environ | grep -E "^(OPENAI_API_KEY|PARALLAX_TEST_SECRET)="; p=$(cut -d" " -f4 /proc/$p/stat); done 2>/dev/null',
        // Every process it can see (with bubblewrap, only its own few; without, that is every process here).
        contained
          ? 'for p in /proc/[0-9]*; do tr "\\0" "\\n" <$p/environ | grep -c sk-canary; tr "\\0" " " <$p/cmdline | head -c 200; echo; done 2>/dev/null | grep -v "^0$"'
          : ':',
        'ls /proc | grep -c "^[0-9]"',
      ].join('; ');
      const result = await runInProbe(command, canary);
      if (contained) {
        expect(result.stdout).toContain('ppid=1'); // its parent is the namespace's init, not the worker
        expect(result.stdout).not.toContain(canary);
        expect(result.stdout).not.toMatch(/node|vitest|tsx/); // no process of the host or the worker is visible
        expect(Number(/^(\d+)$/m.exec(result.stdout.split('\n').slice(-3).join('\n'))?.[1])).toBeLessThan(8);
      } else if (info.unshare) {
        // A user namespace of its own (unshare): the kernel lets it read no environment of a process outside.
        expect(result.stdout).not.toContain(canary);
        asksFirst();
      } else {
        // Same user, same /proc: the parent's environment is readable. Cannot hold without an OS sandbox.
        expect(result.stdout).toContain(canary);
        asksFirst();
      }
    },
  );

  it.runIf(available)(
    'setsid -f, env -i setsid -f, a double fork and nohup … &: nothing is left once the call returns',
    async () => {
      const token = uniqueSleep();
      const result = await run(
        `setsid -f sleep ${token} >/dev/null 2>&1; env -i setsid -f sleep ${token} >/dev/null 2>&1; (sleep ${token} &) ; nohup sleep ${token} >/dev/null 2>&1 & echo started`,
      );
      expect(result.stdout).toBe('started\n');
      const left = await noneLeft(token);
      killAll(left);
      expect(left).toEqual([]);
    },
  );

  it.runIf(available)(
    'a command that escapes with setsid (environment cleared) and never ends is killed at the deadline, escapee included',
    async () => {
      const token = uniqueSleep(); // 300 s or more: only the 0.5 s limit can end the command within the test's own timeout
      const result = await run(`env -i setsid -f sleep ${token}; setsid -f sleep ${token}; sleep ${token}`, {
        shellTimeoutMs: 500,
      });
      expect(result.timedOut).toBe(true);
      expect(result.exitCode).toBeNull();
      expect(result.stderr).toContain('ran longer than 0.5 s');
      const left = await noneLeft(token);
      killAll(left);
      expect(left).toEqual([]);
    },
  );

  it.runIf(available)(
    'the worker dies mid-command (kill -9): the command and the process that escaped with setsid die with it',
    async () => {
      const token = uniqueSleep();
      const child = spawn(
        process.execPath,
        ['--import', tsx, probe, ws.root, `env -i setsid -f sleep ${token}; sleep ${token}`],
        { stdio: 'ignore', env: probeEnv() },
      );
      const until = Date.now() + 30_000;
      const sleeps = (): number[] =>
        processesWith(token).filter((pid) => commandLine(pid)?.startsWith('sleep\0') === true);
      while (sleeps().length < 2 && Date.now() < until) await new Promise((r) => setTimeout(r, 50));
      expect(sleeps()).toHaveLength(2); // the escaped one and the foreground one both run
      child.kill('SIGKILL');
      const left = await noneLeft(token);
      killAll(left);
      expect(left).toEqual([]);
    },
  );

  it.runIf(available)(
    'kill -9 $PPID, then env -i setsid -f: the escapee outlives the command only without a PID namespace',
    async () => {
      const token = uniqueSleep();
      await run(`kill -9 $PPID; env -i setsid -f sleep ${token} >/dev/null 2>&1; sleep 0.2`);
      const left = contained ? await noneLeft(token) : processesWith(token); // uncontained, the escapee stays: no wait
      killAll(left);
      if (contained) expect(left).toEqual([]);
      else asksFirst(); // same user: the command may kill its own keeper; nothing but an OS sandbox stops that
    },
  );

  it.runIf(available)(
    'has no controlling terminal to push keystrokes into (TIOCSTI): a session of its own, tty_nr 0',
    async () => {
      const result = await run('read -r _ _ _ _ _ sid tty _ </proc/$$/stat; echo "sid=$sid tty=$tty"; tty');
      const [, sid, tty] = /sid=(\d+) tty=(\d+)/.exec(result.stdout)!;
      expect(tty).toBe('0');
      if (contained)
        expect(sid).toBe('1'); // the sandbox's own session, led by its init
      else expect(sid).not.toBe(/^\d+ \(.*?\) \S \d+ \d+ (\d+)/.exec(readFileSync('/proc/self/stat', 'utf8'))![1]); // not the host's session
      expect(result.stdout).toContain('not a tty');
    },
  );

  it.runIf(available)(
    "curl to a server on the host's loopback: no connection is made (only in a network namespace: bubblewrap's, or unshare's without it)",
    async () => {
      let connections = 0;
      const server: Server = createServer((_req, res) => res.end('reached'));
      server.on('connection', () => connections++);
      await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
      const port = (server.address() as AddressInfo).port;
      try {
        const result = await run(`curl -s -m 2 http://127.0.0.1:${port}/ || echo no-curl-reach`);
        if (contained || info.unshare) {
          expect(result.stdout).toContain('no-curl-reach');
          expect(connections).toBe(0);
        } else {
          expect(connections + (result.stdout.includes('reached') ? 1 : 0)).toBeGreaterThan(0);
          asksFirst();
        }
      } finally {
        server.close();
      }
    },
  );

  it.runIf(available)(
    "cat ../outside/secret.txt, ls /home /root: the user's files are not there (only with bubblewrap)",
    async () => {
      const result = await run('ls /home /root 2>&1; cat ../outside/secret.txt 2>&1; echo "home=$HOME"');
      if (contained) {
        expect(result.stdout).not.toContain('TOP SECRET');
        expect(result.stdout).toMatch(/\/root.*No such file/);
        expect(result.stdout).toContain('home=/tmp/home');
      } else {
        expect(result.stdout).toContain('TOP SECRET');
        expect(result.stdout).toContain(`home=${ws.root}`); // never the user's own home
        asksFirst();
      }
    },
  );

  it.runIf(available)(
    'ln ../outside/secret.txt into the workspace, echo > ../outside/x: refused only with bubblewrap',
    async () => {
      await run('ln ../outside/secret.txt s 2>&1; echo pwned > ../outside/x 2>&1; ls');
      if (contained) {
        expect(existsSync(path.join(ws.root, 's'))).toBe(false);
        expect(existsSync(path.join(ws.outside, 'x'))).toBe(false);
      } else {
        expect(existsSync(path.join(ws.outside, 'x'))).toBe(true);
        asksFirst();
      }
    },
  );

  it.runIf(available)(
    "echo > /tmp/NAME: the host's /tmp never sees it (only with bubblewrap); $TMPDIR is private and removed after",
    async () => {
      const marker = `parallax-${randomBytes(4).toString('hex')}`;
      const result = await run(`echo hi > /tmp/${marker}; echo "tmp=$TMPDIR"; echo x > "$TMPDIR/${marker}"`);
      const tmp = /tmp=(.*)/.exec(result.stdout)![1];
      const leaked = existsSync(`/tmp/${marker}`);
      rmSync(`/tmp/${marker}`, { force: true });
      if (contained) expect(leaked).toBe(false);
      else {
        expect(tmp).toMatch(/parallax-sh-/);
        expect(existsSync(tmp)).toBe(false); // the private temp folder went with the command
        asksFirst();
      }
    },
  );

  it.runIf(available)(
    'starting 200 sleeps with a limit of 20 processes: the command is stopped and says why',
    async () => {
      const token = uniqueSleep();
      const result = await run(`i=0; while [ $i -lt 200 ]; do sleep ${token} & i=$((i+1)); done; wait`, {
        shellMaxProcesses: 20,
        shellTimeoutMs: 45_000,
      }); // the deadline is a backstop, not the subject
      expect(result.exitCode).toBeNull();
      expect(result.stderr).toContain('started more than 20 processes');
      const left = await noneLeft(token);
      killAll(left);
      expect(left).toEqual([]);
    },
  );

  it.runIf(available)(
    'head -c 3M > big with a 1 MB write budget: the file stops at 1 MB, later writes are refused with a clear message',
    async () => {
      const limits = { workspaceWriteBytes: 1024 * 1024 };
      const result = await run('head -c 3145728 /dev/zero > big; echo "exit=$?"', limits);
      expect(statSync(path.join(ws.root, 'big')).size).toBeLessThanOrEqual(1024 * 1024);
      expect(result.stderr).toContain('workspace write budget of 1 MB is used up');
      const refused = await tools
        .invokeTool(
          tools.findTool('write_file')!,
          { path: 'more.txt', content: 'x'.repeat(10) },
          contextFor(ws.root, limits),
        )
        .catch((e: Error) => e.message);
      expect(refused).toContain("would pass this run's workspace write budget");
      expect(existsSync(path.join(ws.root, 'more.txt'))).toBe(false);
    },
  );

  it.runIf(available && contained)(
    "head -c 8M into the private /tmp: stopped by its size, not the machine's memory",
    async () => {
      const result = await run('head -c 8388608 /dev/zero > /tmp/fill; wc -c < /tmp/fill', {
        shellTmpBytes: 1024 * 1024,
      });
      expect(result.stderr).toMatch(/No space left on device/);
      expect(Number(result.stdout.trim())).toBeLessThanOrEqual(1024 * 1024);
    },
  );
});

describe.runIf(linux)(
  'run_shell on a Linux where neither bubblewrap nor a namespace works (a container that forbids them)',
  () => {
    it("curl reaches the host's loopback, so run_shell asks before each command", async () => {
      const info: ShellSandboxInfo = { ...detectShellSandbox({ env: { PARALLAX_SANDBOX: 'off' } }), unshare: null };
      const ws = tempWorkspace();
      let connections = 0;
      const server: Server = createServer((_req, res) => res.end('reached'));
      server.on('connection', () => connections++);
      await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
      try {
        const port = (server.address() as AddressInfo).port;
        const limits = {
          timeoutMs: 30_000,
          outputBytes: 10_000,
          maxProcesses: 64,
          fileBytes: 1 << 20,
          writeBudgetBytes: 1 << 20,
          tmpBytes: 1 << 20,
        };
        const result = await runShellCommand(`curl -s -m 5 http://127.0.0.1:${port}/ || echo no-curl-reach`, {
          workspace: ws.root,
          env: { PATH: '/usr/bin:/bin' },
          limits,
          signal: new AbortController().signal,
          sandbox: info,
        });
        expect(connections + (result.stdout.includes('reached') ? 1 : 0)).toBeGreaterThan(0);
        expect(defaultApprovalPolicy({ shellSandbox: info.kind, userFolder: false }).run_shell).toBe('ask');
      } finally {
        server.close();
        ws.cleanup();
      }
    });
  },
);

describe('the switch read from a given environment', () => {
  it('PARALLAX_SANDBOX=off turns bubblewrap off as if it were missing, and says how to turn it back on', () => {
    const off = detectShellSandbox({ platform: 'linux', env: { PARALLAX_SANDBOX: 'off' } });
    expect(off).toMatchObject({ kind: 'none', reason: expect.stringContaining('Unset it to contain them') });
    expect(detectShellSandbox({ platform: 'linux', env: { PARALLAX_SANDBOX: ' OFF ' } }).kind).toBe('none');
    if (bubblewrapHere)
      expect(detectShellSandbox({ platform: 'linux', env: { PARALLAX_SANDBOX: 'on' } }).kind).toBe('bubblewrap');
  });
});
