/**
 * How the host starts worker processes. Two implementations share this interface: `forkLauncher` (Node's
 * child_process.fork: CLI, web host, tests) and, in the desktop shell, one over Electron's utilityProcess.
 */
import { fork } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { appLayout, type AppLayout } from '../engine/app-layout.js';
import { freshBuild } from '../engine/fresh-build.js';
import { osSandboxSwitchedOff } from '../engine/sandbox/sandbox-switch.js';
import { knownShellSandbox } from '../engine/sandbox/shell-sandbox.js';
import type { WorkerProgram } from '../../shared/modes.js';
import { hintsEnvironment } from '../worker/worker-hints.js';
import type { HostToWorker, WorkerToHost } from '../worker/worker-protocol.js';
import { HOST_PID_ENV, isWorkerToHost } from '../worker/worker-protocol.js';

export interface WorkerExit {
  readonly code: number | null;
  readonly signal: string | null;
  /** The last lines the worker wrote to stderr, for crash messages ('' when unknown). */
  readonly stderrTail: string;
}

export interface WorkerHandle {
  readonly pid: number | undefined;
  send(message: HostToWorker): void;
  onMessage(listener: (message: WorkerToHost) => void): void;
  /** Called once, after every message the worker sent has been delivered to onMessage. */
  onExit(listener: (exit: WorkerExit) => void): void;
  /** Stop it now (SIGKILL or the platform's equivalent). */
  kill(): void;
}

export interface LaunchOptions {
  /** Environment the host offers the worker; only `workerEnvironment`'s allowlist of it reaches the worker. */
  readonly env: NodeJS.ProcessEnv;
  /** A label for diagnostics (e.g. the run id). */
  readonly name: string;
  /** The language of the programs its run will run, when known at launch (worker-hints.ts). */
  readonly program?: WorkerProgram;
}

export interface WorkerLauncher {
  launch(options: LaunchOptions): WorkerHandle;
}

/**
 * Variables a worker keeps. A worker runs model-chosen tools; whatever its environment holds (keys, tokens,
 * the user's settings) is one bug away from the model, so it starts from an allowlist instead: the locale, the
 * time zone, the search path, CA certificates for reaching providers, and on Windows what Node itself needs.
 * NODE_OPTIONS is never passed (it could load code into the worker). HOME points at the temp folder.
 * PARALLAX_SANDBOX (sandbox-switch.ts) passes so that a worker sees the same OS-sandbox choice as its host.
 */
const WORKER_ENV = [
  'PATH',
  'LANG',
  'LANGUAGE',
  'LC_ALL',
  'LC_CTYPE',
  'LC_MESSAGES',
  'LC_NUMERIC',
  'LC_TIME',
  'LC_COLLATE',
  'TZ',
  'TMPDIR',
  'NODE_EXTRA_CA_CERTS',
  'SSL_CERT_FILE',
  'SSL_CERT_DIR',
  'PARALLAX_SANDBOX',
];
const WINDOWS_ENV = ['SYSTEMROOT', 'WINDIR', 'TEMP', 'TMP', 'PATHEXT', 'COMSPEC', 'SYSTEMDRIVE'];

export function workerEnvironment(
  env: NodeJS.ProcessEnv,
  platform: NodeJS.Platform = process.platform,
): Record<string, string> {
  const allowed = new Set(platform === 'win32' ? [...WORKER_ENV, ...WINDOWS_ENV] : WORKER_ENV);
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(env)) {
    // Windows names are case-insensitive (Path, SystemRoot).
    const key = platform === 'win32' ? name.toUpperCase() : name;
    if (typeof value === 'string' && allowed.has(key)) out[name] = value;
  }
  out[platform === 'win32' ? 'USERPROFILE' : 'HOME'] = tmpdir();
  // Not a secret: the worker's watchdog ends the worker when this process is gone (worker-runtime.ts).
  out[HOST_PID_ENV] = String(process.pid);
  return out;
}

/**
 * The environment a worker starts with: the allowlist above, and what the host can tell it ahead (worker-hints.ts):
 * its run's program language when known, and this process's shell sandbox finding when it has probed already.
 */
export function workerStartEnvironment(env: NodeJS.ProcessEnv, program?: WorkerProgram): Record<string, string> {
  const found = knownShellSandbox();
  return {
    ...workerEnvironment(env),
    ...hintsEnvironment({
      ...(program ? { program } : {}),
      ...(found ? { shellSandbox: { found, switchedOff: osSandboxSwitchedOff() } } : {}),
    }),
  };
}

/**
 * Path of a worker entry: from the sources, the .ts source under tsx (or the bundle of a build newer than them); in a repository build the bundle (dist/worker, one file
 * to load instead of a few hundred modules) when the build made it, else tsc's output; in the desktop app the
 * bundle in app.asar.unpacked, so the worker, its threads and its children read real files, not the archive.
 */
