/** `parallax tasks`: the built-in tasks, what each exercises, and how to run one. */
import type { Command } from 'commander';
import { BUILTIN_TASKS } from '../../../shared/tasks.js';
import { TASK_SETS } from '../../../shared/task-set-suites.js';
import { say, sayJson } from '../terminal.js';

export function formatTaskList(): string {
  const idWidth = Math.max(...BUILTIN_TASKS.map((t) => t.id.length));
  const titleWidth = Math.max(...BUILTIN_TASKS.map((t) => t.title.length));
  const lines = BUILTIN_TASKS.map((t) => `${t.id.padEnd(idWidth)}  ${t.title.padEnd(titleWidth)}  ${t.about}`);
  const sets = TASK_SETS.map(
    (set) => `${set.id}  ${set.label}: ${set.tasks().length} tasks in ${set.domains.map((d) => d.id).join(', ')}`,
  );
  return [
    ...lines,
    '',
    'Run one with `parallax run --task <id>`, or pass any other text as a free-text task.',
    '',
    'Task sets (run one with `parallax suite run <set>`, a domain with `<set>:<domain>`; each task is also a built-in task, `<set>/<domain>/<task>`):',
    ...sets,
  ].join('\n');
}

export function register(program: Command): void {
  program
    .command('tasks')
    .description('list the built-in tasks: id, title and what each exercises')
    .option('--json', 'print the tasks (id, title, prompt text, about) as JSON')
    .action((flags: { json?: boolean }) => {
      if (flags.json) sayJson(BUILTIN_TASKS);
      else say(formatTaskList());
    });
}
