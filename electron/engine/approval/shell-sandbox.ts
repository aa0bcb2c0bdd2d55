/**
 * Whether run_shell runs inside the OS shell sandbox on this machine, which decides the approval policy's
 * default for it (shared/approval.ts). Every caller reads it from here.
 *
 * Stand-in until run_shell's own sandbox module is merged: it answers what that module will answer on this
 * machine — whether bubblewrap can start a sandbox here (Linux with `bwrap` that works), probed once. When the
 * sandbox lands, this body becomes a re-export of the tools' shellSandbox(), so the answer and the sandbox
 * the commands really run in can never differ.
 */
import { spawnSync } from 'node:child_process';

export type ShellSandbox = 'bubblewrap' | 'none';

let probed: ShellSandbox | null = null;

export function shellSandbox(): ShellSandbox {
  if (probed) return probed;
  if (process.platform !== 'linux') return (probed = 'none');
  const r = spawnSync('bwrap', ['--unshare-all', '--die-with-parent', '--ro-bind', '/', '/', 'true'], { stdio: 'ignore', timeout: 5000 });
  return (probed = r.status === 0 ? 'bubblewrap' : 'none');
}
