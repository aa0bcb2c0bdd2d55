import { describe, expect, it } from 'vitest';
import { answerChoices, resolvePair } from '../../../renderer/store/answer-pair.js';
import type { ModeRun } from '../../../renderer/store/derived.js';
import type { RunView } from '../../../renderer/store/run-model.js';
import { MODE_LABELS, type ModeId } from '../../../shared/run-spec.js';

function modeRun(runId: string, mode: ModeId, trial: number, answer: string | null, status = 'answered'): ModeRun {
  const run = answer === null ? undefined : ({ finished: { answer, status } } as unknown as RunView);
  return { runId, mode, trial, run, column: { key: mode, label: MODE_LABELS[mode] }, slot: mode };
}

describe('answer pair', () => {
  const runs = [
    modeRun('r1', 'react', 1, 'a'),
    modeRun('c1', 'code', 1, 'b', 'max-steps'),
    modeRun('h1', 'hybrid', 1, 'c'),
    modeRun('r2', 'react', 2, 'd'),
    modeRun('c2', 'code', 2, null),
  ];

  it('offers every run with a final text, named by mode and trial', () => {
    expect(answerChoices(runs, 2).map((c) => c.label)).toEqual([
      'ReAct · trial 1',
      'Code Mode · trial 1',
      'Hybrid · trial 1',
      'ReAct · trial 2',
    ]);
    expect(answerChoices(runs.slice(0, 3), 1).map((c) => c.label)).toEqual(['ReAct', 'Code Mode', 'Hybrid']);
  });

  it('defaults to the first two that answered in the shown trial', () => {
    const choices = answerChoices(runs, 2);
    expect(resolvePair(choices, runs.slice(0, 3), null)?.map((c) => c.runId)).toEqual(['r1', 'h1']);
    // Only one answered in trial 2: the default comes from the whole comparison.
    expect(resolvePair(choices, runs.slice(3), null)?.map((c) => c.runId)).toEqual(['r1', 'h1']);
  });

  it('keeps a picked pair while both runs have answers, else falls back', () => {
    const choices = answerChoices(runs, 2);
    expect(resolvePair(choices, runs.slice(0, 3), ['r2', 'c1'])?.map((c) => c.runId)).toEqual(['r2', 'c1']);
    expect(resolvePair(choices, runs.slice(0, 3), ['r2', 'gone'])?.map((c) => c.runId)).toEqual(['r1', 'h1']);
  });
});
