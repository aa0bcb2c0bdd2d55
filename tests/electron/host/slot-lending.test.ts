import { describe, expect, it } from 'vitest';
import { RoundScheduler } from '../../../electron/host/round-scheduler.js';
import { SlotLending, type SlotHolder } from '../../../electron/host/slot-lending.js';

interface TestRound extends SlotHolder {
  released: boolean;
  /** Its runs all wait for a person. */
  waiting: boolean;
}

const round = (slot: () => void): TestRound => ({ released: true, slot, held: [], reacquiring: false, waiting: false });

/** Settles every promise callback queued so far (the scheduler grants slots through promises). */
const settled = () => new Promise<void>((resolve) => setImmediate(resolve));

function rig(limit = 1) {
  const scheduler = new RoundScheduler('provider', limit);
  const active = new Set<TestRound>();
  const stop = new AbortController();
  const lending = new SlotLending<TestRound>(scheduler, active, stop.signal, (r) => r.waiting);
  /** A round of this comparison in flight, on a slot of the scheduler. */
  const start = async () => {
    const r = round(await scheduler.acquire(stop.signal));
    active.add(r);
    return r;
  };
  return { scheduler, active, stop, lending, start };
}

describe('slot lending', () => {
  it('a round whose runs all wait for a person lends its slot to another comparison; an answer waits for one again', async () => {
    const { scheduler, lending, start } = rig();
    const r = await start();
    expect(scheduler.inFlight).toBe(1);

    lending.maybeLend(r); // its runs are still going: nothing lent
    expect(r.slot).not.toBeNull();
    r.waiting = true;
    lending.maybeLend(r);
    expect(r.slot).toBeNull();
    expect(scheduler.inFlight).toBe(0);

    // Another comparison's round takes the slot; the answer to this round is held until it comes back.
    const other = await scheduler.acquire();
    const delivered: string[] = [];
    lending.withSlot(r, () => delivered.push('allow'));
    lending.withSlot(r, () => delivered.push('deny'));
    await settled();
    expect(delivered).toEqual([]);
    expect(r.reacquiring).toBe(true);

    other();
    await settled();
    expect(delivered).toEqual(['allow', 'deny']);
    expect(r.slot).not.toBeNull();
    expect(r.reacquiring).toBe(false);
    expect(scheduler.inFlight).toBe(1);
  });

  it('a round not yet released, or holding its slot, delivers at once and lends nothing', async () => {
    const { lending, start } = rig();
    const r = await start();
    r.waiting = true;
    r.released = false;
    lending.maybeLend(r);
    expect(r.slot).not.toBeNull();
    const delivered: number[] = [];
    lending.withSlot(r, () => delivered.push(1));
    expect(delivered).toEqual([1]);
  });

  it("while one of its rounds has lent its slot, the comparison's next round waits, though the scheduler has a slot free", async () => {
    const { scheduler, active, lending, start } = rig(2);
    const first = await start();
    expect(lending.anyLent()).toBe(false);
    first.waiting = true;
    lending.maybeLend(first);
    expect(scheduler.inFlight).toBe(0);
    expect(lending.anyLent()).toBe(true);

    let woke = false;
    void lending.untilNoneLent().then(() => (woke = true));
    lending.wakeIfNoneLent(); // still lent: nobody woken
    await settled();
    expect(woke).toBe(false);

    // The first round ends: the next one may start.
    active.delete(first);
    lending.giveBack(first);
    lending.wakeIfNoneLent();
    await settled();
    expect(woke).toBe(true);
    expect(lending.anyLent()).toBe(false);
  });

  it('a slot granted after its round ended goes straight back, and the held answer still goes out', async () => {
    const { scheduler, active, lending, start } = rig();
    const r = await start();
    r.waiting = true;
    lending.maybeLend(r);
    const other = await scheduler.acquire();
    const delivered: number[] = [];
    lending.withSlot(r, () => delivered.push(1));
    active.delete(r);
    other();
    await settled();
    expect(delivered).toEqual([1]);
    expect(r.slot).toBeNull();
    expect(scheduler.inFlight).toBe(0);
  });

  it('at the end of a round its slot goes back and what waited for it is delivered', async () => {
    const { scheduler, lending, start } = rig();
    const r = await start();
    const delivered: number[] = [];
    r.held.push(() => delivered.push(1));
    lending.giveBack(r);
    expect(delivered).toEqual([1]);
    expect(r.slot).toBeNull();
    expect(scheduler.inFlight).toBe(0);
  });

  it('a cancelled comparison waits for no lent slot', async () => {
    const { stop, lending, start } = rig(2);
    const first = await start();
    first.waiting = true;
    lending.maybeLend(first);
    let woke = false;
    void lending.untilNoneLent().then(() => (woke = true));
    stop.abort();
    lending.wakeIfNoneLent();
    await settled();
    expect(woke).toBe(true);
    await expect(lending.untilNoneLent()).resolves.toBeUndefined();
  });
});
