/**
 * The built-in tasks: one definition each (task.ts), listed here once, one line per task or task set. The
 * order is the order in which the simulated model tries their detectors, so a task whose words are also
 * another's (a set's exact instructions) comes before the one that would claim them. Every card of
 * shared/tasks.ts has its definition here and every definition its card, or this file does not compile.
 */
import type { BuiltinTaskId } from '../../shared/tasks.js';
import type { TaskRef } from '../../shared/run-spec.js';
import type { Validation } from '../../shared/step-event.js';
import type { RunTask, ValidateContext } from '../engine/run-task.js';
import { calc } from './builtin/calc.js';
import { configLookup } from './builtin/config-lookup.js';
import { logStats } from './builtin/log-stats.js';
import { missingFile } from './builtin/missing-file.js';
import { ownerChain } from './builtin/owner-chain.js';
import { timeAndTitle } from './builtin/time-and-title.js';
import { toolCatalog } from './builtin/tool-catalog.js';
import { weatherF } from './builtin/weather-f.js';
import { webLookup } from './builtin/web-lookup.js';
import { writeErrors } from './builtin/write-errors.js';
import type { Task } from './task.js';
import { M3TOOLEVAL } from './m3tooleval/task-set.js';

const DEFINITIONS = [
  logStats,
  timeAndTitle,
  weatherF,
  calc,
  ownerChain,
  webLookup,
  toolCatalog,
  configLookup,
  writeErrors,
  missingFile,
] as const;

// A card without a definition, or a definition without a card, is named by the compiler here.
type Defined = (typeof DEFINITIONS)[number]['id'];
const complete: [Exclude<BuiltinTaskId, Defined>] extends [never] ? true : Exclude<BuiltinTaskId, Defined> = true;
const carded: [Exclude<Defined, BuiltinTaskId>] extends [never] ? true : Exclude<Defined, BuiltinTaskId> = true;
void complete;
void carded;

/**
 * The task sets' tasks (their cards are shared/tasks.ts TASK_SET_CARDS; tests/electron/tasks/index.test.ts checks
 * both ways), first: their detectors match only their own exact words.
 */
const SETS: readonly Task[] = [...M3TOOLEVAL];

export const TASKS: readonly Task[] = [...SETS, ...DEFINITIONS];

export function taskDefinition(id: string | null | undefined, tasks: readonly Task[] = TASKS): Task | undefined {
  return id ? tasks.find((t) => t.id === id) : undefined;
}

/** The engine's view of a run's task (engine/run-task.ts), its tools made for this run; null for a free-text task. */
export function runTaskOf(task: Pick<TaskRef, 'id'>, tasks: readonly Task[] = TASKS): RunTask | null {
  const definition = taskDefinition(task.id, tasks);
  if (!definition) return null;
  return {
    id: definition.id,
    tools: definition.tools?.() ?? [],
    offer: definition.toolOffer ?? 'beside',
    ...(definition.answerFeedback
      ? { answerFeedback: async (answer: string) => definition.answerFeedback!(answer) }
      : {}),
    validate: async (answer, ctx) => definition.validate(answer, ctx),
  };
}

/** A built-in task's answer judged by its definition; null for a free-text task (nothing to check it against). */
export async function validateAnswer(
  task: TaskRef,
  answer: string,
  ctx: Omit<ValidateContext, 'taskText'>,
): Promise<Validation | null> {
  const definition = taskDefinition(task.id);
  return definition ? definition.validate(answer, { ...ctx, taskText: task.text }) : null;
}
