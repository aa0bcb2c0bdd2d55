/**
 * A comparison's round slots while its runs wait for a person. A round holds one of its provider's scheduler
 * slots (round-scheduler.ts) from its start to its end; while every run of it still going waits for an
 * approval or an MCP form, it sends the provider nothing, so it lends the slot back to the scheduler for
 * other comparisons' rounds. The first answer asks for a slot again and is delivered once one is granted. A
 * slot lent out is never taken by the same comparison's next round: that would run more of its rounds at once
 * than it asked for.
 */
import type { RoundScheduler } from './round-scheduler.js';

/** What lending reads and writes of a round in flight (comparison-rounds.ts's Round). */
export interface SlotHolder {
  /** Its workers were released (before that, its runs cannot be waiting for anyone). */
  readonly released: boolean;
  /** Gives its scheduler slot back; null while it holds none (lent out). */
  slot: (() => void) | null;
  /** Answers held until the round has a slot again. */
  readonly held: (() => void)[];
  /** Whether a slot is being asked for again. */
  reacquiring: boolean;
}

export class SlotLending<R extends SlotHolder> {
  /** The comparison's next round, waiting for none of its rounds to have lent its slot. */
  private readonly waiters: (() => void)[] = [];

  constructor(
    private readonly scheduler: Pick<RoundScheduler, 'acquire'>,
    /** The comparison's rounds in flight (the session adds and removes them; call wakeIfNoneLent on removal). */
    private readonly active: ReadonlySet<R>,
    /** The comparison was cancelled: no round starts any more, and nothing waits for a lent slot. */
    private readonly stop: AbortSignal,
    /** Every run of the round still going waits for a person. */
    private readonly allWaiting: (round: R) => boolean,
  ) {}

  /** Lends the round's slot out when every run of it still going waits for a person. */
  maybeLend(round: R): void {
    if (!round.slot || !round.released || !this.allWaiting(round)) return;
    const slot = round.slot;
    round.slot = null;
    slot();
  }

  /** Runs `deliver` once the round holds a slot (at once when it does; after the scheduler grants one when lent). */
  withSlot(round: R, deliver: () => void): void {
    if (round.slot || !this.active.has(round)) return deliver();
    round.held.push(deliver);
    if (round.reacquiring) return;
    round.reacquiring = true;
    this.scheduler.acquire().then(
      (slot) => {
        round.reacquiring = false;
        if (!this.active.has(round)) slot();
        else round.slot = slot;
        for (const held of round.held.splice(0)) held();
        this.wakeIfNoneLent();
      },
      () => undefined,
    );
  }

  /** The round's slot back to the scheduler at its end, unless it is lent out already; held answers go out. */
  giveBack(round: R): void {
    const slot = round.slot;
    round.slot = null;
    slot?.();
    for (const deliver of round.held.splice(0)) deliver();
  }

  /** Lets the next round start once no round in flight has lent its slot (or the comparison was cancelled). */
  wakeIfNoneLent(): void {
    if (this.anyLent() && !this.stop.aborted) return;
    for (const wake of this.waiters.splice(0)) wake();
  }

  /**
   * One of the comparison's rounds in flight has lent its slot out. Its next round must not start meanwhile, nor
   * take a slot the scheduler grants it then (it may be the one lent): it gives it back and waits (untilNoneLent).
   */
  anyLent(): boolean {
    return [...this.active].some((r) => r.slot === null);
  }

  /** Resolves once no round in flight has lent its slot out (at once when none has, or the comparison stopped). */
  untilNoneLent(): Promise<void> {
    if (!this.anyLent() || this.stop.aborted) return Promise.resolve();
    return new Promise((resolve) => this.waiters.push(resolve));
  }
}
