import { describe, expect, it } from 'vitest';
import type { StepEvent } from '../../../shared/step-event.js';
import { createAppStore } from '../../../renderer/store/app-store.js';
import { comparisonSelectors } from '../../../renderer/store/selectors.js';
import { createEventBuffer } from '../../../renderer/stream/event-buffer.js';
import { interleave, syntheticRun } from '../fixtures/synthetic-stream.js';

const meta = {
  id: 'cmp1',
  createdAt: 0,
  task: { id: 'log-stats', text: 'x' },
  provider: { name: 'simulated', baseUrl: '', model: 'sim', simulated: true },
  settings: {} as never,
  runs: [
    { runId: 'r1', mode: 'react' as const },
    { runId: 'r2', mode: 'code' as const },
  ],
  workspaceSource: 'log-stats',
};

describe('app store', () => {
  const stream = interleave(
    syntheticRun({ runId: 'r1', mode: 'react', steps: 12 }),
    syntheticRun({ runId: 'r2', mode: 'code', steps: 6 }),
  );

  it('a batch through the store gives the same runs as the events one at a time', () => {
    const a = createAppStore();
    const b = createAppStore();
    a.getState().applyEvents(stream);
    for (const e of stream) b.getState().applyEvents([e]);
    expect(a.getState().runs).toEqual(b.getState().runs);
  });

  it('applies a batch in exactly one store update, and skips the update for duplicates', () => {
    const store = createAppStore();
    let updates = 0;
    store.subscribe(() => updates++);
    store.getState().applyEvents(stream.slice(0, 40));
    expect(updates).toBe(1);
    store.getState().applyEvents(stream.slice(0, 40));
    expect(updates).toBe(1);
  });

  it('the buffer flushes everything pushed within a frame as one batch, once per frame', () => {
    const store = createAppStore();
    let updates = 0;
    store.subscribe(() => updates++);
    const frames: (() => void)[] = [];
    const buffer = createEventBuffer(
      (events) => store.getState().applyEvents(events),
      (f) => frames.push(f),
    );
    const parts = [stream.slice(0, 10), stream.slice(10, 25), stream.slice(25, 26)];
    for (const p of parts) buffer.push(p);
    expect(frames).toHaveLength(1);
    expect(updates).toBe(0);
    frames.shift()!();
    expect(updates).toBe(1);
    expect(store.getState().runs.r1!.events.length + store.getState().runs.r2!.events.length).toBe(26);
    buffer.push(stream.slice(26));
    expect(frames).toHaveLength(1);
    frames.shift()!();
    expect(updates).toBe(2);
    const direct = createAppStore();
    direct.getState().applyEvents(stream);
    expect(store.getState().runs).toEqual(direct.getState().runs);
  });

  it('runs whose events arrive before the comparison is shown are kept and shown with it', () => {
    const store = createAppStore();
    store.getState().applyEvents(stream.slice(0, 10));
    expect(comparisonSelectors.modeRuns(store.getState())).toEqual([]);
    store.getState().showComparison({ meta, source: 'live', interrupted: [] });
    const modeRuns = comparisonSelectors.modeRuns(store.getState());
    expect(modeRuns.map((m) => m.mode)).toEqual(['react', 'code']);
    expect(modeRuns[0]!.run?.events.length).toBeGreaterThan(0);
    expect(comparisonSelectors.isRunning(store.getState())).toBe(true);
  });

  it('a comparison is no longer running once every run finished or is known to be interrupted', () => {
    const store = createAppStore();
    const finished = stream;
    store.getState().showComparison({ meta, source: 'history', interrupted: [] }, finished);
    expect(comparisonSelectors.isRunning(store.getState())).toBe(false);
    const partial: StepEvent[] = finished.filter((e) => !(e.runId === 'r2' && e.type === 'run-finished'));
    const s2 = createAppStore();
    s2.getState().showComparison({ meta, source: 'history', interrupted: [] }, partial);
    expect(comparisonSelectors.isRunning(s2.getState())).toBe(true);
    s2.getState().showComparison({ meta, source: 'history', interrupted: ['r2'] }, partial);
    expect(comparisonSelectors.isRunning(s2.getState())).toBe(false);
  });
});
