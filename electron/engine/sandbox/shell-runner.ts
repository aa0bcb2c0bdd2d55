/**
 * Runs one run_shell command: in bubblewrap where it works (shell-sandbox.ts), under the Seatbelt profile on
 * macOS, else as a plain process in a session of its own. Either way the command gets an allowlisted
 * environment, no stdin, no controlling terminal, capped output, process-count, file-size and CPU limits
 * (util-linux prlimit) and is killed whole at the deadline, on cancel and when its shell exits: bubblewrap's
 * PID namespace takes everything down; elsewhere the process sweep (process-sweep.ts) finds and kills what
 * the command started, `setsid` escapes included. Two watchdogs poll while it runs: the number of processes
 * it has (root ignores RLIMIT_NPROC) and the free space of the workspace's file system (many files each under
 * the file-size limit could still exceed the run's write budget).
 */
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, promises as fs, readFileSync, realpathSync, rmSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { trackChild } from '../child-processes.js';
import path from 'node:path';
import { reaperArgs } from './process-reaper.js';
import { procProcesses, ProcessSweep, SWEEP_MARKER } from './process-sweep.js';
import { seatbeltProfile } from './seatbelt.js';
import type { ShellBudget } from './shell-budget.js';
import {
  bubblewrapArgs,
  SANDBOX_HOME,
  SANDBOX_PATH,
  shellSandbox,
  UNSHARE_ARGS,
  UNSHARE_USER_ARGS,
  type SandboxBind,
  type ShellSandboxInfo,
} from './shell-sandbox.js';

export interface ShellRunLimits {
  readonly timeoutMs: number;
  /** Bytes kept of stdout and of stderr each. */
  readonly outputBytes: number;
  /** Processes (and threads) the command may have at once. */
  readonly maxProcesses: number;
  /** Largest file any process of the command may write (RLIMIT_FSIZE); 0 forbids writing. */
  readonly fileBytes: number;
  /** Bytes the command may add to the workspace before it is stopped. */
  readonly writeBudgetBytes: number;
  /** Size of the sandbox's private /tmp. */
  readonly tmpBytes: number;
}

export type ShellStop = 'time' | 'cancel' | 'processes' | 'write-budget' | 'memory' | null;

export interface ShellRun {
  readonly exitCode: number | null;
  readonly stdout: string;
  readonly stderr: string;
  readonly stop: ShellStop;
  readonly sandbox: ShellSandboxInfo['kind'];
}

export interface ShellRunOptions {
  readonly workspace: string;
  readonly env: Record<string, string>;
  readonly limits: ShellRunLimits;
  readonly signal: AbortSignal;
  /** Default: what shellSandbox() found. Tests and the bench pass one to compare. */
  readonly sandbox?: ShellSandboxInfo;
  /** Under bubblewrap, more paths shown inside (an agent column's program, its proxy socket). */
  readonly binds?: readonly SandboxBind[];
  /** Under bubblewrap, PATH inside (default SANDBOX_PATH): an agent column puts its interpreter's bin first. */
  readonly sandboxPath?: string;
  /** What the run's commands take together (shell-budget.ts): their processes, and without bubblewrap the host's memory-backed folders. */
  readonly budget?: ShellBudget;
  /** Without bubblewrap, keep the host's network (an agent reaches its proxy on 127.0.0.1); unshare still gives a user namespace. */
  readonly hostNetwork?: boolean;
}

const WATCH_MS = 100;
/** Free-space drops this much beyond the budget before the command is stopped (other programs write too). */
const FREE_SPACE_SLACK = 16 * 1024 * 1024;
/** The same for the host's memory-backed folders, which other programs use too. */
export const SHELL_MEMORY_SLACK = FREE_SPACE_SLACK;

