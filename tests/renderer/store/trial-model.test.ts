import { describe, expect, it } from 'vitest';
import type { StepEvent } from '../../../shared/step-event.js';
import { applyEvents, type RunMap } from '../../../renderer/store/run-model.js';
import {
  displayStatus,
  liveTrial,
  runNeverRan,
  shownTrial,
  trialCount,
  trialsRan,
  trialStates,
} from '../../../renderer/store/trial-model.js';
import { syntheticTrials } from '../fixtures/synthetic-stream.js';

const { meta, rounds } = syntheticTrials({ trials: 3 });
const upTo = (events: readonly StepEvent[]): RunMap => applyEvents({}, events);
/** Everything of the rounds before `round` (1-based), plus the first `n` events of that round. */
const through = (round: number, n: number) => [...rounds.slice(0, round - 1).flat(), ...rounds[round - 1]!.slice(0, n)];

describe('trial model', () => {
  it('counts trials from meta.runs; a comparison stored before trials existed is one trial', () => {
    expect(trialCount(meta)).toBe(3);
    expect(trialCount({ runs: meta.runs.map(({ runId, mode }) => ({ runId, mode })) })).toBe(1);
    expect(trialCount(null)).toBe(1);
  });

  it('walks the rounds: later trials wait until every run of the earlier one ended', () => {
    expect(trialStates(meta, {}, [])).toEqual(['running', 'waiting', 'waiting']);
    // Round 1 with one run finished and the other still going: round 2 still waits.
    const r1 = rounds[0]!;
    const firstFinish = r1.findIndex((e) => e.type === 'run-finished');
    expect(trialStates(meta, upTo(r1.slice(0, firstFinish + 1)), [])).toEqual(['running', 'waiting', 'waiting']);
    // Round 1 ended, round 2 released but no event yet: it is running (its workers are starting), not waiting.
    expect(trialStates(meta, upTo(through(2, 0)), [])).toEqual(['done', 'running', 'waiting']);
    expect(trialStates(meta, upTo(through(2, 5)), [])).toEqual(['done', 'running', 'waiting']);
    expect(trialStates(meta, upTo(through(3, 5)), [])).toEqual(['done', 'done', 'running']);
    expect(trialStates(meta, upTo(rounds.flat()), [])).toEqual(['done', 'done', 'done']);
  });

  it('a run of a later trial cancelled before its round leaves the trial waiting, and shows as cancelled', () => {
    const [, , skippedRun, otherRun] = meta.runs;
    const skipped: StepEvent[] = [
      { ...rounds[1]!.find((e) => e.runId === skippedRun!.runId && e.type === 'run-started')!, seq: 0, t: 0 },
      {
        type: 'run-finished',
        runId: skippedRun!.runId,
        seq: 1,
        t: 0,
        status: 'cancelled',
        answer: '',
        error: 'Cancelled before it started.',
        validation: null,
        totals: {
          steps: 0,
          requests: 0,
          prompt: 0,
          completion: 0,
          cached: 0,
          reasoning: 0,
          total: 0,
          toolCalls: 0,
          wallMs: 0,
          approvalWaitMs: 0,
          startupMs: 0,
        },
      },
    ];
    const runs = upTo([...through(1, 12), ...skipped]);
    const states = trialStates(meta, runs, []);
    expect(states).toEqual(['running', 'waiting', 'waiting']);
    expect(displayStatus(runs[skippedRun!.runId], skippedRun!.runId, 2, states, [])).toBe('cancelled');
    expect(displayStatus(runs[otherRun!.runId], otherRun!.runId, 2, states, [])).toBe('waiting');
  });

  it('a run history found interrupted closes its trial', () => {
    const partial = through(1, 10);
    const open = meta.runs.filter((r) => r.trial === 1).map((r) => r.runId);
    expect(trialStates(meta, upTo(partial), open.slice(0, 1))).toEqual(['running', 'waiting', 'waiting']);
    expect(trialStates(meta, upTo(partial), open)).toEqual(['done', 'running', 'waiting']);
  });

  it('follows the trial in progress unless one was picked; ends on the last live, opens stored ones on trial 1', () => {
    const live = trialStates(meta, upTo(through(2, 5)), []);
    expect(liveTrial(live)).toBe(2);
    expect(shownTrial(null, live, 'live')).toBe(2);
    expect(shownTrial(1, live, 'live')).toBe(1);
    expect(shownTrial('all', live, 'live')).toBe('all');
    // A pick that no longer exists (another comparison's) falls back to following.
    expect(shownTrial(7, live, 'live')).toBe(2);
    const done = trialStates(meta, upTo(rounds.flat()), []);
    expect(liveTrial(done)).toBeNull();
    expect(shownTrial(null, done, 'live')).toBe(3);
    expect(shownTrial(null, done, 'history')).toBe(1);
    expect(shownTrial('all', ['done'], 'history')).toBe(1);
  });

  it('a comparison cancelled in round 1: the later trials never ran, and the view never opens on one of them', () => {
    const totals = {
      steps: 0,
      requests: 0,
      prompt: 0,
      completion: 0,
      cached: 0,
      reasoning: 0,
      total: 0,
      toolCalls: 0,
      wallMs: 0,
    };
    const cancel = (runId: string, seq: number): StepEvent =>
      ({
        type: 'run-finished',
        runId,
        seq,
        t: 1,
        status: 'cancelled',
        answer: '',
        validation: null,
        totals,
      }) as StepEvent;
    const round1 = through(1, 12);
    const seqOf = (id: string) => round1.filter((e) => e.runId === id).length;
    // Round 1's runs were stopped mid-request; the host closes every later run with a run-started and a cancelled end (run-session.ts).
    const later = meta.runs
      .filter((r) => (r.trial ?? 1) > 1)
      .flatMap((r) => {
        const started = rounds[(r.trial ?? 1) - 1]!.find((e) => e.runId === r.runId && e.type === 'run-started')!;
        return [{ ...started, seq: 0 }, cancel(r.runId, 1)];
      });
    const first = meta.runs.filter((r) => (r.trial ?? 1) === 1).map((r) => cancel(r.runId, seqOf(r.runId)));
    const runs = upTo([...round1, ...first, ...later]);
    const states = trialStates(meta, runs, []);
    expect(states).toEqual(['done', 'done', 'done']);
    expect(meta.runs.map((r) => runNeverRan(runs[r.runId]))).toEqual(meta.runs.map((r) => (r.trial ?? 1) > 1));
    const ran = trialsRan(meta, runs, states);
    expect(ran).toEqual([true, false, false]);
    // Live it used to stay on the last trial (one that never ran); now it stays on the last that ran.
    expect(shownTrial(null, states, 'live', ran)).toBe(1);
    expect(shownTrial(null, states, 'history', ran)).toBe(1);
    expect(shownTrial(3, states, 'live', ran)).toBe(3);
    // A trial still to come counts as one that runs.
    expect(trialsRan(meta, upTo(through(1, 5)), trialStates(meta, upTo(through(1, 5)), []))).toEqual([
      true,
      true,
      true,
    ]);
  });

  it('says "waiting" for a run whose round has not started, and the run’s own status otherwise', () => {
    const runs = upTo(through(1, 12));
    const states = trialStates(meta, runs, []);
    const [a1, , a2] = meta.runs;
    expect(displayStatus(runs[a1!.runId], a1!.runId, 1, states, [])).toBe('running');
    expect(displayStatus(runs[a2!.runId], a2!.runId, 2, states, [])).toBe('waiting');
    const released = upTo(through(2, 0));
    const st2 = trialStates(meta, released, []);
    expect(displayStatus(released[a2!.runId], a2!.runId, 2, st2, [])).toBe('pending');
    expect(displayStatus(released[a1!.runId], a1!.runId, 1, st2, [])).toBe('answered');
    const cut = upTo(through(1, 6));
    expect(displayStatus(cut[a1!.runId], a1!.runId, 1, trialStates(meta, cut, [a1!.runId]), [a1!.runId])).toBe(
      'interrupted',
    );
  });
});
