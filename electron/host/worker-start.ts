/**
 * A worker's start-up, measured where it happens: in the host, from the process spawn to the worker's
 * `loaded` (engine loaded) and `ready` (prepared for its spec) messages. A warm-pool worker loaded before
 * Run: that part is reported as before Run (not as zero), and its idle time in the pool is not start-up.
 * The record goes on the run's run-started event (RunSession), so the run's wall time, which starts after it,
 * stays apart.
 */
import type { WorkerStartRecord } from '../../shared/step-event.js';
import type { WorkerHandle } from './launcher.js';

const clocks = new WeakMap<WorkerHandle, WorkerStartClock>();

export class WorkerStartClock {
  private readonly spawnedAt: number;
  private loadedAt: number | null = null;
  private initAt: number | null = null;
  private readyAt: number | null = null;

  constructor(
    handle: WorkerHandle,
    readonly pooled: boolean,
    private readonly now: () => number = () => performance.now(),
  ) {
    this.spawnedAt = now();
    handle.onMessage((m) => {
      if (m.type === 'loaded') this.loadedAt ??= this.now();
      else if (m.type === 'ready') this.readyAt ??= this.now();
    });
  }

  /** The run's spec was sent: for this worker, Run (its round) began. */
  markInit(): void {
    this.initAt ??= this.now();
  }

  /** The start-up, once the worker is ready for its run (null before). */
  record(): WorkerStartRecord | null {
    if (this.readyAt === null || this.initAt === null) return null;
    // A worker that never said 'loaded' (an older build, a stand-in) loaded by the time it was ready.
    const loaded = this.loadedAt ?? this.readyAt;
    const load = Math.max(0, loaded - this.spawnedAt);
    const prepare = Math.max(0, this.readyAt - Math.max(this.initAt, loaded));
    const beforeRun = this.pooled ? Math.max(0, Math.min(loaded, this.initAt) - this.spawnedAt) : 0;
    return { ms: Math.round(load + prepare), beforeRunMs: Math.round(beforeRun), pooled: this.pooled };
  }
}

/** Start timing a worker just launched (by the pool, `pooled`, or for a run); its session reads the clock. */
export function timeWorker(handle: WorkerHandle, pooled: boolean): WorkerStartClock {
  const clock = new WorkerStartClock(handle, pooled);
  clocks.set(handle, clock);
  return clock;
}

export function clockOf(handle: WorkerHandle): WorkerStartClock | undefined {
  return clocks.get(handle);
}
