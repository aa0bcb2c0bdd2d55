/**
 * Stamps runId, a gap-free seq and `t` on every event, cuts oversized strings (event-clip.ts), keeps the events
 * for the totals, and passes them on.
 */
import type { StepEvent, StepEventInput } from '../../shared/step-event.js';
import { clipEvent } from './event-clip.js';

export class EventRecorder {
  private readonly started = performance.now();
  private seq = 0;
  readonly events: StepEvent[] = [];

  constructor(
    readonly runId: string,
    private readonly sink: (event: StepEvent) => void,
  ) {}

  /** ms since the run started, to 0.1 ms. */
  now(): number {
    return Math.round((performance.now() - this.started) * 10) / 10;
  }

  emit(input: StepEventInput): StepEvent {
    const event = { ...clipEvent(input), runId: this.runId, seq: this.seq++, t: this.now() } as StepEvent;
    this.events.push(event);
    this.sink(event);
    return event;
  }
}