export function workerEntry(name: 'worker-main', layout: AppLayout = appLayout()): string {
  const bundled = path.join(layout.workerDir, `${name}.js`);
  if (layout.kind === 'source') {
    // The bundle when a build made after the last change to the sources has it: the same code, loaded faster.
    return freshBuild(layout.appRoot, bundled)
      ? bundled
      : path.join(layout.appRoot, 'electron', 'worker', `${name}.ts`);
  }
  if (layout.kind === 'packaged') return bundled;
  return existsSync(bundled) ? bundled : path.join(layout.appRoot, 'dist', 'electron', 'worker', `${name}.js`);
}

const STDERR_TAIL = 4000;
/** After 'exit', how long to wait for the IPC channel to drain before reporting the exit anyway. */
const DRAIN_MS = 1000;

export interface ForkLauncherOptions {
  /** Worker entry module; default the real worker. */
  readonly entry?: string;
  /** Extra argv for the worker (never secrets). */
  readonly args?: readonly string[];
  /** Copy the worker's stderr to this process's stderr as well as keeping its tail. */
  readonly echoStderr?: boolean;
}

/**
 * V8 flags of every worker process. QuickJS is one large WebAssembly module: by default V8 recompiles its hot
 * functions with its optimizing compiler during the first program, which briefly takes 30–45 MB and made a
 * Code Mode worker peak near 135 MB. A tiering budget 100× the default leaves the usual short programs on the
 * baseline compiler (peak under 100 MB) while a program that computes for long still gets optimized code.
 * Measured with `npm run bench -- startup` (peak memory per worker) and `npm run bench -- sandbox`.
 */
export const WORKER_V8_FLAGS: readonly string[] = ['--wasm-tiering-budget=180000000'];

/**
 * The worker bundle's CommonJS twin, started through run-cached.js with the V8 code cache beside it, when the build
 * made both (build/bundle-worker.mjs); any other entry as it is.
 */
export function scriptStart(entry: string): { file: string; args: string[] } {
  if (path.basename(entry) !== 'worker-main.js') return { file: entry, args: [] };
  const script = path.join(path.dirname(entry), 'worker-main.cjs');
  const runner = path.join(path.dirname(entry), 'run-cached.js');
  return existsSync(script) && existsSync(runner) ? { file: runner, args: [script] } : { file: entry, args: [] };
}

export function forkLauncher(options: ForkLauncherOptions = {}): WorkerLauncher {
  const entry = options.entry ?? workerEntry('worker-main');
  // Resolved from here, not from the working directory, so a worker forked from source loads tsx wherever
  // the CLI was started.
  const execArgv = [
    ...WORKER_V8_FLAGS,
    ...(entry.endsWith('.ts') ? ['--import', pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href] : []),
  ];
  const start = scriptStart(entry);
  return {
    launch({ env, name, program }) {
      const child = fork(start.file, [...start.args, ...(options.args ?? [])], {
        env: workerStartEnvironment(env, program),
        execArgv,
        stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
        serialization: 'json',
      });
      let stderrTail = '';
      child.stderr?.setEncoding('utf8');
      child.stderr?.on('data', (chunk: string) => {
        stderrTail = (stderrTail + chunk).slice(-STDERR_TAIL);
        if (options.echoStderr) process.stderr.write(`[${name}] ${chunk}`);
      });

      const exitListeners: ((exit: WorkerExit) => void)[] = [];
      let exited: { code: number | null; signal: string | null } | null = null;
      let disconnected = false;
      let reported = false;
      const report = (): void => {
        if (reported || !exited) return;
        reported = true;
        const exit = { ...exited, stderrTail: stderrTail.trim() };
        for (const fn of exitListeners) fn(exit);
      };
      child.on('disconnect', () => {
        disconnected = true;
        report();
      });
      child.on('exit', (code, signal) => {
        exited = { code, signal };
        // Messages can still be in the channel when 'exit' fires; 'disconnect' marks its end. A grandchild
        // holding the channel open must not stall the report forever.
        if (disconnected) report();
        else setTimeout(report, DRAIN_MS).unref();
      });
      child.on('error', (err) => {
        stderrTail = `${stderrTail}\n${err.message}`.slice(-STDERR_TAIL);
        if (child.exitCode === null && child.signalCode === null && child.pid === undefined) {
          exited = { code: null, signal: null };
          report();
        }
      });

      return {
        pid: child.pid,
        send(message) {
          if (!child.connected) return;
          try {
            child.send(message);
          } catch {
            /* the worker is exiting; its exit is reported separately */
          }
        },
        onMessage(listener) {
          child.on('message', (m: unknown) => {
            if (isWorkerToHost(m)) listener(m);
          });
        },
        onExit(listener) {
          exitListeners.push(listener);
        },
        kill() {
          if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
        },
      };
    },
  };
}
