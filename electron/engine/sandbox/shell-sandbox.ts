/**
 * The OS sandbox of run_shell on Linux: bubblewrap. A command runs in new PID, network, IPC, UTS, cgroup and
 * user namespaces with no capabilities, sees the system folders read-only, the run's workspace read-write, a
 * private size-capped /tmp as its home and nothing else (no home folder, no /run, no other workspaces); it
 * starts a new session (no terminal to push keystrokes into) and dies with its parent. In the PID namespace
 * the host and the worker are invisible, so /proc/$PPID/environ and /proc/PID/mem lead nowhere; when the
 * command ends or is killed, the namespace's init exits and the kernel kills everything left in it.
 *
 * `shellSandbox()` says once per process whether this works here and, when not, why: no bubblewrap, not
 * Linux, namespaces refused (some containers), or switched off (`PARALLAX_SANDBOX=off`, sandbox-switch.ts).
 * On macOS it is a Seatbelt profile (seatbelt.ts) where `sandbox-exec` runs it and refuses what it should:
 * files and network, not processes. Without bubblewrap the approval policy asks before each command.
 */
import { spawn, spawnSync } from 'node:child_process';
import {
  accessSync,
  constants,
  existsSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readlinkSync,
  realpathSync,
  rmSync,
} from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import path from 'node:path';
import type { ShellSandboxRecord } from '../../../shared/step-event.js';
import { reaperArgs } from './process-reaper.js';
import { osSandboxSwitchedOff, SANDBOX_SWITCH } from './sandbox-switch.js';
import { seatbeltProfile } from './seatbelt.js';

export type ShellSandboxKind = ShellSandboxRecord['kind'];

export interface ShellSandboxInfo {
  readonly kind: ShellSandboxKind;
  /** Why this kind: what contains the commands, or why nothing does and what to do about it. */
  readonly reason: string;
  /** The bubblewrap binary, when kind is 'bubblewrap'. */
  readonly bwrap?: string;
  /** macOS sandbox-exec, when kind is 'seatbelt'. */
  readonly sandboxExec?: string;
  /** Whether nested user namespaces are switched off inside (needs bubblewrap to own a user namespace). */
  readonly disableUserns?: boolean;
  /** util-linux prlimit, which sets the process-count, file-size and CPU limits; null when missing. */
  readonly prlimit: string | null;
  /** Linux without bubblewrap: the Perl that runs process-reaper.ts's subreaper; null or absent: none works. */
  readonly reaper?: string | null;
  /**
   * Linux without bubblewrap: util-linux unshare, when it can make a user and network namespace here (most
   * desktops; containers often forbid it). The Pyodide child then gets an empty network of its own.
   */
  readonly unshare?: string | null;
}

/** The search path for the helper binaries; the worker's own PATH is not trusted for them. */
const SYSTEM_BIN = ['/usr/bin', '/bin', '/usr/local/bin', '/usr/sbin', '/sbin'];
/** PATH inside the sandbox: only folders that exist there. */
export const SANDBOX_PATH = '/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin';
/** The command's home: an empty folder in the private /tmp. */
export const SANDBOX_HOME = '/tmp/home';
/** Size of a sandbox's /dev/shm (POSIX shared memory, semaphores: small). */
export const SHM_BYTES = 16 * 1024 * 1024;
/** System folders shown read-only when present (a merged-/usr system has links for the top-level ones). */
const SYSTEM_DIRS = ['/usr', '/bin', '/sbin', '/lib', '/lib32', '/lib64', '/libx32', '/etc', '/opt', '/nix/store'];
/** Readable by root only, but run_shell may run as root (containers, CI): hidden all the same. */
const MASKED_FILES = ['/etc/shadow', '/etc/gshadow', '/etc/shadow-', '/etc/gshadow-', '/etc/sudoers'];
const MASKED_DIRS = ['/etc/ssh', '/etc/sudoers.d', '/etc/ssl/private'];

function findBinary(name: string): string | null {
  for (const dir of SYSTEM_BIN) {
    const candidate = path.join(dir, name);
    try {
      accessSync(candidate, constants.X_OK);
      return candidate;
    } catch {
      /* next */
    }
  }
  return null;
}

export interface BubblewrapOptions {
  /** The run's workspace (real path), bound read-write at the same path; null for the capability probe. */
  readonly workspace: string | null;
  /** Size of the private /tmp (and home) in bytes. */
  readonly tmpBytes: number;
  readonly disableUserns: boolean;
  /** More paths shown at the same place: an agent column's program files (read-only), its proxy's socket folder. */
  readonly binds?: readonly SandboxBind[];
}

export interface SandboxBind {
  readonly path: string;
  readonly writable?: boolean;
}

