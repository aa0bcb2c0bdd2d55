/**
 * The capability check of run_shell's OS sandbox: why there is none (other systems, bubblewrap missing,
 * namespaces refused, PARALLAX_SANDBOX=off), and the macOS Seatbelt probe, driven here by stand-in
 * `sandbox-exec` scripts (macOS cannot run on this machine): one that enforces nothing must not be trusted.
 */
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { defaultApprovalPolicy } from '../../../../shared/approval.js';
import { osSandboxSwitchedOff } from '../../../../electron/engine/sandbox/sandbox-switch.js';
import { runShellCommand } from '../../../../electron/engine/sandbox/shell-runner.js';
import {
  detectShellSandbox,
  detectShellSandboxAsync,
  shellSandbox,
} from '../../../../electron/engine/sandbox/shell-sandbox.js';
import { SeatbeltProfile } from './seatbelt-eval.js';

const bin = mkdtempSync(path.join(tmpdir(), 'parallax-fake-sbx-'));
afterAll(() => rmSync(bin, { recursive: true, force: true }));
/** A stand-in sandbox-exec: `sandbox-exec -p PROFILE cmd…`; `body` decides what happens to the command. */
function fakeSandboxExec(name: string, body: string): string {
  const file = path.join(bin, name);
  writeFileSync(
    file,
    `#!/bin/sh\n[ "$1" = "-p" ] || exit 64\ncase "$2" in *"(deny network*)"*) ;; *) exit 65;; esac\nshift 2\n${body}\n`,
  );
  chmodSync(file, 0o755);
  return file;
}

describe('the capability check', () => {
  it('names the reason when there is no sandbox: Windows, bubblewrap missing, namespaces refused', () => {
    const windows = detectShellSandbox({ platform: 'win32', switchedOff: false });
    expect(windows).toMatchObject({
      kind: 'none',
      reason: expect.stringContaining('Windows: commands are not contained'),
    });
    const missing = detectShellSandbox({ platform: 'linux', bwrap: null, switchedOff: false });
    expect(missing.kind).toBe('none');
    expect(missing.reason).toContain('Install the "bubblewrap" package');
    // A "bubblewrap" that cannot create namespaces (here: a binary that always fails) is detected, not trusted.
    const broken = detectShellSandbox({ platform: 'linux', bwrap: '/bin/false', switchedOff: false });
    expect(broken.kind).toBe('none');
    expect(broken.reason).toContain('cannot create namespaces');
  });

  it('PARALLAX_SANDBOX=off (any case, spaces around) switches the sandbox off and says so; other values do not', () => {
    expect(osSandboxSwitchedOff({ PARALLAX_SANDBOX: ' OFF ' })).toBe(true);
    for (const value of [undefined, '', 'on', '0', 'no'])
      expect(osSandboxSwitchedOff({ PARALLAX_SANDBOX: value })).toBe(false);
    const off = detectShellSandbox({ platform: 'linux', switchedOff: true });
    expect(off.kind).toBe('none');
    expect(off.reason).toContain('PARALLAX_SANDBOX=off');
    // A Linux without bubblewrap still ends whole process trees, through the subreaper where Perl runs it.
    if (process.platform === 'linux') expect(off.reaper).toMatch(/perl$/);
  });

  it('finds bubblewrap on this Linux machine (installed by .ci/run), unless switched off', () => {
    if (process.platform !== 'linux') return;
    if (osSandboxSwitchedOff()) expect(shellSandbox().kind).toBe('none');
    else expect(shellSandbox()).toMatchObject({ kind: 'bubblewrap', reason: expect.stringContaining('no network') });
  });

  it('the probe run as child processes side by side (a start-up loads meanwhile) finds what the blocking one finds, in every case', async () => {
    const lax = fakeSandboxExec('sandbox-exec-lax-async', 'exec "$@"');
    const cases = [
      {},
      { switchedOff: true },
      { platform: 'linux' as const, bwrap: null, switchedOff: false },
      { platform: 'linux' as const, bwrap: '/bin/false', switchedOff: false },
      { platform: 'win32' as const, switchedOff: false },
      { platform: 'darwin' as const, switchedOff: false, sandboxExec: lax },
    ];
    for (const options of cases) {
      const [blocking, async] = [detectShellSandbox(options), await detectShellSandboxAsync(options)];
      expect(async, JSON.stringify(options)).toEqual(blocking);
    }
    // This machine's own answer (bubblewrap or, switched off, none with the reaper): not only the failures agree.
    expect((await detectShellSandboxAsync()).kind).toBe(
      osSandboxSwitchedOff() || process.platform !== 'linux' ? 'none' : 'bubblewrap',
    );
  });

  it('only bubblewrap lets run_shell run unasked; Seatbelt and no sandbox ask before each command', () => {
    expect(defaultApprovalPolicy({ shellSandbox: 'bubblewrap', userFolder: false }).run_shell).toBe('allow');
    expect(defaultApprovalPolicy({ shellSandbox: 'seatbelt', userFolder: false }).run_shell).toBe('ask');
    expect(defaultApprovalPolicy({ shellSandbox: 'none', userFolder: false }).run_shell).toBe('ask');
  });
});

