/**
 * The timeout of one MCP call, kept here rather than by the SDK so it can stop while the call waits on the
 * client itself: a sampling request the run's model answers, a person's approval, an elicitation. Such waits
 * are ours, not the server's slowness, so they never count. The call times out after `timeoutMs` without an
 * answer or a progress report (each report restarts it), and after `maxTotalMs` of its own time in all.
 */

export interface CallClock {
  /** Aborted with a "timed out" error when the call runs out of time. */
  readonly signal: AbortSignal;
  /** A progress report: the idle timeout starts again. */
  touch(): void;
  /** Stops both clocks until every returned `resume` has been called (waits may overlap). */
  pause(): () => void;
  /** The call has ended: no timer is left behind. */
  stop(): void;
}

export function callClock(
  timeoutMs: number,
  maxTotalMs: number,
  now: () => number = () => performance.now(),
): CallClock {
  const abort = new AbortController();
  let idleLeft = timeoutMs;
  let totalLeft = maxTotalMs;
  let since = now();
  let pauses = 0;
  let timer: ReturnType<typeof setTimeout> | null = null;

  const expire = (): void => {
    const total = totalLeft - (now() - since) <= 0;
    abort.abort(
      new Error(
        total
          ? `timed out: the call ran ${maxTotalMs} ms in all (its call timeout is ${timeoutMs} ms, restarted by each progress report, up to ten times that)`
          : `timed out after ${timeoutMs} ms without an answer or a progress report (its call timeout)`,
      ),
    );
  };
  const arm = (): void => {
    if (timer) clearTimeout(timer);
    timer = abort.signal.aborted ? null : setTimeout(expire, Math.max(0, Math.min(idleLeft, totalLeft)));
  };
  /** Moves the time since `since` off both budgets. */
  const spend = (): void => {
    const t = now();
    idleLeft -= t - since;
    totalLeft -= t - since;
    since = t;
  };
  arm();
  return {
    signal: abort.signal,
    touch() {
      if (pauses > 0 || abort.signal.aborted) return;
      spend();
      idleLeft = timeoutMs;
      arm();
    },
    pause() {
      if (pauses++ === 0) {
        spend();
        if (timer) clearTimeout(timer);
        timer = null;
      }
      let done = false;
      return () => {
        if (done) return;
        done = true;
        if (--pauses === 0) {
          since = now();
          arm();
        }
      };
    },
    stop() {
      if (timer) clearTimeout(timer);
      timer = null;
      pauses = Number.POSITIVE_INFINITY;
    },
  };
}
