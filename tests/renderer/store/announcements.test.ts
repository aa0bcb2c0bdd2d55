import { describe, expect, it } from 'vitest';
import { announcements, type LiveRun, type LiveSnapshot } from '../../../renderer/store/announcements.js';

const words = (s: string) => ({ error: 'Error', crashed: 'Crashed', 'max-steps': 'Max steps' })[s] ?? s;
const run = (runId: string, status: string, pendingApprovals = 0): LiveRun => ({
  runId,
  label: runId === 'a' ? 'ReAct' : 'Code Mode',
  status,
  pendingApprovals,
});
const snap = (runs: LiveRun[], o: Partial<LiveSnapshot> = {}): LiveSnapshot => ({
  comparisonId: 'c1',
  live: true,
  runs,
  ...o,
});

describe('live announcements', () => {
  it('says a comparison started once, then nothing while tokens stream in', () => {
    const started = snap([run('a', 'pending'), run('b', 'pending')]);
    expect(announcements(null, started, words)).toEqual(['Comparison started: 2 runs.']);
    const streaming = snap([run('a', 'running'), run('b', 'running')]);
    expect(announcements(started, streaming, words)).toEqual([]);
    expect(announcements(streaming, snap([run('a', 'running'), run('b', 'running')]), words)).toEqual([]);
  });

  it('says when a run starts waiting for approval, once per wait', () => {
    const before = snap([run('a', 'running'), run('b', 'running')]);
    const asking = snap([run('a', 'running', 1), run('b', 'running')]);
    expect(announcements(before, asking, words)).toEqual(['ReAct needs your approval to go on.']);
    expect(announcements(asking, snap([run('a', 'running', 2), run('b', 'running')]), words)).toEqual([]);
  });

  it('names a failed run in its status words, and sums up when every run ended', () => {
    const before = snap([run('a', 'running'), run('b', 'running')]);
    const oneFailed = snap([run('a', 'error'), run('b', 'running')]);
    expect(announcements(before, oneFailed, words)).toEqual(['ReAct failed: Error.']);
    const done = snap([run('a', 'error'), run('b', 'answered')]);
    expect(announcements(oneFailed, done, words)).toEqual(['Comparison finished: 1 answered, 1 failed.']);
    expect(announcements(done, done, words)).toEqual([]);
  });

  it('says nothing for a comparison opened from history', () => {
    expect(announcements(null, snap([run('a', 'answered')], { live: false }), words)).toEqual([]);
    expect(announcements(null, snap([], { comparisonId: null }), words)).toEqual([]);
  });
});
