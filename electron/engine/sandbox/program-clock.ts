/**
 * A program's time limit that counts only the program's own time: a wait for the user's approval pauses it.
 * Pauses nest (parallel calls inside a program may each wait); each resume function works once. Both sandboxes
 * (the QuickJS thread and the Python child) run their programs on one.
 */
export interface ClockHooks {
  /** The first pause began. */
  paused?(): void;
  /** The last pause ended; `pausedMs` is the program's paused time so far. */
  resumed?(pausedMs: number): void;
}

export class ProgramClock {
  private pausedMs = 0;
  private pauses = 0;
  private pausedAt = 0;
  private timeLeft: number;
  private armedAt = performance.now();
  private timer: NodeJS.Timeout;
  private stopped = false;

  constructor(
    timeoutMs: number,
    private readonly onExpire: () => void,
    private readonly hooks: ClockHooks = {},
  ) {
    this.timeLeft = timeoutMs;
    this.timer = setTimeout(onExpire, timeoutMs);
  }

  /** Pause the limit; returns the function that resumes it. */
  readonly pause = (): (() => void) => {
    if (this.stopped) return () => {};
    if (this.pauses++ === 0) {
      this.pausedAt = performance.now();
      clearTimeout(this.timer);
      this.timeLeft -= this.pausedAt - this.armedAt;
      this.hooks.paused?.();
    }
    let resumed = false;
    return () => {
      if (resumed) return;
      resumed = true;
      if (--this.pauses > 0 || this.stopped) return;
      const now = performance.now();
      this.pausedMs += now - this.pausedAt;
      this.hooks.resumed?.(this.pausedMs);
      this.armedAt = now;
      this.timer = setTimeout(this.onExpire, Math.max(0, this.timeLeft));
    };
  };

  /** Stop for good; returns the time spent paused (a pause still open counts up to now). */
  stop(): number {
    this.stopped = true;
    clearTimeout(this.timer);
    return this.pauses > 0 ? this.pausedMs + performance.now() - this.pausedAt : this.pausedMs;
  }
}
