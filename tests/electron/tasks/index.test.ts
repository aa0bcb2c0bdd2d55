/** The registry: every card's words are claimed by its own definition, and by no other before it. */
import { describe, expect, it } from 'vitest';
import { detectTask } from '../../../electron/sim/policies/index.js';
import { runTaskOf, TASKS } from '../../../electron/tasks/index.js';
import { BUILTIN_TASKS, TASK_SET_CARDS } from '../../../shared/tasks.js';

describe('the built-in tasks', () => {
  it("each card has one definition, in the card order or not, with unique ids (a task set's cards too)", () => {
    expect(TASKS.map((t) => t.id).sort()).toEqual([...BUILTIN_TASKS, ...TASK_SET_CARDS].map((t) => t.id).sort());
    expect(new Set(TASKS.map((t) => t.id)).size).toBe(TASKS.length);
  });

  it.each([...BUILTIN_TASKS, ...TASK_SET_CARDS].map((t) => [t.id, t] as const))(
    '%s: its text is detected as itself, by its own detector only',
    (id, card) => {
      const text = card.text.replace('{{FIXTURE_URL}}', 'http://127.0.0.1:9/');
      expect(detectTask(text)?.id).toBe(id);
      expect(TASKS.filter((t) => t.simMatch(text) !== null).map((t) => t.id)).toEqual([id]);
    },
  );

  it('hands the engine a task with its tools, and nothing for free text', () => {
    expect(runTaskOf({ id: 'web-lookup' })!.tools.map((t) => t.name)).toEqual(['web_search']);
    expect(runTaskOf({ id: null })).toBeNull();
    expect(runTaskOf({ id: 'no-such-task' })).toBeNull();
  });
});
