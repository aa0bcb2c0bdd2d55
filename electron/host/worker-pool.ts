/**
 * Warm workers: processes started ahead of a Run that load the engine and wait, so Run hands out workers
 * that are already loaded instead of paying a process start and module loading per mode. A pooled worker
 * knows nothing of a run until it is taken (no spec, no key); the comparison then sends it `init` and
 * releases the round's workers together, as with fresh ones, so the fairness rule does not change.
 *
 * - Only a worker that has said 'loaded' and has not exited is handed out first; one still loading may be
 *   handed out when none is loaded (it is still further along than a fresh one); an exited one never.
 * - A worker that dies while idle is replaced (unless workers keep dying before they load: then the pool
 *   stops refilling and says why, and runs start fresh workers).
 * - Idle workers are reaped after `idleMs` without use; the next warm-up starts new ones.
 */
import type { WorkerProgram } from '../../shared/modes.js';
import type { WorkerHandle, WorkerLauncher } from './launcher.js';
import { workerEnvironment } from './launcher.js';
import { timeWorker } from './worker-start.js';

export interface WorkerPoolOptions {
  /** Kill idle workers after this long without a take or a warm-up. Default 5 minutes. */
  readonly idleMs?: number;
  /** Never keep more idle workers than this. Default 8. */
  readonly maxIdle?: number;
  warn?(message: string): void;
}

interface Entry {
  readonly handle: WorkerHandle;
  /** What it was started for (worker-hints.ts); undefined: any run. */
  readonly program: WorkerProgram | undefined;
  readonly envKey: string;
  loaded: boolean;
  exited: boolean;
  taken: boolean;
  /** Killed by the pool (reaped, closed): its exit is expected. */
  retired: boolean;
  readonly whenLoaded: Promise<void>;
}

/** Workers that die before loading, in a row, after which the pool stops refilling. */
const MAX_EARLY_DEATHS = 3;

export class WorkerPool {
  private idle: Entry[] = [];
  private target = 0;
  private counter = 0;
  private earlyDeaths = 0;
  private closed = false;
  private reapTimer: NodeJS.Timeout | null = null;
  private readonly idleMs: number;
  private readonly maxIdle: number;
  private readonly envKey: string;

  constructor(
    private readonly launcher: WorkerLauncher,
    /** The environment pooled workers start with (already stripped of keys by the caller). */
    private readonly env: NodeJS.ProcessEnv,
    private readonly options: WorkerPoolOptions = {},
  ) {
    this.idleMs = options.idleMs ?? 5 * 60_000;
    this.maxIdle = options.maxIdle ?? 8;
    this.envKey = envKeyOf(env);
  }

  /** Idle workers now (loaded or loading). */
  get size(): number {
    return this.idle.length;
  }

  /** Idle workers that have loaded the engine. */
  get loadedCount(): number {
    return this.idle.filter((e) => e.loaded).length;
  }

  /** Whether a worker started with `env` would get the same environment as a pooled one. */
  matches(env: NodeJS.ProcessEnv): boolean {
    return envKeyOf(env) === this.envKey;
  }

  /**
   * Start workers until `count` are idle; `standing`: keep that many from now on (refilled after every round,
   * until reaped). Resolves when the idle workers have loaded or exited (the bench and tests wait; the app not).
   * A list instead of a count names the program language of each run to come: each worker prepares for one.
   */
  warm(count: number | readonly WorkerProgram[], standing = true): Promise<void> {
    const n = typeof count === 'number' ? count : count.length;
    if (standing) this.target = Math.min(this.maxIdle, Math.max(this.target, n));
    this.prepare(count);
    return Promise.all(this.idle.map((e) => e.whenLoaded)).then(() => undefined);
  }

  /** How many idle workers to keep from now on, without starting any now (the last comparison's mode count). */
  setTarget(count: number): void {
    this.target = Math.min(this.maxIdle, Math.max(0, count));
  }

  /**
   * Start workers until `count` (at least the standing number) are idle: a comparison's next round. Given the
   * round's program languages, the workers started for it prepare for those not already idle.
   */
  prepare(count: number | readonly WorkerProgram[]): void {
    const n = typeof count === 'number' ? count : count.length;
    const wanted = typeof count === 'number' ? [] : [...count];
    for (const e of this.idle) {
      const i = wanted.indexOf(e.program!);
      if (i >= 0) wanted.splice(i, 1);
    }
    this.fill(Math.min(this.maxIdle, Math.max(n, this.target)), wanted);
    this.touch();
  }

