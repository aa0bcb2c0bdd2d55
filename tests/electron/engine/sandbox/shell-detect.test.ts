/**
 * The capability check of run_shell's OS sandbox: why there is none (other systems, bubblewrap missing,
 * namespaces refused, PARALLAX_SANDBOX=off), and the macOS Seatbelt probe, driven here by stand-in
 * `sandbox-exec` scripts (macOS cannot run on this machine): one that enforces nothing must not be trusted.
 */
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { defaultApprovalPolicy } from '../../../../shared/approval.js';
import { osSandboxSwitchedOff } from '../../../../electron/engine/sandbox/sandbox-switch.js';
import { detectShellSandbox, shellSandbox } from '../../../../electron/engine/sandbox/shell-sandbox.js';

const bin = mkdtempSync(path.join(tmpdir(), 'parallax-fake-sbx-'));
afterAll(() => rmSync(bin, { recursive: true, force: true }));
/** A stand-in sandbox-exec: `sandbox-exec -p PROFILE cmd…`; `body` decides what happens to the command. */
function fakeSandboxExec(name: string, body: string): string {
  const file = path.join(bin, name);
  writeFileSync(file, `#!/bin/sh\n[ "$1" = "-p" ] || exit 64\ncase "$2" in *"(deny network*)"*) ;; *) exit 65;; esac\nshift 2\n${body}\n`);
  chmodSync(file, 0o755);
  return file;
}

describe('the capability check', () => {
  it('names the reason when there is no sandbox: Windows, bubblewrap missing, namespaces refused', () => {
    const windows = detectShellSandbox({ platform: 'win32', switchedOff: false });
    expect(windows).toMatchObject({ kind: 'none', reason: expect.stringContaining('Windows: commands are not contained') });
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
    for (const value of [undefined, '', 'on', '0', 'no']) expect(osSandboxSwitchedOff({ PARALLAX_SANDBOX: value })).toBe(false);
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
    expect(detectShellSandbox({ platform: 'darwin', switchedOff: false, sandboxExec: refusing }).reason).toContain('refused Parallax\'s profile (sandbox-exec: syntax error in profile)');
  });

  it('a sandbox-exec that runs commands but lets one write outside the workspace is not trusted', () => {
    const lax = fakeSandboxExec('lax', 'exec "$@"');
    expect(detectShellSandbox({ platform: 'darwin', switchedOff: false, sandboxExec: lax })).toMatchObject({ kind: 'none', reason: expect.stringContaining('did not refuse a write outside') });
  });

  it('one that runs the workspace write and refuses the outside one is used, and still asks (processes not isolated)', () => {
    // Refuses any command naming the "outside" folder, the way the profile's write rule would.
    const strict = fakeSandboxExec('strict', 'case "$3" in *outside*) echo "Operation not permitted" >&2; exit 1;; esac\nexec "$@"');
    const info = detectShellSandbox({ platform: 'darwin', switchedOff: false, sandboxExec: strict });
    expect(info).toMatchObject({ kind: 'seatbelt', sandboxExec: strict, reason: expect.stringContaining('Processes are not isolated') });
  });
});
