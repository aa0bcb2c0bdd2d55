/**
 * Fan-in of every worker's events: each batch is appended to its run's JSONL and handed to the shell in
 * one call, about once a frame (the Electron shell forwards a batch per frame; the web host per message).
 */
import type { StepEvent } from '../../shared/step-event.js';
import type { RunLog } from './history-store.js';

export interface FanInOptions {
  readonly intervalMs?: number;
  readonly maxEvents?: number;
}

export class EventFanIn {
  private pending: StepEvent[] = [];
  private perLog = new Map<RunLog, StepEvent[]>();
  private timer: NodeJS.Timeout | null = null;
  private readonly intervalMs: number;
  private readonly maxEvents: number;

  constructor(
    private readonly onEvents: (batch: readonly StepEvent[]) => void,
    private readonly warn: (message: string) => void,
    options: FanInOptions = {},
  ) {
    this.intervalMs = options.intervalMs ?? 16;
    this.maxEvents = options.maxEvents ?? 200;
  }

  push(log: RunLog, events: readonly StepEvent[]): void {
    if (events.length === 0) return;
    this.pending.push(...events);
    let list = this.perLog.get(log);
    if (!list) this.perLog.set(log, (list = []));
    list.push(...events);
    if (this.pending.length >= this.maxEvents) this.flush();
    else this.timer ??= setTimeout(() => this.flush(), this.intervalMs);
  }

  /** Write what is queued (disk writes are chained per run) and hand it to the shell. */
  flush(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    if (this.pending.length === 0) return;
    const batch = this.pending;
    const perLog = this.perLog;
    this.pending = [];
    this.perLog = new Map();
    for (const [log, events] of perLog) log.append(events);
    try {
      this.onEvents(batch);
    } catch (err) {
      this.warn(`The event listener failed on a batch of ${batch.length} events: ${(err as Error).message}`);
    }
  }
}
