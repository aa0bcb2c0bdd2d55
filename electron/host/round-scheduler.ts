/**
 * Rounds in flight per provider: a comparison asks for a slot before it starts a round and gives it back when
 * the round's runs are recorded. One scheduler per provider base URL (the simulated model is one), shared by
 * every comparison of the host, so a suite's comparisons share one provider's limit.
 *
 * Rate limits (AIMD): a 429 pauses new rounds for that provider until its retry-after has passed and halves
 * the limit (never below 1); each round that then ends without a 429 raises it by one, up to the ceiling the
 * user chose. Several runs answered 429 in the same pause count once. Runs already started are never stopped.
 */

export interface Throttle {
  /** The limit after the 429. */
  readonly limit: number;
  readonly pausedMs: number;
  /** One sentence for the comparison's record. */
  readonly note: string;
}

interface Waiter {
  readonly grant: (release: () => void) => void;
  readonly fail: (error: Error) => void;
}

export class RoundScheduler {
  private active = 0;
  private current: number;
  private pausedUntil = 0;
  private timer: NodeJS.Timeout | null = null;
  private readonly queue: Waiter[] = [];
  /** 429s seen since the last round started: a round that ends with none raises the limit. */
  private throttles = 0;

  constructor(
    readonly key: string,
    private ceiling: number,
    private readonly now: () => number = Date.now,
  ) {
    this.current = ceiling;
  }

  /** Rounds allowed at once right now. */
  get limit(): number {
    return this.current;
  }

  get inFlight(): number {
    return this.active;
  }

  /** A new comparison's choice: the ceiling it asked for (a lowered limit stays lowered, up to it). */
  configure(ceiling: number): void {
    this.ceiling = ceiling;
    this.current = this.throttles > 0 || this.pausedUntil > this.now() ? Math.min(this.current, ceiling) : ceiling;
    this.pump();
  }

  /** Resolves with the slot's release once a slot is free and no pause is on; rejects when `signal` aborts. */
  acquire(signal?: AbortSignal): Promise<() => void> {
    return new Promise((resolve, reject) => {
      if (signal?.aborted) return reject(new Error('cancelled'));
      const waiter: Waiter = {
        grant: (release) => {
          signal?.removeEventListener('abort', onAbort);
          resolve(release);
        },
        fail: reject,
      };
      const onAbort = (): void => {
        const i = this.queue.indexOf(waiter);
        if (i >= 0) this.queue.splice(i, 1);
        reject(new Error('cancelled'));
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      this.queue.push(waiter);
      this.pump();
    });
  }

  /** A run got a 429: pause new rounds for `retryAfterMs`, halve the limit. Null when a pause already covers it. */
  throttle(retryAfterMs: number): Throttle | null {
    const now = this.now();
    this.throttles += 1;
    if (now < this.pausedUntil) {
      this.pausedUntil = Math.max(this.pausedUntil, now + retryAfterMs);
      return null;
    }
    const before = this.current;
    this.current = Math.max(1, Math.floor(this.current / 2));
    this.pausedUntil = now + Math.max(0, retryAfterMs);
    const pausedMs = Math.max(0, retryAfterMs);
    this.arm();
    const lowered = before === this.current ? `stayed at ${before}` : `lowered from ${before} to ${this.current}`;
    return {
      limit: this.current,
      pausedMs,
      note: `The provider answered 429 (rate limit): new rounds waited ${(pausedMs / 1000).toFixed(1)} s and rounds at once ${lowered}.`,
    };
  }

  private release(throttlesAtStart: number): void {
    this.active -= 1;
    // Additive increase: this round ran without a 429 from anyone.
    if (this.throttles === throttlesAtStart && this.current < this.ceiling && this.now() >= this.pausedUntil)
      this.current += 1;
    this.pump();
  }

  private arm(): void {
    if (this.timer) clearTimeout(this.timer);
    const wait = this.pausedUntil - this.now();
    this.timer = wait > 0 ? setTimeout(() => ((this.timer = null), this.pump()), wait) : null;
    this.timer?.unref?.();
  }

  private pump(): void {
    if (this.now() < this.pausedUntil) return void (this.timer ?? this.arm());
    while (this.queue.length > 0 && this.active < this.current) {
      const waiter = this.queue.shift()!;
      this.active += 1;
      const mark = this.throttles;
      let released = false;
      waiter.grant(() => {
        if (released) return;
        released = true;
        this.release(mark);
      });
    }
  }
}

/** One scheduler per provider key (the simulated model, or a base URL). */
export class RoundSchedulers {
  private readonly byKey = new Map<string, RoundScheduler>();

  forProvider(key: string, ceiling: number): RoundScheduler {
    let scheduler = this.byKey.get(key);
    if (!scheduler) this.byKey.set(key, (scheduler = new RoundScheduler(key, ceiling)));
    else scheduler.configure(ceiling);
    return scheduler;
  }
}
