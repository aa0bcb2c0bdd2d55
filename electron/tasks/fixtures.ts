/** Workspaces for the built-in tasks. Every run gets its own copy; the same seed always gives the same files. */
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { findTask } from '../../shared/tasks.js';
import { TASKS, taskDefinition } from './index.js';
import type { Task } from './task.js';

export const DEFAULT_FIXTURE_SEED = 7;

/** The tasks' ids for a message: a task set's many tasks as one entry ("m3tooleval/… (82 tasks)"). */
function taskIdsInWords(tasks: readonly Task[]): string {
  const sets = new Map<string, number>();
  const single: string[] = [];
  for (const t of tasks) {
    const set = /^([\w-]+)\//.exec(t.id)?.[1];
    if (set) sets.set(set, (sets.get(set) ?? 0) + 1);
    else single.push(t.id);
  }
  return [...single, ...[...sets].map(([set, n]) => `${set}/… (${n} tasks of the ${set} set)`)].join(', ');
}

/** Writes the task's files into `dir` (created when missing); existing unrelated files are kept. */
export async function prepareFixture(
  taskId: string,
  dir: string,
  seed: number = DEFAULT_FIXTURE_SEED,
  tasks: readonly Task[] = TASKS,
): Promise<void> {
  const task = taskDefinition(taskId, tasks);
  if (!task) {
    throw new Error(
      `No fixture for task "${taskId}": built-in tasks are ${taskIdsInWords(tasks)}. A free-text task runs in an empty folder or one you choose.`,
    );
  }
  if (!Number.isInteger(seed) || seed < 0 || seed > 0xffffffff) {
    throw new Error(`Fixture seed must be a whole number from 0 to 4294967295, got ${seed}.`);
  }
  await fs.mkdir(dir, { recursive: true });
  const files = task.workspace?.(seed) ?? [
    {
      name: 'README.md',
      content: `# ${findTask(task.id)?.title ?? task.id}\n\nThis workspace is intentionally empty: the task "${task.id}" needs no files.\n`,
    },
  ];
  for (const file of files) {
    await fs.mkdir(path.dirname(path.join(dir, file.name)), { recursive: true });
    await fs.writeFile(path.join(dir, file.name), file.content, 'utf8');
  }
}
