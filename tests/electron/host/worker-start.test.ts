import { describe, expect, it } from 'vitest';
import type { WorkerHandle } from '../../../electron/host/launcher.js';
import type { WorkerToHost } from '../../../electron/worker/worker-protocol.js';
import { WorkerStartClock } from '../../../electron/host/worker-start.js';

/** A handle whose messages the test sends, on a clock the test moves. */
function fake() {
  let now = 1000;
  const listeners: ((m: WorkerToHost) => void)[] = [];
  const handle: WorkerHandle = {
    pid: 1,
    send: () => {},
    onMessage: (l) => void listeners.push(l),
    onExit: () => {},
    kill: () => {},
  };
  return {
    handle,
    clock: () => now,
    at(t: number, m?: WorkerToHost) {
      now = t;
      if (m) for (const l of listeners) l(m);
    },
  };
}

describe('WorkerStartClock', () => {
  it('a worker started by Run: spawn to ready, none of it before Run', () => {
    const f = fake();
    const c = new WorkerStartClock(f.handle, false, f.clock);
    f.at(1005);
    c.markInit();
    f.at(1300, { type: 'loaded' });
    expect(c.record()).toBeNull(); // not ready yet
    f.at(1420, { type: 'ready' });
    expect(c.record()).toEqual({ ms: 420, beforeRunMs: 0, pooled: false });
  });

  it('a warm-pool worker: its loading happened before Run, its idle time is not start-up', () => {
    const f = fake();
    const c = new WorkerStartClock(f.handle, true, f.clock);
    f.at(1350, { type: 'loaded' });
    f.at(60_000); // idle in the pool for a minute
    c.markInit();
    f.at(60_030, { type: 'ready' });
    expect(c.record()).toEqual({ ms: 380, beforeRunMs: 350, pooled: true });
  });

  it('a warm-pool worker taken while still loading: the head start is before Run, the rest during it', () => {
    const f = fake();
    const c = new WorkerStartClock(f.handle, true, f.clock);
    f.at(1100);
    c.markInit();
    f.at(1350, { type: 'loaded' });
    f.at(1400, { type: 'ready' });
    expect(c.record()).toEqual({ ms: 400, beforeRunMs: 100, pooled: true });
  });

  it('a worker that never says loaded counts as loaded when ready', () => {
    const f = fake();
    const c = new WorkerStartClock(f.handle, false, f.clock);
    c.markInit();
    f.at(1250, { type: 'ready' });
    expect(c.record()).toEqual({ ms: 250, beforeRunMs: 0, pooled: false });
  });
});