describe('macOS: the Seatbelt probe (with stand-in sandbox-exec scripts)', () => {
  it('a missing sandbox-exec: no sandbox, and the reason says commands ask first', () => {
    const info = detectShellSandbox({ platform: 'darwin', switchedOff: false, sandboxExec: path.join(bin, 'absent') });
    expect(info).toMatchObject({ kind: 'none', reason: expect.stringContaining('sandbox-exec was not found') });
  });

  it('a sandbox-exec that refuses the profile: no sandbox, with its complaint in the reason', () => {
    const refusing = fakeSandboxExec('refusing', 'echo "sandbox-exec: syntax error in profile" >&2; exit 1');
    expect(detectShellSandbox({ platform: 'darwin', switchedOff: false, sandboxExec: refusing }).reason).toContain(
      "refused Parallax's profile (sandbox-exec: syntax error in profile)",
    );
  });

  it('a sandbox-exec that runs commands but lets one write outside the workspace is not trusted', () => {
    const lax = fakeSandboxExec('lax', 'exec "$@"');
    expect(detectShellSandbox({ platform: 'darwin', switchedOff: false, sandboxExec: lax })).toMatchObject({
      kind: 'none',
      reason: expect.stringContaining('did not refuse a write outside'),
    });
  });

  it('one that runs the workspace write and refuses the outside one is used, and still asks (processes not isolated)', () => {
    // Refuses any command naming the "outside" folder, the way the profile's write rule would.
    const strict = fakeSandboxExec(
      'strict',
      'case "$3" in *outside*) echo "Operation not permitted" >&2; exit 1;; esac\nexec "$@"',
    );
    const info = detectShellSandbox({ platform: 'darwin', switchedOff: false, sandboxExec: strict });
    expect(info).toMatchObject({
      kind: 'seatbelt',
      sandboxExec: strict,
      reason: expect.stringContaining('Processes are not isolated'),
    });
  });
});

describe('macOS: a command under the Seatbelt profile (a stand-in sandbox-exec that records the profile it is given)', () => {
  it("runs /bin/sh -c under sandbox-exec -p PROFILE, the profile naming this workspace and the command's private TMPDIR", async () => {
    const ws = path.join(realpathSync(bin), 'ws');
    mkdirSync(ws, { recursive: true });
    const recorder = fakeSandboxExec('recorder', 'exec "$@"');
    const recorded = path.join(ws, 'profile.sb');
    // The stand-in saves the profile it was given (its second argument) before it runs the command.
    writeFileSync(
      recorder,
      readFileSync(recorder, 'utf8').replace('shift 2\n', `printf '%s' "$2" > ${JSON.stringify(recorded)}\nshift 2\n`),
    );
    const info = { kind: 'seatbelt' as const, reason: 'test', sandboxExec: recorder, prlimit: null };
    const limits = {
      timeoutMs: 10_000,
      outputBytes: 4096,
      maxProcesses: 50,
      fileBytes: 1 << 20,
      writeBudgetBytes: 1 << 20,
      tmpBytes: 1 << 20,
    };
    const run = await runShellCommand('echo "tmp=$TMPDIR"; echo hi > out.txt', {
      workspace: ws,
      env: { PATH: '/usr/bin:/bin' },
      limits,
      signal: new AbortController().signal,
      sandbox: info,
    });
    expect(run.exitCode).toBe(0);
    const tmp = /tmp=(.*)/.exec(run.stdout)![1];
    const profile = new SeatbeltProfile(readFileSync(recorded, 'utf8'));
    expect(profile.allows({ op: 'file-write-create', path: `${ws}/out.txt` })).toBe(true);
    expect(profile.allows({ op: 'file-write-create', path: `${tmp}/x` })).toBe(true);
    expect(profile.allows({ op: 'network-outbound' })).toBe(false);
    expect(readFileSync(path.join(ws, 'out.txt'), 'utf8')).toBe('hi\n');
  });
});