/** The bwrap arguments before the command. */
export function bubblewrapArgs(options: BubblewrapOptions): string[] {
  const args = [
    '--unshare-all',
    '--die-with-parent',
    '--new-session',
    '--cap-drop',
    'ALL',
    '--hostname',
    'parallax-sandbox',
  ];
  if (options.disableUserns) args.push('--unshare-user', '--disable-userns');
  for (const dir of SYSTEM_DIRS) {
    let stat;
    try {
      stat = lstatSync(dir);
    } catch {
      continue;
    }
    if (stat.isSymbolicLink()) args.push('--symlink', readlinkSync(dir), dir);
    else if (stat.isDirectory()) args.push('--ro-bind', dir, dir);
  }
  for (const file of MASKED_FILES) if (existsSync(file)) args.push('--ro-bind', '/dev/null', file);
  for (const dir of MASKED_DIRS) if (existsSync(dir)) args.push('--tmpfs', dir);
  // /dev is a tmpfs of its own: a size-capped /dev/shm on it, then read-only, so no command holds memory in it
  // beyond SHM_BYTES (uncapped, it could take half the RAM).
  args.push(
    '--proc',
    '/proc',
    '--dev',
    '/dev',
    '--size',
    String(SHM_BYTES),
    '--tmpfs',
    '/dev/shm',
    '--remount-ro',
    '/dev',
  );
  args.push('--size', String(options.tmpBytes), '--tmpfs', '/tmp', '--dir', SANDBOX_HOME);
  for (const b of options.binds ?? []) args.push(b.writable ? '--bind' : '--ro-bind', b.path, b.path);
  if (options.workspace) args.push('--bind', options.workspace, options.workspace, '--chdir', options.workspace);
  // Everything not bound above (the root folder itself) becomes read-only: no unbounded in-memory writes.
  args.push('--remount-ro', '/');
  args.push('--clearenv');
  return args;
}

let cached: ShellSandboxInfo | undefined;
let probing: Promise<ShellSandboxInfo> | undefined;

/** Which sandbox run_shell uses in this process, detected once (a probe run of bubblewrap, a few ms). */
export function shellSandbox(): ShellSandboxInfo {
  cached ??= detectShellSandbox();
  return cached;
}

/**
 * The same answer as shellSandbox(), its probes run as child processes side by side without holding the thread,
 * so that a start-up can load its modules meanwhile. Later shellSandbox() calls return what it found.
 */
export function shellSandboxAsync(): Promise<ShellSandboxInfo> {
  if (cached) return Promise.resolve(cached);
  probing ??= detectShellSandboxAsync().then((info) => (cached ??= info));
  return probing;
}

/** What this process found, if it probed already (a host hands it to its workers: worker-hints.ts). */
export function knownShellSandbox(): ShellSandboxInfo | undefined {
  return cached;
}

/** Takes a finding made in the same environment (the host's, checked by the caller) as this process's own. */
export function adoptShellSandbox(found: ShellSandboxInfo): void {
  cached ??= found;
}

export interface DetectOptions {
  readonly platform?: NodeJS.Platform;
  /** The bubblewrap binary to try; default: found in the system folders. null: pretend it is missing. */
  readonly bwrap?: string | null;
  /** macOS: the sandbox-exec to try; default /usr/bin/sandbox-exec. null: pretend it is missing. */
  readonly sandboxExec?: string | null;
  /** The environment the switch is read from (sandbox-switch.ts); default: this process's. */
  readonly env?: NodeJS.ProcessEnv;
  /** Overrides the switch; default: `PARALLAX_SANDBOX=off` in `env`. */
  readonly switchedOff?: boolean;
}

/** One probe command: its exit status (null: killed or not started) and the last line of its stderr. */
interface Probe {
  readonly file: string;
  readonly args: readonly string[];
  readonly env: Record<string, string>;
  readonly cwd?: string;
}
interface ProbeResult {
  readonly status: number | null;
  readonly stderr: string;
  readonly error?: Error;
}
/** Detection as steps: each yields the probes it needs (run side by side when run asynchronously) and gets their results. */
type Detection<T> = Generator<readonly Probe[], T, readonly ProbeResult[]>;

const PROBE_TIMEOUT_MS = 5000;

function runProbeSync(p: Probe): ProbeResult {
  const r = spawnSync(p.file, p.args, {
    env: p.env,
    cwd: p.cwd,
    stdio: ['ignore', 'ignore', 'pipe'],
    timeout: PROBE_TIMEOUT_MS,
    encoding: 'utf8',
  });
  return { status: r.status, stderr: r.stderr ?? '', ...(r.error ? { error: r.error } : {}) };
}

