import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { StepEvent } from '../../../shared/step-event.js';
import { createEventBatcher } from '../../../electron/main/event-batcher.js';

const ev = (
  runId: string,
  seq: number,
  type: 'run-started' | 'run-warning' | 'run-finished' = 'run-warning',
): StepEvent => ({ runId, seq, t: seq, type, message: `${runId}#${seq}` }) as unknown as StepEvent;
const ids = (batch: readonly StepEvent[]) => batch.map((e) => `${e.runId}#${e.seq}`);

describe('event batcher', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('sends nothing until the page is ready, then everything queued in one batch', () => {
    const sent: StepEvent[][] = [];
    const b = createEventBatcher({ send: (batch) => sent.push([...batch]) });
    b.push([ev('a', 0, 'run-started'), ev('a', 1)]);
    b.push([ev('b', 0, 'run-started')]);
    vi.advanceTimersByTime(1000);
    expect(sent).toEqual([]);
    expect(b.pending()).toBe(3);
    b.markReady();
    expect(sent.map(ids)).toEqual([['a#0', 'a#1', 'b#0']]);
    expect(b.pending()).toBe(0);
  });

  it('concatenates pushes within one frame into one batch', () => {
    const sent: StepEvent[][] = [];
    const b = createEventBatcher({ send: (batch) => sent.push([...batch]), intervalMs: 16 });
    b.markReady();
    b.push([ev('a', 0, 'run-started')]);
    vi.advanceTimersByTime(5);
    b.push([ev('b', 0, 'run-started'), ev('a', 1)]);
    expect(sent).toEqual([]);
    vi.advanceTimersByTime(11);
    expect(sent.map(ids)).toEqual([['a#0', 'b#0', 'a#1']]);
    b.push([ev('a', 2)]);
    vi.advanceTimersByTime(16);
    expect(sent.map(ids)).toEqual([['a#0', 'b#0', 'a#1'], ['a#2']]);
  });

  it('on reload re-queues the runs still in flight from their first event, until ready again', () => {
    const sent: StepEvent[][] = [];
    const b = createEventBatcher({ send: (batch) => sent.push([...batch]) });
    b.markReady();
    b.push([ev('a', 0, 'run-started'), ev('a', 1), ev('b', 0, 'run-started')]);
    vi.advanceTimersByTime(16);
    b.push([ev('b', 1, 'run-finished')]);
    vi.advanceTimersByTime(16);
    expect(sent).toHaveLength(2);

    b.markNotReady();
    b.push([ev('a', 2)]);
    vi.advanceTimersByTime(100);
    expect(sent).toHaveLength(2);
    b.markReady();
    // 'b' finished but ran alongside 'a', so the fresh page sees the whole comparison so far, once each.
    expect(ids(sent[2])).toEqual(['a#0', 'a#1', 'b#0', 'b#1', 'a#2']);
  });

  it('forgets the replay once every run has finished', () => {
    const sent: StepEvent[][] = [];
    const b = createEventBatcher({ send: (batch) => sent.push([...batch]) });
    b.markReady();
    b.push([ev('a', 0, 'run-started'), ev('a', 1, 'run-finished')]);
    vi.advanceTimersByTime(16);
    b.markNotReady();
    expect(b.pending()).toBe(0);
    b.markReady();
    expect(sent).toHaveLength(1);
  });

  it('keeps the queue of a page that never became ready', () => {
    const sent: StepEvent[][] = [];
    const b = createEventBatcher({ send: (batch) => sent.push([...batch]) });
    b.push([ev('a', 0, 'run-started'), ev('a', 1, 'run-finished')]);
    b.markNotReady();
    b.markReady();
    expect(sent.map(ids)).toEqual([['a#0', 'a#1']]);
  });

  it('sends nothing after dispose', () => {
    const send = vi.fn();
    const b = createEventBatcher({ send });
    b.markReady();
    b.push([ev('a', 0, 'run-started')]);
    b.dispose();
    vi.advanceTimersByTime(100);
    b.push([ev('a', 1)]);
    b.markReady();
    expect(send).not.toHaveBeenCalled();
  });
});