/** The argv for the command, through prlimit and bubblewrap or sandbox-exec when available. */
export function commandLine(
  command: string,
  options: ShellRunOptions,
  info: ShellSandboxInfo,
  temp: string | null = null,
): { file: string; args: string[] } {
  const { limits } = options;
  const inner = ['/bin/sh', '-c', command];
  let argv = inner;
  if (info.kind === 'bubblewrap' && info.bwrap) {
    const env = Object.entries({
      ...options.env,
      PATH: options.sandboxPath ?? SANDBOX_PATH,
      HOME: SANDBOX_HOME,
      TMPDIR: '/tmp',
    }).flatMap(([k, v]) => ['--setenv', k, v]);
    argv = [
      info.bwrap,
      ...bubblewrapArgs({
        workspace: options.workspace,
        tmpBytes: limits.tmpBytes,
        disableUserns: info.disableUserns ?? false,
        ...(options.binds ? { binds: options.binds } : {}),
      }),
      ...env,
      '--',
      ...inner,
    ];
  } else if (info.kind === 'seatbelt' && info.sandboxExec && temp) {
    // Seatbelt matches real paths (/private/var/…, not /var/…).
    argv = [
      info.sandboxExec,
      '-p',
      seatbeltProfile({ workspace: realpathSync(options.workspace), temp, home: homedir() }),
      ...inner,
    ];
  } else if (info.kind === 'none' && info.unshare) {
    // Linux without bubblewrap: the user's files stay reachable, but the network is an empty one of its own.
    argv = [info.unshare, ...(options.hostNetwork ? UNSHARE_USER_ARGS : UNSHARE_ARGS), '--', ...inner];
  }
  // The subreaper goes outermost, so prlimit's limits apply to the command and not to it.
  const reaper = info.kind === 'none' && info.reaper ? reaperArgs(info.reaper, process.pid) : null;
  if (info.prlimit) {
    const cpu = Math.max(1, Math.ceil(limits.timeoutMs / 1000) + 1);
    argv = [
      info.prlimit,
      `--nproc=${limits.maxProcesses}`,
      `--fsize=${Math.max(0, Math.floor(limits.fileBytes))}`,
      `--cpu=${cpu}`,
      '--core=0',
      '--',
      ...argv,
    ];
  }
  if (reaper) argv = [...reaper, ...argv];
  return { file: argv[0], args: argv.slice(1) };
}

export function runShellCommand(command: string, options: ShellRunOptions): Promise<ShellRun> {
  const info = options.sandbox ?? shellSandbox();
  const { limits, signal } = options;
  const namespaced = info.kind === 'bubblewrap';
  // Outside bubblewrap: a private temp folder (the only place besides the workspace Seatbelt lets it write)
  // and a marker the sweep recognises the command's processes by.
  const temp = namespaced ? null : realpathSync(mkdtempSync(path.join(tmpdir(), 'parallax-sh-')));
  const marker = namespaced ? null : randomBytes(12).toString('hex');
  // Without bubblewrap a file in the host's /dev/shm or a tmpfs /tmp is memory: no one file may pass the temp budget.
  const capped =
    !namespaced && options.budget
      ? {
          ...options,
          limits: { ...options.limits, fileBytes: Math.min(options.limits.fileBytes, options.limits.tmpBytes) },
        }
      : options;
  const { file, args } = commandLine(command, capped, info, temp);
  return new Promise<ShellRun>((resolve, reject) => {
    const child = spawn(file, args, {
      cwd: options.workspace,
      // bubblewrap's own environment is visible inside as /proc/1/environ: it gets nothing but the allowlist.
      env: namespaced
        ? { PATH: SANDBOX_PATH }
        : { ...options.env, HOME: options.workspace, TMPDIR: temp!, [SWEEP_MARKER]: marker! },
      stdio: ['ignore', 'pipe', 'pipe'],
      // A session and process group of its own: no controlling terminal, and one kill reaches the group.
      detached: true,
    });
    const sweep =
      !namespaced && child.pid !== undefined
        ? new ProcessSweep(child.pid, { marker: `${SWEEP_MARKER}=${marker}` })
        : null;
    const stdout = capture(limits.outputBytes);
    const stderr = capture(limits.outputBytes);
    child.stdout.on('data', stdout.add);
    child.stderr.on('data', stderr.add);

    let stop: ShellStop = null;
    const killAll = (): void => {
      if (child.pid === undefined) return;
      // Without a PID namespace, what left the group (setsid, a double fork) is found and killed by the sweep,
      // the shell's root (the subreaper, which holds the orphans) last.
      sweep?.endAll();
      try {
        process.kill(-child.pid, 'SIGKILL');
      } catch {
        // ESRCH: the group is already gone.
      }
    };
    const stopWith = (why: Exclude<ShellStop, null>): void => {
      stop ??= why;
      killAll();
    };
    const timer = setTimeout(() => stopWith('time'), limits.timeoutMs);
    const onAbort = (): void => stopWith('cancel');
    signal.addEventListener('abort', onAbort, { once: true });
    // Cancelled before the command started (an abort fires its listeners once, earlier): stop it at once.
    if (signal.aborted) stopWith('cancel');
    // The overhead: bubblewrap and its init in the namespace, or the subreaper.
    const watch = watchdog(
      child.pid,
      namespaced ? 2 : info.reaper ? 1 : 0,
      options.workspace,
      limits,
      stopWith,
      sweep,
      options.budget ?? null,
      !namespaced,
    );
    const untrack = trackChild(killAll);

    const cleanup = (): void => {
      untrack();
      clearTimeout(timer);
      watch.stop();
      signal.removeEventListener('abort', onAbort);
      if (temp) rmSync(temp, { recursive: true, force: true });
    };
    child.on('error', (error) => {
      cleanup();
      reject(new Error(`could not start ${path.basename(file)}: ${error.message}`));
    });
    // When the shell exits, stop anything it left running; the pipes then close and 'close' fires.
    child.on('exit', (_code, signal) => {
      // bubblewrap killed in its first milliseconds may leave its child (the namespace's init) running.
      if (namespaced && signal !== null) killOrphanedInit(info.bwrap!, [file, ...args]);
      killAll();
    });
    child.on('close', (code) => {
      killAll(); // the pipes closed: one more sweep for anything that closed them and lives on
      cleanup();
      resolve({ exitCode: stop ? null : code, stdout: stdout.text(), stderr: stderr.text(), stop, sandbox: info.kind });
    });
  });
}

