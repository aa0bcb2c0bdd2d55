/**
 * A set of tasks that share tools, as a public benchmark comes (M3ToolEval: five domains, each with its own
 * pure-function tools and a few dozen tasks, each an instruction and an expected output). A set is made of
 * ordinary task definitions (task.ts), one per task, so everything that runs a task runs these: each has its
 * card in shared/tasks.ts, its domain's tools (made afresh for each run), an answer judged by exact match
 * after normalisation, and its domain's policies on the simulated model, which knows the task by its words.
 */
import type { Validation } from '../../shared/step-event.js';
import type { TaskToolOffer } from '../engine/run-task.js';
import type { ToolDefinition } from '../engine/tools/tool.js';
import { SIM_LABEL } from '../sim/policies/common.js';
import { defineTask, type Task, type TaskSim } from './task.js';

/** An expected output: text, a number, or a list of them (compared item by item). */
export type Expected = string | number | readonly (string | number)[];

export interface SetTask {
  /** The id of its card in shared/tasks.ts. */
  readonly id: string;
  /** The task's words as its card gives them: the simulated model recognises the task by them (spacing aside). */
  readonly instruction: string;
  readonly expected: Expected;
}

export interface TaskDomain<T extends SetTask> {
  readonly tasks: readonly T[];
  /** The domain's tools, made for each run (a tool may keep state for its run, as a browser keeps its page). */
  tools(): readonly ToolDefinition[];
  /** 'instead': the domain's tools are the run's only tools, in Code Mode's catalog (engine/run-task.ts); default 'beside'. */
  readonly toolOffer?: TaskToolOffer;
  /** How an answer is judged; default exactMatch (normaliseAnswer, numbers as numbers, lists item by item). */
  score?(answer: string, task: T): Validation;
  /** What the benchmark's harness says to a wrong answer before the model goes on (TaskDefinition.answerFeedback). */
  feedback?(answer: string, task: T): string | null;
  /** The simulated model's policies for the domain's tasks; each gets the task itself (its own fields too). */
  readonly sim: Omit<TaskSim<T>, 'detect'>;
}

/** One domain's tasks as definitions; the registry takes a whole set in one line: `...defineTaskSet(a, b)`. */
export function defineDomain<T extends SetTask>(domain: TaskDomain<T>): readonly Task<T['id']>[] {
  return domain.tasks.map((task) =>
    defineTask<T['id'], T>({
      id: task.id,
      tools: domain.tools,
      ...(domain.toolOffer ? { toolOffer: domain.toolOffer } : {}),
      ...(domain.feedback ? { answerFeedback: (answer: string) => domain.feedback!(answer, task) } : {}),
      validate: (answer) => (domain.score ?? exactMatch)(answer, task),
      sim: { ...domain.sim, detect: (text) => (sameWords(text, task.instruction) ? task : null) },
    }),
  );
}

/** A set's domains as one list of definitions, in order; two tasks with one id do not make a set. */
export function defineTaskSet<const D extends readonly (readonly Task[])[]>(
  ...domains: D
): readonly D[number][number][] {
  const tasks = domains.flat() as D[number][number][];
  const twice = tasks.map((t) => t.id).filter((id, i, ids) => ids.indexOf(id) !== i);
  if (twice.length > 0)
    throw new Error(`A task set names ${[...new Set(twice)].join(', ')} more than once: give each task its own id.`);
  return tasks;
}

const spaced = (text: string): string => text.replace(/\s+/g, ' ').trim();

/** Whether the user's words hold the instruction (a harness may wrap it in words of its own). */
function sameWords(text: string, instruction: string): boolean {
  return spaced(text).includes(spaced(instruction));
}

/**
 * An answer as exact matching reads it: without the simulated model's label, a leading "Answer:" or "Final
 * Answer:", surrounding quotes, backticks or bold marks and a final full stop, spacing collapsed. Case is kept.
 */
export function normaliseAnswer(answer: string): string {
  let text = answer.split(SIM_LABEL).join(' ');
  text = spaced(text).replace(/^(final answer|answer)\s*:\s*/i, '');
  for (let before = ''; before !== text; ) {
    before = text;
    text = text
      .replace(/^(["'`]|\*\*)(.*)\1$/, '$2')
      .replace(/\.$/, '')
      .trim();
  }
  return text;
}

/** A number as written ("1,234.5", "-3"), else null. */
function numberOf(text: string): number | null {
  const plain = text.replace(/,(?=\d{3}\b)/g, '');
  return /^-?\d+(\.\d+)?(e[+-]?\d+)?$/i.test(plain) ? Number(plain) : null;
}

/** The items of a written list: JSON or Python (`['a', 2]`), or comma-separated; null when it is not a list. */
function itemsOf(text: string): string[] | null {
  const inner = /^\[(.*)\]$/s.exec(text)?.[1] ?? (text.includes(',') ? text : null);
  if (inner === null) return null;
  return inner.trim() === '' ? [] : inner.split(',').map((item) => normaliseAnswer(item));
}

function sameValue(found: string, expected: string | number): boolean {
  if (typeof expected === 'number') {
    const n = numberOf(found);
    return n !== null && Math.abs(n - expected) <= 1e-9 * Math.max(1, Math.abs(expected));
  }
  return found === normaliseAnswer(expected);
}

/** The default judge of a set's task: the normalised answer equals the expected output (as a number, or item by item). */
export function exactMatch(answer: string, task: Pick<SetTask, 'expected'>): Validation {
  const found = normaliseAnswer(answer);
  const { expected } = task;
  const shown = Array.isArray(expected) ? `[${expected.join(', ')}]` : String(expected);
  let ok: boolean;
  if (Array.isArray(expected)) {
    const items = itemsOf(found);
    ok = items !== null && items.length === expected.length && items.every((item, i) => sameValue(item, expected[i]));
  } else {
    ok = sameValue(found, expected as string | number);
  }
  return {
    ok,
    detail: `Expected exactly ${shown}; found ${found === '' ? 'nothing' : found}${ok ? '' : ' (compared after trimming quotes, "Answer:" and spacing)'}.`,
  };
}
