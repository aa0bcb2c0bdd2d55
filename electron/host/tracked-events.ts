/**
 * One run's events on their way to its record through its prompt-composition tracker, which loads late: the
 * tokenizer it counts with takes ~0.2 s of CPU to load and holds the thread while it does, so it loads when the
 * run's first reply is in (nothing before a reply has anything to count), not while the workers load and send
 * their first requests. Events before that reply pass at once (the tracker returns them unchanged) and are fed to
 * it once it exists; from the reply on they wait for it, in order, and so does whatever must follow them (`then`).
 */
import type { StepEvent } from '../../shared/step-event.js';

export interface EventTracker {
  /** Fed every event of the run in order; a model-response comes back with its composition. */
  observe(event: StepEvent): StepEvent;
}

export class TrackedEvents {
  /** Undefined until loaded; null when there is none (no loader, or it failed): events pass unchanged. */
  private tracker: EventTracker | null | undefined;
  /** Events passed before the tracker was needed, to feed it first. */
  private readonly early: StepEvent[] = [];
  /** What waits for the tracker, in order: batches of events, and steps that must follow them. */
  private readonly waiting: (readonly StepEvent[] | (() => void))[] = [];

  /**
   * `load` gives the run's tracker (undefined: record without one); it is called once, at the first reply.
   * `deliver` takes each batch, counted, in the order the batches came.
   */
  constructor(
    private readonly load: (() => Promise<EventTracker | undefined>) | undefined,
    private readonly deliver: (events: readonly StepEvent[]) => void,
  ) {
    this.tracker = load ? undefined : null;
  }

  push(events: readonly StepEvent[]): void {
    const tracker = this.tracker;
    if (tracker !== undefined) {
      this.deliver(tracker ? events.map((e) => tracker.observe(e)) : events);
      return;
    }
    if (this.waiting.length > 0 || events.some((e) => e.type === 'model-response')) {
      if (this.waiting.length === 0) this.startLoading();
      this.waiting.push(events);
      return;
    }
    this.early.push(...events);
    this.deliver(events);
  }

  /** Runs `step` once every event pushed so far is delivered: at once unless some wait for the tracker. */
  then(step: () => void): void {
    if (this.waiting.length === 0) step();
    else this.waiting.push(step);
  }

  private startLoading(): void {
    void this.load!()
      .catch(() => undefined)
      .then((tracker) => {
        this.tracker = tracker ?? null;
        if (tracker) for (const e of this.early) tracker.observe(e);
        this.early.length = 0;
        for (const item of this.waiting.splice(0)) {
          if (typeof item === 'function') item();
          else this.push(item);
        }
      });
  }
}
