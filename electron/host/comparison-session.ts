/**
 * One comparison in flight: a worker per mode, all spawned at once, each loading its engine; when every
 * worker is ready they are released together so process start-up skew does not favour one mode.
 */
import type { ComparisonMeta } from '../../shared/ipc-contract.js';
import { PROVIDER_PRESETS } from '../../shared/providers.js';
import type { RunSpec } from '../../shared/run-spec.js';
import type { EventFanIn } from './fan-in.js';
import type { HistoryStore } from './history-store.js';
import type { WorkerExit, WorkerHandle, WorkerLauncher } from './launcher.js';
import { RunSession, type RunTiming } from './run-session.js';

export interface SessionDeps {
  readonly launcher: WorkerLauncher;
  readonly store: HistoryStore;
  readonly fanIn: EventFanIn;
  readonly timing: RunTiming;
  readonly baseEnv: NodeJS.ProcessEnv;
  warn(message: string): void;
}

/** The worker's environment: the host's, minus anything that holds an API key. */
export function workerEnv(base: NodeJS.ProcessEnv, apiKey: string | null, apiKeyEnv: string | null): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  const keyNames = new Set(PROVIDER_PRESETS.map((p) => p.keyEnv).filter((k): k is string => !!k));
  if (apiKeyEnv) keyNames.add(apiKeyEnv);
  for (const [name, value] of Object.entries(base)) {
    if (value === undefined || keyNames.has(name)) continue;
    if (apiKey && apiKey.length >= 8 && value.includes(apiKey)) continue;
    env[name] = value;
  }
  return env;
}

export class ComparisonSession {
  readonly runs: RunSession[] = [];
  readonly done: Promise<void>;
  private released = false;
  private resolveDone!: () => void;
  private pendingLogs: Promise<void>[] = [];

  constructor(readonly meta: ComparisonMeta, specs: readonly RunSpec[], apiKey: string | null, deps: SessionDeps) {
    this.done = new Promise((resolve) => (this.resolveDone = resolve));
    const env = workerEnv(deps.baseEnv, apiKey, specs[0]?.apiKeyEnv ?? null);
    let ended = 0;
    for (const spec of specs) {
      const log = deps.store.openRunLog(meta.id, spec.runId);
      const handle = launchOrFail(deps.launcher, env, spec.runId);
      const run: RunSession = new RunSession(spec, handle, {
        accept: (events) => deps.fanIn.push(log, events),
        ready: () => this.maybeRelease(),
        ended: () => {
          deps.fanIn.flush();
          this.pendingLogs.push(log.finish());
          this.maybeRelease();
          if (++ended === specs.length) void Promise.all(this.pendingLogs).then(() => this.resolveDone());
        },
        warn: deps.warn,
      }, deps.timing);
      this.runs.push(run);
    }
    // Every worker is spawned before any gets its spec, so they load side by side.
    for (const run of this.runs) run.init(apiKey);
  }

  get id(): string {
    return this.meta.id;
  }

  isLive(runId: string): boolean {
    return this.runs.some((r) => r.spec.runId === runId && !r.done);
  }

  hasRun(runId: string): boolean {
    return this.runs.some((r) => r.spec.runId === runId);
  }

  /** Release every ready worker at once, when no worker is still loading. */
  private maybeRelease(): void {
    if (this.released) return;
    if (!this.runs.every((r) => r.isReady || r.done || r.cancelRequested)) return;
    this.released = true;
    for (const run of this.runs) if (run.isReady) run.release();
  }

  cancel(): void {
    for (const run of this.runs) run.cancel();
    this.maybeRelease();
  }

  cancelRun(runId: string): void {
    this.runs.find((r) => r.spec.runId === runId)?.cancel();
    this.maybeRelease();
  }

  kill(): void {
    for (const run of this.runs) run.kill();
  }
}

/** A launcher that throws (no memory for a process, a missing entry) gives a handle that has already exited. */
function launchOrFail(launcher: WorkerLauncher, env: NodeJS.ProcessEnv, name: string): WorkerHandle {
  try {
    return launcher.launch({ env, name });
  } catch (err) {
    const exit: WorkerExit = { code: null, signal: null, stderrTail: `The worker process could not be started: ${(err as Error).message}` };
    return {
      pid: undefined,
      send: () => {},
      onMessage: () => {},
      onExit: (listener) => void setImmediate(() => listener(exit)),
      kill: () => {},
    };
  }
}
