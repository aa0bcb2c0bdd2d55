/**
 * Coalesces step events into one IPC message per frame (~16 ms). Nothing is sent until the page says it is
 * ready ('app:ready'); when the page reloads, sending stops again and the events of the runs still in flight
 * are queued once more, so the fresh page can rebuild the live view from their first event.
 */
import type { StepEvent } from '../../shared/step-event.js';

export interface BatcherTimers {
  setTimeout(fn: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

export interface EventBatcherOptions {
  readonly send: (batch: readonly StepEvent[]) => void;
  readonly intervalMs?: number;
  readonly timers?: BatcherTimers;
}

export interface EventBatcher {
  /** Adds events from the host (one worker's batch, or several). */
  push(events: readonly StepEvent[]): void;
  /** The page called 'app:ready': send everything queued now, then batch per frame. */
  markReady(): void;
  /** The page is reloading or gone: hold events and re-queue those of unfinished runs. */
  markNotReady(): void;
  /** Events waiting to be sent (for diagnostics and tests). */
  pending(): number;
  dispose(): void;
}

const defaultTimers: BatcherTimers = {
  setTimeout: (fn, ms) => setTimeout(fn, ms),
  clearTimeout: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
};

export function createEventBatcher(options: EventBatcherOptions): EventBatcher {
  const intervalMs = options.intervalMs ?? 16;
  const timers = options.timers ?? defaultTimers;
  let queue: StepEvent[] = [];
  let ready = false;
  let timer: unknown = null;
  let disposed = false;
  // Every event since the oldest run still in flight started; dropped once all runs have finished.
  let replay: StepEvent[] = [];
  const active = new Set<string>();

  const flush = (): void => {
    timer = null;
    if (!ready || queue.length === 0 || disposed) return;
    const batch = queue;
    queue = [];
    options.send(batch);
  };

  const schedule = (): void => {
    if (timer === null && ready && !disposed) timer = timers.setTimeout(flush, intervalMs);
  };

  const track = (event: StepEvent): void => {
    if (event.type === 'run-started') active.add(event.runId);
    if (active.size > 0) replay.push(event);
    if (event.type === 'run-finished') {
      active.delete(event.runId);
      if (active.size === 0) replay = [];
    }
  };

  return {
    push(events) {
      if (disposed || events.length === 0) return;
      for (const event of events) {
        track(event);
        queue.push(event);
      }
      schedule();
    },
    markReady() {
      if (disposed) return;
      ready = true;
      if (timer !== null) {
        timers.clearTimeout(timer);
        timer = null;
      }
      flush();
    },
    markNotReady() {
      // A page that never became ready has received nothing: keep its queue as it is.
      if (!ready) return;
      ready = false;
      if (timer !== null) {
        timers.clearTimeout(timer);
        timer = null;
      }
      // The old page's state is gone: resend the in-flight runs from their start, without duplicates.
      queue = [...replay];
    },
    pending: () => queue.length,
    dispose() {
      disposed = true;
      if (timer !== null) timers.clearTimeout(timer);
      timer = null;
      queue = [];
      replay = [];
    },
  };
}