/**
 * bubblewrap's child is a fork of it: it makes a session of its own and only then asks to die with its parent,
 * so a kill in the command's first milliseconds can leave it running, outside the group the kill reached and
 * holding the output pipes open (the run would never end). It has bubblewrap's exact command line; once its
 * parent is gone, no live process with that command line is its parent: it is found and killed by pid.
 */
function killOrphanedInit(bwrap: string, argv: readonly string[]): void {
  // prlimit, when it is there, runs first and becomes bubblewrap: the command line starts at bubblewrap's path.
  const ours = argv.slice(argv.indexOf(bwrap)).join('\0') + '\0';
  const cmdline = (pid: number): string | null => {
    try {
      return readFileSync(`/proc/${pid}/cmdline`, 'utf8');
    } catch {
      return null;
    }
  };
  for (const p of procProcesses()) {
    // Skipped: a bubblewrap this process started (the same command, still running) and a child whose parent lives.
    if (p.ppid === process.pid || cmdline(p.pid) !== ours || cmdline(p.ppid) === ours) continue;
    try {
      process.kill(p.pid, 'SIGKILL');
    } catch {
      // ESRCH: already gone.
    }
  }
}

/** Polls the command's process count and the workspace's free space; calls `stop` when a limit is passed. */
function watchdog(
  pid: number | undefined,
  overhead: number,
  workspace: string,
  limits: ShellRunLimits,
  stop: (why: 'processes' | 'write-budget' | 'memory') => void,
  sweep: ProcessSweep | null,
  budget: ShellBudget | null,
  hostMemory: boolean,
): { stop(): void } {
  const id = Symbol('command');
  let freeAtStart: number | null = null;
  let busy = false;
  const freeBytes = (): Promise<number | null> =>
    fs.statfs(workspace).then(
      (s) => s.bavail * s.bsize,
      () => null,
    );
  void freeBytes().then((free) => (freeAtStart = free));
  const timer = setInterval(() => {
    if (busy || pid === undefined) return;
    busy = true;
    void (async () => {
      // Without a namespace the sweep's view (escaped processes included) is the count; it also remembers
      // processes before they can be orphaned.
      const count = sweep ? sweep.observe().length : await countProcesses(pid);
      if (count > limits.maxProcesses + overhead) stop('processes');
      // The run's commands together: one process limit, and (without bubblewrap) the host's /dev/shm and tmpfs /tmp.
      if (budget) {
        const total = budget.count(id, count);
        if (total > limits.maxProcesses + overhead * budget.commands) stop('processes');
        if (hostMemory && (await budget.memoryTaken()) > limits.tmpBytes + SHELL_MEMORY_SLACK) stop('memory');
      }
      const free = await freeBytes();
      if (freeAtStart !== null && free !== null && freeAtStart - free > limits.writeBudgetBytes + FREE_SPACE_SLACK)
        stop('write-budget');
    })().finally(() => (busy = false));
  }, WATCH_MS);
  return {
    stop: () => {
      clearInterval(timer);
      budget?.forget(id);
    },
  };
}

/** Processes in the tree under `pid` (Linux /proc; 0 where it is not readable). */
export async function countProcesses(pid: number): Promise<number> {
  let count = 0;
  const queue = [pid];
  while (queue.length > 0 && count < 100_000) {
    const next = queue.pop()!;
    count++;
    const tasks = await fs.readdir(`/proc/${next}/task`).catch(() => [] as string[]);
    for (const tid of tasks) {
      const children = await fs.readFile(`/proc/${next}/task/${tid}/children`, 'utf8').catch(() => '');
      for (const child of children.split(' ')) if (child.trim()) queue.push(Number(child));
    }
  }
  return count;
}

/** Keeps the first `cap` bytes of a stream and counts the rest, so a flood of output cannot fill memory. */
function capture(cap: number): { add: (chunk: Buffer) => void; text: () => string } {
  const chunks: Buffer[] = [];
  let kept = 0;
  let dropped = 0;
  return {
    add(chunk) {
      const room = cap - kept;
      if (room > 0) {
        const part = chunk.length <= room ? chunk : chunk.subarray(0, room);
        chunks.push(part);
        kept += part.length;
      }
      dropped += Math.max(0, chunk.length - Math.max(0, room));
    },
    text() {
      const body = Buffer.concat(chunks).toString('utf8');
      if (dropped === 0) return body;
      return `${body}\n[output truncated: ${dropped} more bytes not shown — filter it, e.g. with grep, head or wc]`;
    },
  };
}
