/**
 * A task added by following docs/architecture.md's "A built-in task" recipe, in one file: its workspace, its
 * validator and the simulated model's policies (ReAct's and Code Mode's, in JavaScript and Python). A real
 * task would add its card to shared/tasks.ts and one line to electron/tasks/index.ts; the recipe test hands
 * this one to the simulated model, the fixture writer and the engine instead (tests/electron/tasks/recipes.test.ts).
 */
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { seededRandom } from '../../shared/seeded-random.js';
import { finalAnswer, missingTools, programOutput } from '../../electron/sim/policies/common.js';
import { firstLine, lastCall, type Conversation } from '../../electron/sim/policies/conversation.js';
import { programLanguage } from '../../electron/sim/policies/programs.js';
import { callTools, type SimReply } from '../../electron/sim/types.js';
import { defineTask } from '../../electron/tasks/task.js';

export const OPEN_TODOS_TEXT = 'How many items in todo.md are still open (marked "- [ ]")? Answer with the number.';

const ITEMS = [
  'Renew the TLS certificate',
  'Rotate the API keys',
  "Archive last month's logs",
  'Update the runbook',
  'Check the backups',
  'Tag the release',
];

/** todo.md: six items, some done ("- [x]"), and a line that mentions "[ ]" in passing, which is no item. */
function todoFile(seed: number): string {
  const rand = seededRandom(seed);
  const lines = ITEMS.map((item) => `- [${rand() < 0.5 ? ' ' : 'x'}] ${item}`);
  return `# To do\n\n${lines.join('\n')}\n\nOpen items are written "- [ ]" in this list.\n`;
}

const openItems = (text: string): number => text.split('\n').filter((line) => line.startsWith('- [ ] ')).length;

function answerWith(count: number): SimReply {
  return finalAnswer([`${count} items in todo.md are still open.`]);
}

function react(conv: Conversation): SimReply {
  const missing = missingTools(conv, ['read_file']);
  if (missing) return missing;
  const read = lastCall(conv, 'read_file', (a) => a.path === 'todo.md');
  if (!read) return callTools([{ name: 'read_file', args: { path: 'todo.md' } }]);
  return answerWith(openItems(read.result ?? ''));
}

const PROGRAMS = {
  javascript: "print(read_file('todo.md').split('\\n').filter((line) => line.startsWith('- [ ] ')).length);",
  python: "print(sum(1 for line in read_file('todo.md').splitlines() if line.startswith('- [ ] ')))",
};

function code(conv: Conversation): SimReply {
  const program = lastCall(conv, 'run_code');
  if (!program) return callTools([{ name: 'run_code', args: { code: PROGRAMS[programLanguage(conv)] } }]);
  const out = programOutput(program.result);
  if (out.error || !/^\d+$/.test(out.printed.trim()))
    return finalAnswer([`My program could not count the items: ${firstLine(out.error ?? out.printed)}`]);
  return answerWith(Number(out.printed.trim()));
}

export const openTodos = defineTask({
  id: 'open-todos',
  workspace: (seed) => [{ name: 'todo.md', content: todoFile(seed) }],
  async validate(answer, ctx) {
    const expected = openItems(await fs.readFile(path.join(ctx.workspace, 'todo.md'), 'utf8'));
    const found = [...answer.matchAll(/\b\d+\b/g)].map((m) => Number(m[0]));
    return {
      ok: found.includes(expected),
      detail: `Expected ${expected} open items; found ${found.join(', ') || 'no number'}.`,
    };
  },
  sim: {
    detect: (text) => (/\btodo\.md\b/.test(text) && /\bopen\b/i.test(text) ? {} : null),
    react,
    code,
    // Hybrid reads one file directly, as ReAct does.
    modes: { hybrid: react },
  },
});