function runProbe(p: Probe): Promise<ProbeResult> {
  return new Promise((resolve) => {
    let stderr = '';
    let error: Error | undefined;
    const child = spawn(p.file, p.args, {
      env: p.env,
      cwd: p.cwd,
      stdio: ['ignore', 'ignore', 'pipe'],
      timeout: PROBE_TIMEOUT_MS,
    });
    child.stderr.setEncoding('utf8').on('data', (c: string) => (stderr += c));
    child.on('error', (e) => (error = e));
    child.on('close', (code) => resolve({ status: code, stderr, ...(error ? { error } : {}) }));
  });
}

function driveSync<T>(steps: Detection<T>): T {
  let next = steps.next([]);
  while (!next.done) next = steps.next(next.value.map(runProbeSync));
  return next.value;
}

async function driveAsync<T>(steps: Detection<T>): Promise<T> {
  let next = steps.next([]);
  while (!next.done) next = steps.next(await Promise.all(next.value.map(runProbe)));
  return next.value;
}

/** util-linux prlimit, if it can set the limits here (it cannot raise a hard limit set lower than ours). */
function prlimitProbe(): Probe | null {
  const prlimit = findBinary('prlimit');
  return prlimit
    ? { file: prlimit, args: ['--nproc=128', '--fsize=1048576', '--cpu=16', '--core=0', '--', '/bin/true'], env: {} }
    : null;
}

/** util-linux unshare, if an unprivileged user and network namespace can be made here (Linux only). */
function unshareProbe(): Probe | null {
  const unshare = findBinary('unshare');
  return unshare ? { file: unshare, args: [...UNSHARE_ARGS, '--', '/bin/true'], env: {} } : null;
}

/** What the reason adds where unshare works (a caller that cannot use the namespace takes it off). */
export const UNSHARE_NOTE =
  ' Their network is an empty one of their own and so is their user namespace (made by unshare): they reach no host or service over the network, and cannot read the environment or memory of a process outside; but Unix sockets in the file system (an ssh-agent, docker.sock, D-Bus) stay reachable, as your files do.';

/** New user, network and IPC namespaces, no fork: the command keeps the pid the host watches and kills. */
export const UNSHARE_ARGS = ['--user', '--net', '--ipc'];
/** The same without a network of its own: the user namespace alone keeps /proc/PID/environ and mem of other processes shut. */
export const UNSHARE_USER_ARGS = ['--user', '--ipc'];

/** Perl for the subreaper, if it works here (Linux only; the system call it makes is Linux's): it must pass the exit status through. */
function reaperProbe(): Probe | null {
  if (process.platform !== 'linux') return null;
  const perl = findBinary('perl');
  const args = perl ? reaperArgs(perl, process.pid) : null;
  return args ? { file: args[0]!, args: [...args.slice(1), '/bin/sh', '-c', 'exit 3'], env: {} } : null;
}

/** Probes that may be missing: run those present, null for the others. */
function* probeAll(probes: readonly (Probe | null)[]): Detection<(ProbeResult | null)[]> {
  const results = yield probes.filter((p): p is Probe => p !== null);
  let i = 0;
  return probes.map((p) => (p ? results[i++]! : null));
}

export function detectShellSandbox(options: DetectOptions = {}): ShellSandboxInfo {
  return driveSync(detection(options));
}

export function detectShellSandboxAsync(options: DetectOptions = {}): Promise<ShellSandboxInfo> {
  return driveAsync(detection(options));
}

