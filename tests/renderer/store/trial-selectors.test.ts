/** The store with several trials per mode: batching, the trial the columns show, and the averages. */
import { describe, expect, it } from 'vitest';
import { aggregateByColumn, groupByRun, summarizeRun } from '../../../shared/summary.js';
import { createAppStore } from '../../../renderer/store/app-store.js';
import { comparisonSelectors, trialSelectors } from '../../../renderer/store/selectors.js';
import { createEventBuffer } from '../../../renderer/stream/event-buffer.js';
import { syntheticTrials } from '../fixtures/synthetic-stream.js';

// Trial 2's Code Mode run errors and trial 3's ReAct answer fails validation, so answered/passed differ from trials.
const cmp = syntheticTrials({
  trials: 3,
  outcome: (mode, trial) =>
    mode === 'code' && trial === 2 ? { status: 'error' } : mode === 'react' && trial === 3 ? { pass: false } : {},
});
const idsOf = (trial: number) => cmp.meta.runs.filter((r) => r.trial === trial).map((r) => r.runId);
const shownIds = (store: ReturnType<typeof createAppStore>) =>
  comparisonSelectors.modeRuns(store.getState()).map((m) => m.runId);

describe('store with trials', () => {
  it('a multi-trial stream gives the same runs as one batch, event by event, and through the frame buffer', () => {
    const whole = createAppStore();
    whole.getState().applyEvents(cmp.events);
    const single = createAppStore();
    for (const e of cmp.events) single.getState().applyEvents([e]);
    expect(single.getState().runs).toEqual(whole.getState().runs);

    const framed = createAppStore();
    let updates = 0;
    framed.subscribe(() => updates++);
    const frames: (() => void)[] = [];
    const buffer = createEventBuffer(
      (events) => framed.getState().applyEvents(events),
      (f) => frames.push(f),
    );
    let flushed = 0;
    for (let i = 0; i < cmp.events.length; i += 9) {
      buffer.push(cmp.events.slice(i, i + 4));
      buffer.push(cmp.events.slice(i + 4, i + 9));
      expect(frames).toHaveLength(1); // two pushes, one frame
      frames.shift()!();
      flushed++;
    }
    expect(updates).toBe(flushed);
    expect(framed.getState().runs).toEqual(whole.getState().runs);
  });

  it('the columns follow the trial in progress, keep a picked one, and show every run for "All"', () => {
    const store = createAppStore();
    store.getState().showComparison({ meta: cmp.meta, source: 'live', interrupted: [] });
    expect(trialSelectors.count(store.getState())).toBe(3);
    expect(trialSelectors.states(store.getState())).toEqual(['running', 'waiting', 'waiting']);
    expect(shownIds(store)).toEqual(idsOf(1));

    store.getState().applyEvents(cmp.rounds[0]!);
    store.getState().applyEvents(cmp.rounds[1]!.slice(0, 6));
    expect(trialSelectors.live(store.getState())).toBe(2);
    expect(shownIds(store)).toEqual(idsOf(2));

    store.getState().chooseTrial(1);
    store.getState().applyEvents(cmp.rounds[1]!.slice(6));
    store.getState().applyEvents(cmp.rounds[2]!.slice(0, 6));
    expect(trialSelectors.live(store.getState())).toBe(3);
    expect(shownIds(store)).toEqual(idsOf(1));

    store.getState().chooseTrial('all');
    expect(shownIds(store)).toEqual(cmp.meta.runs.map((r) => r.runId));
    store.getState().chooseTrial(null);
    expect(shownIds(store)).toEqual(idsOf(3));
  });

  it('events of another trial leave the shown columns untouched (same identity, no re-render)', () => {
    const store = createAppStore();
    store
      .getState()
      .showComparison({ meta: cmp.meta, source: 'live', interrupted: [] }, [
        ...cmp.rounds[0]!,
        ...cmp.rounds[1]!.slice(0, 3),
      ]);
    store.getState().chooseTrial(1);
    const before = comparisonSelectors.modeRuns(store.getState());
    store.getState().applyEvents(cmp.rounds[1]!.slice(3, 20));
    expect(comparisonSelectors.modeRuns(store.getState())).toBe(before);
    store.getState().chooseTrial(2);
    expect(comparisonSelectors.modeRuns(store.getState())).not.toBe(before);
  });

  it('averages every trial with the shared aggregateByColumn, over the stored runs', () => {
    const store = createAppStore();
    store.getState().showComparison({ meta: cmp.meta, source: 'history', interrupted: [] }, cmp.events);
    const expected = aggregateByColumn(cmp.meta.runs.map((r) => summarizeRun(groupByRun(cmp.events).get(r.runId)!)));
    const got = trialSelectors.aggregates(store.getState());
    expect(got).toEqual(expected);
    expect(got.map((a) => [a.mode, a.trials, a.answered, a.passed])).toEqual([
      ['react', 3, 3, 2],
      ['code', 3, 2, 2],
    ]);
    // Stable while nothing changes, so the table does not re-render every frame.
    expect(trialSelectors.aggregates(store.getState())).toBe(got);
    // A stored comparison opens on trial 1; a resync of the same one keeps the pick, another one drops it.
    expect(trialSelectors.shown(store.getState())).toBe(1);
    store.getState().chooseTrial(3);
    store.getState().showComparison({ meta: cmp.meta, source: 'history', interrupted: [] }, cmp.events);
    expect(trialSelectors.shown(store.getState())).toBe(3);
    store.getState().showComparison({ meta: { ...cmp.meta, id: 'other' }, source: 'history', interrupted: [] });
    expect(trialSelectors.choice(store.getState())).toBeNull();
  });

  it('runs not started yet count as trials but not as answers', () => {
    const store = createAppStore();
    store.getState().showComparison({ meta: cmp.meta, source: 'live', interrupted: [] }, cmp.rounds[0]!);
    const agg = trialSelectors.aggregates(store.getState());
    expect(agg.map((a) => [a.trials, a.answered])).toEqual([
      [3, 1],
      [3, 1],
    ]);
    const firstRound = aggregateByColumn(idsOf(1).map((id) => summarizeRun(groupByRun(cmp.rounds[0]!).get(id)!)));
    expect(agg.map((a) => a.total)).toEqual(firstRound.map((a) => a.total));
  });
});
