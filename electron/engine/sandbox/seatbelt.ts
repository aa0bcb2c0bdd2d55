/**
 * The macOS sandbox of run_shell: a Seatbelt profile for `sandbox-exec`, generated here and nowhere else.
 * What it says: everything is denied unless allowed below; commands may run programs and fork; they may read
 * the system (so tools work) but not the home folders (`/Users`, the user's HOME, other volumes), except the
 * run's workspace and its private temp folder; they may write only there (and /dev/null, /dev/tty); no
 * network of any kind (Unix sockets included). Seatbelt rules are last-match-wins, so the order matters:
 * the broad read allow, then the home denies, then the workspace re-allow. It does not isolate processes
 * (no PID namespace): the kill of the whole tree is the runner's sweep, as without a sandbox.
 *
 * Not run on this project's CI (macOS cannot run here): the profile is tested as data
 * (tests/electron/engine/sandbox/seatbelt.test.ts evaluates its rules), and `detectShellSandbox` runs it
 * once on the user's Mac before trusting it.
 */
import path from 'node:path';

export interface SeatbeltPaths {
  /** The run's workspace, as a real path (macOS: /private/var/…, not /var/…). */
  readonly workspace: string | null;
  /** The command's private temp folder (its HOME and TMPDIR), real path. */
  readonly temp: string;
  /** The user's home folder, denied for reads even when it is not under /Users. */
  readonly home: string;
}

/** Folders no command reads: every user's home, other volumes, root's home. */
const READ_DENIED = ['/Users', '/Volumes', '/private/var/root'];
/** Device files a shell needs to write (redirections to /dev/null, a terminal that is absent). */
const WRITABLE_DEVICES = ['/dev/null', '/dev/zero', '/dev/tty', '/dev/dtracehelper', '/dev/stdout', '/dev/stderr'];

/** A path as an SBPL string literal; refuses what could break out of the literal or is not absolute. */
export function sbplString(value: string): string {
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u001f\u007f"\\]/.test(value))
    throw new Error(`Seatbelt path has a character the profile cannot hold: ${JSON.stringify(value)}`);
  // Seatbelt matches resolved paths: a relative one or one with `..` in it would silently match nothing.
  if (!path.isAbsolute(value) || path.posix.normalize(value) !== value || (value.length > 1 && value.endsWith('/'))) {
    throw new Error(`Seatbelt path must be absolute and normalized: ${JSON.stringify(value)}`);
  }
  return `"${value}"`;
}

export function seatbeltProfile(paths: SeatbeltPaths): string {
  const own = [paths.workspace, paths.temp]
    .filter((p): p is string => p !== null)
    .map((p) => `(subpath ${sbplString(p)})`);
  const denied = [...new Set([...READ_DENIED, paths.home])].map((p) => `(subpath ${sbplString(p)})`);
  return [
    '(version 1)',
    '(deny default)',
    '(allow process-exec)',
    '(allow process-fork)',
    '(allow process-info* (target same-sandbox))',
    '(allow signal (target same-sandbox))',
    '(allow sysctl-read)',
    '(allow ipc-posix-shm-read-data)',
    '(allow mach-lookup (global-name "com.apple.system.opendirectoryd.libinfo") (global-name "com.apple.system.logger"))',
    '(allow file-read*)',
    `(deny file-read* ${denied.join(' ')})`,
    // Reading the metadata of a folder on the way (realpath through /Users/name) reveals no contents.
    '(allow file-read-metadata (vnode-type DIRECTORY))',
    `(allow file-read* ${own.join(' ')})`,
    `(allow file-write* ${own.join(' ')} ${WRITABLE_DEVICES.map((d) => `(literal ${sbplString(d)})`).join(' ')})`,
    `(allow file-ioctl ${WRITABLE_DEVICES.map((d) => `(literal ${sbplString(d)})`).join(' ')})`,
    '(deny network*)',
    '',
  ].join('\n');
}
