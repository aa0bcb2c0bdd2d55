/**
 * What one page receives of the host's event batches, written once for both shells: the Electron window
 * (electron/main) and each web page's socket (host/web/web-host.ts). Nothing is sent until the page says it is
 * ready ('app:ready'): until then batches are queued, and sent as one batch when it is. The host's fan-in
 * already cuts the stream into one batch per ~16 ms, so a ready page gets each batch as it comes, with no timer
 * of its own (the renderer applies what arrived once per animation frame).
 *
 * A page that reloads in place (the Electron window; a web page reconnects with a socket, and so a gate, of its
 * own) is not ready again until it says so, and gets the runs still in flight from their first event, so the
 * fresh page can rebuild the live view.
 */
import type { StepEvent } from '../../shared/step-event.js';

export interface PageGateOptions {
  readonly send: (batch: readonly StepEvent[]) => void;
  /**
   * Events queued for a page not ready yet beyond which batches are dropped (the page must then reload from
   * history); a batch is queued whole while fewer are queued. Default: no limit.
   */
  readonly maxQueued?: number;
  /**
   * The page reloads in place, keeping this gate (the Electron window): the events of the runs in flight are
   * kept to send it again. A web page that reloads opens a new socket, and gets a new gate.
   */
  readonly reloads?: boolean;
}

export interface PageGate {
  /** A batch from the host's fan-in: sent now when the page is ready, queued otherwise. */
  push(events: readonly StepEvent[]): void;
  /** The page called 'app:ready': send everything queued, in one batch, then each batch as it comes. */
  markReady(): void;
  /** The page is reloading or gone: hold events and queue those of the runs in flight from their start again. */
  markNotReady(): void;
  /** Events waiting to be sent (for diagnostics and tests). */
  pending(): number;
  dispose(): void;
}

export function createPageGate(options: PageGateOptions): PageGate {
  const maxQueued = options.maxQueued ?? Infinity;
  let queue: StepEvent[] = [];
  let ready = false;
  let disposed = false;
  // Every event since the oldest run still in flight started; dropped once all runs have finished.
  let replay: StepEvent[] = [];
  const active = new Set<string>();

  const track = (event: StepEvent): void => {
    if (!options.reloads) return;
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
      for (const event of events) track(event);
      if (ready) options.send(events);
      else if (queue.length < maxQueued) queue.push(...events);
    },
    markReady() {
      if (disposed || ready) return;
      ready = true;
      const batch = queue;
      queue = [];
      if (batch.length > 0) options.send(batch);
    },
    markNotReady() {
      // A page that never became ready has received nothing: keep its queue as it is.
      if (!ready) return;
      ready = false;
      // The old page's state is gone: resend the in-flight runs from their start, without duplicates.
      queue = [...replay];
    },
    pending: () => queue.length,
    dispose() {
      disposed = true;
      queue = [];
      replay = [];
    },
  };
}