function* detection(options: DetectOptions): Detection<ShellSandboxInfo> {
  const platform = options.platform ?? process.platform;
  const linux = platform === 'linux';
  const bwrap = options.bwrap === undefined ? findBinary('bwrap') : options.bwrap;
  const switchedOff = options.switchedOff ?? osSandboxSwitchedOff(options.env);
  const prlimitAt = linux ? prlimitProbe() : null;
  const probeDir = linux && !switchedOff && bwrap ? mkdtempSync(path.join(tmpdir(), 'parallax-probe-')) : null;
  try {
    const bwrapProbe = (disableUserns: boolean): Probe | null =>
      probeDir && bwrap
        ? {
            file: bwrap,
            args: [
              ...bubblewrapArgs({ workspace: probeDir, tmpBytes: 1024 * 1024, disableUserns }),
              '--',
              '/bin/sh',
              '-c',
              'exit 0',
            ],
            env: {},
          }
        : null;
    // prlimit and the first bubblewrap try are independent: asked together.
    const [prlimitRun, firstTry] = yield* probeAll([prlimitAt, bwrapProbe(true)]);
    const prlimit = prlimitAt && prlimitRun?.status === 0 ? prlimitAt.file : null;
    function* none(reason: string): Detection<ShellSandboxInfo> {
      if (!linux) return { kind: 'none', reason, prlimit, reaper: null, unshare: null };
      const [unshareAt, reaperAt] = [unshareProbe(), reaperProbe()];
      const [unshareRun, reaperRun] = yield* probeAll([unshareAt, reaperAt]);
      const unshare = unshareAt && unshareRun?.status === 0 ? unshareAt.file : null;
      const reaper = reaperAt && reaperRun?.status === 3 ? reaperAt.file : null;
      return { kind: 'none', reason: reason + (unshare ? UNSHARE_NOTE : ''), prlimit, reaper, unshare };
    }
    if (switchedOff) {
      return yield* none(
        `${SANDBOX_SWITCH}=off: the OS sandbox is switched off, so run_shell commands run unsandboxed, as you (a cleared environment, limits and a kill of the whole process tree still apply). Unset it to contain them.`,
      );
    }
    if (platform === 'darwin')
      return yield* detectSeatbelt(
        options.sandboxExec === undefined ? '/usr/bin/sandbox-exec' : options.sandboxExec,
        prlimit,
      );
    if (!linux) {
      const name = platform === 'win32' ? 'Windows' : platform;
      return yield* none(
        `run_shell has no OS sandbox on ${name}: commands are not contained — they run as you, with your files and network — so each one asks first.`,
      );
    }
    if (!bwrap) {
      return yield* none(
        'bubblewrap is not installed, so run_shell commands run unsandboxed, as you. Install the "bubblewrap" package (e.g. sudo apt-get install bubblewrap) to contain them.',
      );
    }
    let lastError = '';
    for (const disableUserns of [true, false]) {
      const [probe] = disableUserns ? [firstTry] : yield* probeAll([bwrapProbe(false)]);
      if (probe?.status === 0) {
        return {
          kind: 'bubblewrap',
          reason: `run_shell commands run in a bubblewrap sandbox: no network, no other processes visible, system folders read-only, only the run's workspace writable${prlimit ? '' : ' (no process, file-size or CPU limits: util-linux prlimit is missing or cannot set them)'}.`,
          bwrap,
          disableUserns,
          prlimit,
        };
      }
      lastError = (probe?.error?.message ?? probe?.stderr ?? '').trim().split('\n').pop() ?? '';
    }
    return yield* none(
      `bubblewrap is installed but cannot create namespaces here (${lastError || 'it exited with an error'}), so run_shell commands run unsandboxed. ` +
        'Inside a container, allow user namespaces (or run Parallax outside it).',
    );
  } finally {
    if (probeDir) rmSync(probeDir, { recursive: true, force: true });
  }
}

/**
 * Seatbelt on macOS: trusted only when a probe command runs under the profile AND a write outside its
 * workspace is refused (a sandbox-exec that runs commands but enforces nothing must not count).
 */
function* detectSeatbelt(sandboxExec: string | null, prlimit: string | null): Detection<ShellSandboxInfo> {
  const none = (reason: string): ShellSandboxInfo => ({ kind: 'none', reason, prlimit });
  if (!sandboxExec || !existsSync(sandboxExec)) {
    return none(
      'macOS sandbox-exec was not found, so run_shell commands run unsandboxed, as you, and each one asks first.',
    );
  }
  const base = realpathSync(mkdtempSync(path.join(tmpdir(), 'parallax-probe-')));
  try {
    const workspace = path.join(base, 'ws');
    const temp = path.join(base, 'tmp');
    const outside = path.join(base, 'outside');
    for (const dir of [workspace, temp, outside]) mkdirSync(dir);
    const profile = seatbeltProfile({ workspace, temp, home: homedir() });
    const probe = (script: string): Probe => ({
      file: sandboxExec,
      args: ['-p', profile, '/bin/sh', '-c', script],
      cwd: workspace,
      env: { PATH: '/usr/bin:/bin' },
    });
    const [works] = yield [probe('echo ok > inside && exit 0')];
    if (works!.status !== 0 || !existsSync(path.join(workspace, 'inside'))) {
      const why = (works!.error?.message ?? works!.stderr ?? '').trim().split('\n').pop() || 'it exited with an error';
      return none(
        `macOS sandbox-exec refused Parallax's profile (${why}), so run_shell commands run unsandboxed, as you, and each one asks first.`,
      );
    }
    yield [probe(`echo leak > ${JSON.stringify(path.join(outside, 'leak'))}`)];
    if (existsSync(path.join(outside, 'leak'))) {
      return none(
        'macOS sandbox-exec ran the profile but did not refuse a write outside the workspace, so run_shell commands run unsandboxed, as you, and each one asks first.',
      );
    }
    return {
      kind: 'seatbelt',
      reason:
        "run_shell commands run under a macOS Seatbelt profile: no network, no reads of the home folders, writes only to the run's workspace and a private temp folder. " +
        'Processes are not isolated (no PID namespace), so each command still asks first.',
      sandboxExec,
      prlimit,
    };
  } finally {
    rmSync(base, { recursive: true, force: true });
  }
}
