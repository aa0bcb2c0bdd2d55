/**
 * Incoming 'run:events' batches are collected here, outside the store, and flushed into it at most once per
 * animation frame: a fast run can push hundreds of events a second, and one store update (one React render)
 * per frame keeps the UI responsive however fast they come.
 */
import type { StepEvent } from '../../shared/step-event.js';

export type Scheduler = (flush: () => void) => void;

export interface EventBuffer {
  push(batch: readonly StepEvent[]): void;
  /** Apply whatever is buffered now (used before reading the store synchronously, e.g. on reopen). */
  flush(): void;
  pending(): number;
}

/** requestAnimationFrame while visible; a timer while hidden, where animation frames stop firing. */
export const frameScheduler: Scheduler = (flush) => {
  if (typeof document !== 'undefined' && document.visibilityState === 'hidden') setTimeout(flush, 250);
  else requestAnimationFrame(() => flush());
};

export function createEventBuffer(
  apply: (events: StepEvent[]) => void,
  schedule: Scheduler = frameScheduler,
): EventBuffer {
  let buffer: StepEvent[] = [];
  let scheduled = false;
  const flush = () => {
    scheduled = false;
    if (buffer.length === 0) return;
    const batch = buffer;
    buffer = [];
    apply(batch);
  };
  return {
    push(batch) {
      for (const e of batch) buffer.push(e);
      if (!scheduled && buffer.length > 0) {
        scheduled = true;
        schedule(flush);
      }
    },
    flush,
    pending: () => buffer.length,
  };
}
