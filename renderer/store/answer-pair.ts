/** Which two answers the Answers tab compares: the user's pick while both runs are in the comparison, else the default. */
import { defaultDiffPair } from '../../shared/answer-diff.js';
import type { ModeRun } from './derived.js';
import type { Validation } from '../../shared/step-event.js';

export interface AnswerChoice {
  readonly runId: string;
  readonly label: string;
  readonly answer: string;
  readonly answered: boolean;
  /** How the run ended and what validation said: the tab shows pass or fail by each answer. */
  readonly status: string;
  readonly validation: Validation | null;
}

/** Every run with a final text, labelled by column (and trial, when the comparison has several). */
export function answerChoices(runs: readonly ModeRun[], trials: number): AnswerChoice[] {
  return runs.flatMap((m) => {
    const f = m.run?.finished;
    if (!f || f.answer === '') return [];
    const label = trials > 1 ? `${m.column.label} · trial ${m.trial}` : m.column.label;
    return [
      {
        runId: m.runId,
        label,
        answer: f.answer,
        answered: f.status === 'answered',
        status: f.status,
        validation: f.validation,
      },
    ];
  });
}

/** The pair shown: the picked one while both its runs have answers, else the first two that answered in `shown`. */
export function resolvePair(
  choices: readonly AnswerChoice[],
  shown: readonly ModeRun[],
  picked: readonly [string, string] | null,
): [AnswerChoice, AnswerChoice] | null {
  const byId = new Map(choices.map((c) => [c.runId, c]));
  if (picked) {
    const a = byId.get(picked[0]);
    const b = byId.get(picked[1]);
    if (a && b) return [a, b];
  }
  const shownIds = new Set(shown.map((m) => m.runId));
  return defaultDiffPair(choices.filter((c) => shownIds.has(c.runId))) ?? defaultDiffPair(choices);
}
