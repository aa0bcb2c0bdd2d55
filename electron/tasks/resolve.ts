/** Turns what the user typed (a built-in id or free text) into the task a run carries. */
import { closestName, type TaskRef } from '../../shared/run-spec.js';
import { BUILTIN_TASKS, FIXTURE_URL_PLACEHOLDER, findTaskByInput } from '../../shared/tasks.js';

export function resolveTask(input: string, ctx: { fixtureUrl: string | null }): TaskRef {
  const trimmed = input.trim();
  if (trimmed === '') {
    const ids = BUILTIN_TASKS.map((t) => t.id).join(', ');
    throw new Error(`The task is empty. Give a built-in task id (${ids}) or describe the task in words.`);
  }
  const task = findTaskByInput(trimmed);
  // One word that names no built-in task is a mistyped id, not a task: free text has spaces.
  if (!task && /^[A-Za-z0-9_-]+$/.test(trimmed)) {
    const ids = BUILTIN_TASKS.map((t) => t.id);
    const near = closestName(trimmed, ids);
    throw new Error(
      `"${trimmed}" is not a built-in task${near ? ` (did you mean "${near}"?)` : ''}. Built-in tasks: ${ids.join(', ')}. To run your own task, describe it in words.`,
    );
  }
  if (!task) return { id: null, text: trimmed };
  if (!task.text.includes(FIXTURE_URL_PLACEHOLDER)) return { id: task.id, text: task.text };
  if (!ctx.fixtureUrl) {
    throw new Error(
      `Task "${task.id}" fetches a local test page, but no page URL was given. Start the fixture server ` +
        '(startFixtureServer) and pass its URL, or run the task through the app or CLI, which start it for you.',
    );
  }
  return { id: task.id, text: task.text.split(FIXTURE_URL_PLACEHOLDER).join(ctx.fixtureUrl) };
}
