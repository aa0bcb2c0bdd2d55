/**
 * A run's events through a prompt-composition tracker that loads late (tracked-events.ts): nothing is counted,
 * recorded or settled out of order, and nothing before the run's first reply waits for the tokenizer.
 */
import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import type { StepEvent } from '../../../shared/step-event.js';
import { TrackedEvents, type EventTracker } from '../../../electron/host/tracked-events.js';
import type { CompositionTrackers } from '../../../electron/host/engine-services.js';
import { parseRunLog } from '../../../electron/host/run-log-reader.js';
import { eventsOf, startSession, syntheticLauncher, waitFor } from './session-helpers.js';

const ev = (seq: number, type: string) => ({ type, seq, runId: 'r' }) as unknown as StepEvent;
const COMPOSITION = { system: 1, tools: 0, task: 1, assistant: 0, toolResults: 0, other: 0 };

/** A tracker that notes every seq it is fed and marks each reply it counted. */
function noting(seen: number[]): EventTracker {
  return {
    observe(e) {
      seen.push(e.seq);
      return e.type === 'model-response' ? ({ ...e, promptComposition: COMPOSITION } as StepEvent) : e;
    },
  };
}

function deferred<T>() {
  let resolve!: (v: T) => void;
  let reject!: (e: Error) => void;
  const promise = new Promise<T>((ok, fail) => ((resolve = ok), (reject = fail)));
  return { promise, resolve, reject };
}

describe('TrackedEvents', () => {
  it('passes what comes before the first reply at once, holds the reply and what follows until the tracker loads, and feeds it every event in order', async () => {
    const load = deferred<EventTracker | undefined>();
    let asked = 0;
    const out: StepEvent[] = [];
    const steps: string[] = [];
    const t = new TrackedEvents(
      () => (asked++, load.promise),
      (batch) => out.push(...batch),
    );
    t.push([ev(0, 'run-started'), ev(1, 'model-request')]);
    t.then(() => steps.push(`settled after ${out.length}`));
    expect(out.map((e) => e.seq)).toEqual([0, 1]);
    expect(steps).toEqual(['settled after 2']);
    expect(asked, 'nothing to count yet: the tracker is not asked for').toBe(0);

    t.push([ev(2, 'model-response'), ev(3, 'tool-started')]);
    t.push([ev(4, 'tool-finished'), ev(5, 'run-finished')]);
    t.then(() => steps.push(`settled after ${out.length}`));
    expect(asked).toBe(1);
    expect(
      out.map((e) => e.seq),
      'the reply and everything after it wait',
    ).toEqual([0, 1]);
    expect(steps).toHaveLength(1);

    const seen: number[] = [];
    load.resolve(noting(seen));
    await load.promise;
    await Promise.resolve();
    expect(seen).toEqual([0, 1, 2, 3, 4, 5]);
    expect(out.map((e) => e.seq)).toEqual([0, 1, 2, 3, 4, 5]);
    expect(out.find((e) => e.type === 'model-response')).toMatchObject({ promptComposition: COMPOSITION });
    expect(steps).toEqual(['settled after 2', 'settled after 6']);

    // Loaded: later batches are counted and delivered at once.
    t.push([ev(6, 'model-response')]);
    expect(out.map((e) => e.seq)).toEqual([0, 1, 2, 3, 4, 5, 6]);
    expect(seen.at(-1)).toBe(6);
    expect(asked).toBe(1);
  });

  it('records the events unchanged, still in order, when the tracker fails to load or there is none', async () => {
    const load = deferred<EventTracker | undefined>();
    const out: StepEvent[] = [];
    const t = new TrackedEvents(
      () => load.promise,
      (batch) => out.push(...batch),
    );
    let settled = false;
    t.push([ev(0, 'run-started'), ev(1, 'model-response')]);
    t.then(() => (settled = true));
    load.reject(new Error('no tokenizer'));
    await load.promise.catch(() => undefined);
    await new Promise((r) => setImmediate(r));
    expect(out.map((e) => e.seq)).toEqual([0, 1]);
    expect(out[1]).not.toHaveProperty('promptComposition');
    expect(settled).toBe(true);

    const none: StepEvent[] = [];
    const plain = new TrackedEvents(undefined, (batch) => none.push(...batch));
    plain.push([ev(0, 'model-response')]);
    expect(none).toHaveLength(1);
  });
});

describe('ComparisonSession with trackers that load late', () => {
  it('holds each run from its first reply until the trackers load, then records every event counted and in order, and only then settles', async () => {
    const load = deferred<CompositionTrackers | undefined>();
    let asked = 0;
    const seen = new Map<number, number[]>();
    const rig = await startSession(syntheticLauncher({}, ['--events', '30', '--payload', '20']), {
      trackers: () => (asked++, load.promise),
    });
    let done = false;
    void rig.session.done.then(() => (done = true));
    // Both workers have sent everything and exited: what is recorded so far is what came before their first replies.
    await waitFor(() => rig.session.runs.length === 2 && rig.session.runs.every((r) => r.done), 60_000, 'the runs');
    expect(asked).toBeGreaterThan(0);
    for (const { runId } of rig.meta.runs) {
      const early = eventsOf(rig.emitted, runId);
      expect(early.some((e) => e.type === 'model-response')).toBe(false);
      expect(early.map((e) => e.seq)).toEqual([...early.keys()]);
      expect(rig.session.isLive(runId), 'not settled before its events are recorded').toBe(true);
    }
    expect(done).toBe(false);

    let n = 0;
    load.resolve(() => {
      const mine: number[] = [];
      seen.set(n++, mine);
      return noting(mine);
    });
    await rig.session.done;
    expect([...seen.values()].map((s) => s.length)).toEqual([30, 30]);
    for (const s of seen.values()) expect(s).toEqual([...Array(30).keys()]);
    for (const { runId } of rig.meta.runs) {
      const events = eventsOf(rig.emitted, runId);
      expect(events.map((e) => e.seq)).toEqual([...Array(30).keys()]);
      for (const e of events.filter((x) => x.type === 'model-response'))
        expect(e).toMatchObject({ promptComposition: COMPOSITION });
      expect(events.at(-1)?.type).toBe('run-finished');
      const onDisk = parseRunLog(await readFile(rig.store.runLogPath(rig.meta.id, runId), 'utf8'), runId, 'f');
      expect(onDisk.events).toEqual(events);
    }
    expect(rig.warnings).toEqual([]);
  });
});
