/** The per-provider scheduler on a clock the test moves: slots, the 429 pause, AIMD, cancel while waiting. */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { RoundScheduler, RoundSchedulers } from '../../../electron/host/round-scheduler.js';

beforeEach(() => void vi.useFakeTimers());
afterEach(() => void vi.useRealTimers());

const settled = async () => {
  for (let i = 0; i < 5; i++) await Promise.resolve();
};

describe('RoundScheduler', () => {
  it('grants up to the limit, in order, and the next waiter when a slot is given back', async () => {
    const s = new RoundScheduler('sim', 2, () => Date.now());
    const granted: number[] = [];
    const releases: (() => void)[] = [];
    for (let i = 0; i < 4; i++) void s.acquire().then((r) => (granted.push(i), releases.push(r)));
    await settled();
    expect(granted).toEqual([0, 1]);
    releases[0]();
    releases[0](); // giving a slot back twice frees it once
    await settled();
    expect(granted).toEqual([0, 1, 2]);
    expect(s.inFlight).toBe(2);
  });

  it('a 429 pauses new rounds for its retry-after and halves the limit; one pause counts once; clean rounds raise it again', async () => {
    const s = new RoundScheduler('https://api.example.com/v1', 4, () => Date.now());
    const first = await Promise.all([s.acquire(), s.acquire()]);
    expect(s.throttle(1000)?.note).toBe(
      'The provider answered 429 (rate limit): new rounds waited 1.0 s and rounds at once lowered from 4 to 2.',
    );
    expect(s.throttle(500)).toBeNull(); // another run's 429 within the same pause
    expect(s.limit).toBe(2);
    let third = false;
    void s.acquire().then(() => (third = true));
    first[0]();
    await settled();
    expect(third).toBe(false); // a slot is free, but the pause is on
    await vi.advanceTimersByTimeAsync(1000);
    expect(third).toBe(true);
    first[1](); // this round began before the 429: no increase
    expect(s.limit).toBe(2);
    const clean = await s.acquire();
    clean(); // a round that began and ended with no 429 raises the limit by one
    expect(s.limit).toBe(3);
  });

  it('never goes below one, and a waiter that is cancelled leaves the queue', async () => {
    const s = new RoundScheduler('x', 1, () => Date.now());
    const held = await s.acquire();
    expect(s.throttle(0)?.note).toMatch(/stayed at 1\.$/);
    const stop = new AbortController();
    const waiting = s.acquire(stop.signal);
    stop.abort();
    await expect(waiting).rejects.toThrow('cancelled');
    held();
    const next = await s.acquire();
    expect(s.inFlight).toBe(1);
    next();
  });

  it('is one per provider key, its ceiling set by the latest comparison', () => {
    const all = new RoundSchedulers();
    const a = all.forProvider('simulated', 4);
    expect(all.forProvider('simulated', 2)).toBe(a);
    expect(a.limit).toBe(2);
    expect(all.forProvider('https://api.openai.com/v1', 3)).not.toBe(a);
  });
});