  /**
   * Workers for a round's runs, in the runs' order (`programs`: each run's program language): for each run a
   * worker started for its language, else one started for any run, else another, loaded ones before those still
   * loading; undefined where the pool is short or the environment differs (the caller starts a fresh one).
   */
  takeFor(programs: readonly WorkerProgram[], env: NodeJS.ProcessEnv): (WorkerHandle | undefined)[] {
    this.touch();
    const out: (Entry | undefined)[] = programs.map(() => undefined);
    if (this.closed || !this.matches(env)) return [];
    const live = this.idle.filter((e) => !e.exited);
    const free = [...live.filter((e) => e.loaded), ...live.filter((e) => !e.loaded)];
    const fits: ((e: Entry, program: WorkerProgram) => boolean)[] = [
      (e, p) => e.program === p,
      (e) => e.program === undefined,
      () => true,
    ];
    for (const fit of fits)
      programs.forEach((program, i) => {
        if (out[i]) return;
        const at = free.findIndex((e) => fit(e, program));
        if (at >= 0) out[i] = free.splice(at, 1)[0];
      });
    for (const e of out) if (e) e.taken = true;
    this.idle = this.idle.filter((e) => !e.taken && !e.exited);
    return out.map((e) => e?.handle);
  }

  /** Kill every idle worker and stop refilling. */
  close(): void {
    this.closed = true;
    this.target = 0;
    if (this.reapTimer) clearTimeout(this.reapTimer);
    this.retireAll();
  }

  private retireAll(): void {
    for (const e of this.idle) {
      e.retired = true;
      e.handle.kill();
    }
    this.idle = [];
  }

  /** Start workers until `count` are idle, the first ones for `programs` (then for any run). */
  private fill(count: number, programs: readonly WorkerProgram[] = []): void {
    const next = [...programs];
    while (!this.closed && this.idle.length < count && this.earlyDeaths < MAX_EARLY_DEATHS) {
      const entry = this.launch(next.shift());
      if (!entry) return;
      this.idle.push(entry);
    }
  }

  private launch(program: WorkerProgram | undefined): Entry | null {
    let handle: WorkerHandle;
    try {
      handle = this.launcher.launch({ env: this.env, name: `pool-${++this.counter}`, ...(program ? { program } : {}) });
      timeWorker(handle, true);
      // A standing pool waits for Runs to come (the app's composer): its workers also load, in that idle time,
      // what a tool-search run needs. A one-off warm-up (the CLI's first round) starts none of it.
      if (this.target > 0) handle.send({ type: 'preload' });
    } catch (err) {
      this.earlyDeaths = MAX_EARLY_DEATHS;
      this.options.warn?.(
        `Could not start a warm worker (${(err as Error).message}); runs will start their own workers.`,
      );
      return null;
    }
    let markLoaded!: () => void;
    const whenLoaded = new Promise<void>((resolve) => (markLoaded = resolve));
    const entry: Entry = {
      handle,
      program,
      envKey: this.envKey,
      loaded: false,
      exited: false,
      taken: false,
      retired: false,
      whenLoaded,
    };
    handle.onMessage((m) => {
      if (m.type !== 'loaded' || entry.exited) return;
      entry.loaded = true;
      this.earlyDeaths = 0;
      markLoaded();
      this.touch(); // idle from now on, not from when it was started
    });
    handle.onExit((exit) => {
      entry.exited = true;
      markLoaded();
      if (entry.taken) return; // a run's worker now: its session reports the exit
      this.idle = this.idle.filter((e) => e !== entry);
      if (this.closed || entry.retired) return;
      if (!entry.loaded && ++this.earlyDeaths >= MAX_EARLY_DEATHS) {
        // Said once: workers still in flight when the limit is reached die the same way.
        if (this.earlyDeaths > MAX_EARLY_DEATHS) return;
        const why = exit.stderrTail ? `: ${exit.stderrTail.slice(-300)}` : '';
        this.options.warn?.(`Warm workers keep exiting before they load${why}. Runs will start their own workers.`);
        return;
      }
      this.fill(this.target);
    });
    return entry;
  }

  /** Any use postpones the reaping of idle workers. */
  private touch(): void {
    if (this.reapTimer) clearTimeout(this.reapTimer);
    if (this.closed) return;
    this.reapTimer = setTimeout(() => {
      // A worker still loading is not idle yet: its idle time starts when it has loaded.
      if (this.idle.some((e) => !e.loaded && !e.exited)) return this.touch();
      this.target = 0;
      this.retireAll();
    }, this.idleMs);
    this.reapTimer.unref();
  }
}

/** Two environments are the same for a worker when what reaches it (the allowlist) is the same. */
function envKeyOf(env: NodeJS.ProcessEnv): string {
  return JSON.stringify(Object.entries(workerEnvironment(env)).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}
