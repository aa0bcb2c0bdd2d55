import { describe, expect, it, vi } from 'vitest';
import type { StepEvent } from '../../../shared/step-event.js';
import { createPageGate } from '../../../electron/host/page-gate.js';

const ev = (
  runId: string,
  seq: number,
  type: 'run-started' | 'run-warning' | 'run-finished' = 'run-warning',
): StepEvent => ({ runId, seq, t: seq, type, message: `${runId}#${seq}` }) as unknown as StepEvent;
const ids = (batch: readonly StepEvent[]) => batch.map((e) => `${e.runId}#${e.seq}`);

function gateOf(options: { reloads?: boolean; maxQueued?: number } = {}) {
  const sent: StepEvent[][] = [];
  const gate = createPageGate({ send: (batch) => sent.push([...batch]), ...options });
  return { gate, sent };
}

describe('page gate', () => {
  it('sends nothing until the page is ready, then everything queued in one batch', () => {
    const { gate, sent } = gateOf();
    gate.push([ev('a', 0, 'run-started'), ev('a', 1)]);
    gate.push([ev('b', 0, 'run-started')]);
    expect(sent).toEqual([]);
    expect(gate.pending()).toBe(3);
    gate.markReady();
    expect(sent.map(ids)).toEqual([['a#0', 'a#1', 'b#0']]);
    expect(gate.pending()).toBe(0);
  });

  it("once ready, sends each of the fan-in's batches as it comes, as it is: no second timer", () => {
    const { gate, sent } = gateOf();
    gate.markReady();
    gate.push([ev('a', 0, 'run-started')]);
    expect(sent.map(ids)).toEqual([['a#0']]);
    gate.push([ev('b', 0, 'run-started'), ev('a', 1)]);
    expect(sent.map(ids)).toEqual([['a#0'], ['b#0', 'a#1']]);
    gate.push([]);
    expect(sent).toHaveLength(2);
  });

  it('a second app:ready of the same page sends nothing twice', () => {
    const { gate, sent } = gateOf();
    gate.push([ev('a', 0, 'run-started')]);
    gate.markReady();
    gate.markReady();
    expect(sent.map(ids)).toEqual([['a#0']]);
  });

  it('a page that reloads in place gets the runs still in flight from their first event, once ready again', () => {
    const { gate, sent } = gateOf({ reloads: true });
    gate.markReady();
    gate.push([ev('a', 0, 'run-started'), ev('a', 1), ev('b', 0, 'run-started')]);
    gate.push([ev('b', 1, 'run-finished')]);
    expect(sent).toHaveLength(2);

    gate.markNotReady();
    gate.push([ev('a', 2)]);
    expect(sent).toHaveLength(2);
    gate.markReady();
    // 'b' finished but ran alongside 'a', so the fresh page sees the whole comparison so far, once each.
    expect(ids(sent[2]!)).toEqual(['a#0', 'a#1', 'b#0', 'b#1', 'a#2']);
  });

  it('forgets the replay once every run has finished', () => {
    const { gate, sent } = gateOf({ reloads: true });
    gate.markReady();
    gate.push([ev('a', 0, 'run-started'), ev('a', 1, 'run-finished')]);
    gate.markNotReady();
    expect(gate.pending()).toBe(0);
    gate.markReady();
    expect(sent).toHaveLength(1);
  });

  it('keeps the queue of a page that never became ready', () => {
    const { gate, sent } = gateOf({ reloads: true });
    gate.push([ev('a', 0, 'run-started'), ev('a', 1, 'run-finished')]);
    gate.markNotReady();
    gate.markReady();
    expect(sent.map(ids)).toEqual([['a#0', 'a#1']]);
  });

  it('a gate for a page that cannot reload keeps no replay', () => {
    const { gate } = gateOf();
    gate.markReady();
    gate.push([ev('a', 0, 'run-started'), ev('a', 1)]);
    gate.markNotReady();
    expect(gate.pending()).toBe(0);
  });

  it('past maxQueued a page not ready gets no more batches queued (it reloads from history)', () => {
    const { gate, sent } = gateOf({ maxQueued: 2 });
    gate.push([ev('a', 0, 'run-started')]);
    gate.push([ev('a', 1), ev('a', 2)]); // queued whole: 1 < 2
    gate.push([ev('a', 3)]); // dropped: 3 queued
    expect(gate.pending()).toBe(3);
    gate.markReady();
    expect(sent.map(ids)).toEqual([['a#0', 'a#1', 'a#2']]);
  });

  it('sends nothing after dispose', () => {
    const send = vi.fn();
    const gate = createPageGate({ send });
    gate.markReady();
    gate.dispose();
    gate.push([ev('a', 1)]);
    gate.markReady();
    expect(send).not.toHaveBeenCalled();
  });
});
