/**
 * The host's WorkerLauncher over Electron's utilityProcess: one utility process per run, named after it.
 * The run spec and API key go to the worker by postMessage (the host's 'init' message), never argv or env;
 * the worker's environment is the same allowlist as under fork (`workerStartEnvironment`).
 */
import type { ForkOptions, UtilityProcess } from 'electron';
import {
  WORKER_V8_FLAGS,
  workerStartEnvironment,
  type WorkerExit,
  type WorkerHandle,
  type WorkerLauncher,
} from '../host/launcher.js';
import { isWorkerToHost, type HostToWorker } from '../worker/worker-protocol.js';

/** `utilityProcess.fork`, injectable so the launcher can be tested without Electron. */
export type UtilityFork = (modulePath: string, args: string[], options: ForkOptions) => UtilityProcess;

export interface UtilityLauncherOptions {
  readonly fork: UtilityFork;
  /** The worker entry (dist/electron/worker/worker-main.js). */
  readonly entry: string;
  /** How long after 'exit' messages still in flight are accepted before the exit is reported. */
  readonly drainMs?: number;
  readonly echoStderr?: (line: string) => void;
}

const STDERR_TAIL = 4000;

/** Process names may show up in task managers: keep them short and printable. */
export function serviceNameFor(name: string): string {
  const clean = name.replace(/[^\w.:-]+/g, '-').slice(0, 48);
  return `Parallax run ${clean}`;
}

export function utilityLauncher(options: UtilityLauncherOptions): WorkerLauncher {
  const drainMs = options.drainMs ?? 250;
  return {
    launch({ env, name, program }): WorkerHandle {
      const child = options.fork(options.entry, [], {
        env: workerStartEnvironment(env, program),
        // The same V8 flags as a forked worker, so the worker memory measured under Node holds in the app.
        execArgv: [...WORKER_V8_FLAGS],
        serviceName: serviceNameFor(name),
        stdio: ['ignore', 'ignore', 'pipe'],
      });

      let stderrTail = '';
      const appendStderr = (text: string): void => {
        stderrTail = (stderrTail + text).slice(-STDERR_TAIL);
      };
      child.stderr?.setEncoding?.('utf8');
      child.stderr?.on('data', (chunk: string | Buffer) => {
        const text = typeof chunk === 'string' ? chunk : chunk.toString('utf8');
        appendStderr(text);
        options.echoStderr?.(`[${name}] ${text}`);
      });
      child.on('error', (type, location) => appendStderr(`\n${type} at ${location}`));

      const exitListeners: ((exit: WorkerExit) => void)[] = [];
      let exitInfo: WorkerExit | null = null;
      let reported = false;
      let running = true;

      child.on('exit', (code) => {
        running = false;
        // The worker posts its last events right before exiting; give the port a moment to deliver them.
        setTimeout(() => {
          reported = true;
          exitInfo = { code, signal: null, stderrTail: stderrTail.trim() };
          for (const fn of exitListeners) fn(exitInfo);
        }, drainMs);
      });

      return {
        get pid() {
          return child.pid;
        },
        send(message: HostToWorker) {
          if (!running) return;
          try {
            child.postMessage(message);
          } catch {
            /* the worker is exiting; its exit is reported separately */
          }
        },
        onMessage(listener) {
          child.on('message', (m: unknown) => {
            if (!reported && isWorkerToHost(m)) listener(m);
          });
        },
        onExit(listener) {
          if (exitInfo) listener(exitInfo);
          else exitListeners.push(listener);
        },
        kill() {
          if (running) child.kill();
        },
      };
    },
  };
}
