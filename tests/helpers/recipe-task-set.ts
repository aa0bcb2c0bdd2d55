/**
 * A task set added by following docs/architecture.md's "A task set" recipe: two domains, each with its own
 * pure-function tools, tasks that are an instruction and an expected output (computed by the tools, as a
 * benchmark's are), exact-match scoring and per-domain simulated policies that follow each task's reference
 * plan. The cipher's tools come beside the profile's; the tally's are the run's only tools ('instead', in
 * Code Mode's catalog), and its tool keeps a running total for its run, so tools made once for all runs would
 * give wrong totals from the second run on. The recipe test runs it in every mode (tests/electron/tasks/recipes.test.ts).
 */
import { z } from 'zod';
import { defineTool, type ToolDefinition } from '../../electron/engine/tools/tool.js';
import { finalAnswer, missingTools, programOutput } from '../../electron/sim/policies/common.js';
import { firstLine, jsonResult, type Conversation } from '../../electron/sim/policies/conversation.js';
import { programLanguage } from '../../electron/sim/policies/programs.js';
import { findTools } from '../../electron/sim/policies/react-search.js';
import { callTools, type SimReply } from '../../electron/sim/types.js';
import { defineDomain, defineTaskSet, type SetTask } from '../../electron/tasks/task-set.js';

/** A step of a task's reference plan; `'$prev'` stands for the previous step's result. */
interface PlanStep {
  readonly tool: string;
  readonly args: Readonly<Record<string, string | number>>;
}

interface PlannedTask extends SetTask {
  readonly plan: readonly PlanStep[];
}

const reverse = (text: string): string => [...text].reverse().join('');
const unshift = (text: string, shift: number): string =>
  text.replace(/[a-z]/gi, (c) => {
    const base = c <= 'Z' ? 65 : 97;
    return String.fromCharCode(((c.charCodeAt(0) - base - shift + 26 * 10) % 26) + base);
  });

const cipherTools = (): readonly ToolDefinition[] => [
  defineTool({
    name: 'reverse_text',
    description: 'Reverses a text, character by character.',
    args: z.object({ text: z.string() }),
    returns: 'string',
    run: async ({ text }) => reverse(text),
  }),
  defineTool({
    name: 'caesar_decode',
    description: 'Decodes a Caesar cipher: shifts each letter back by `shift` places.',
    args: z.object({ text: z.string(), shift: z.number().int() }),
    returns: 'string',
    run: async ({ text, shift }) => unshift(text, shift),
  }),
];

/** The tally keeps its total for the run it was made for. */
function tallyTools(): readonly ToolDefinition[] {
  let total = 0;
  return [
    defineTool({
      name: 'tally_add',
      description: 'Adds a number to the tally and returns the new total.',
      args: z.object({ n: z.number() }),
      returns: 'number',
      run: async ({ n }) => (total += n),
    }),
  ];
}

const CIPHER_TASKS: readonly PlannedTask[] = [
  {
    id: 'recipe-reverse',
    instruction: "Reverse the text 'drawkcab'. Answer with the text only.",
    expected: reverse('drawkcab'),
    plan: [{ tool: 'reverse_text', args: { text: 'drawkcab' } }],
  },
  {
    id: 'recipe-decode',
    instruction: "Decode 'Khoor' with a Caesar shift of 3, then reverse the result. Answer with the text only.",
    expected: reverse(unshift('Khoor', 3)),
    plan: [
      { tool: 'caesar_decode', args: { text: 'Khoor', shift: 3 } },
      { tool: 'reverse_text', args: { text: '$prev' } },
    ],
  },
];

const TALLY_TASKS: readonly PlannedTask[] = [
  {
    id: 'recipe-tally',
    instruction: 'Add 3, then 4, then 5 to the tally and answer with its total only.',
    expected: 12,
    plan: [3, 4, 5].map((n) => ({ tool: 'tally_add', args: { n } })),
  },
];

const toolsOf = (task: PlannedTask): string[] => [...new Set(task.plan.map((s) => s.tool))];
const argsOf = (step: PlanStep, prev: unknown): Record<string, unknown> =>
  Object.fromEntries(Object.entries(step.args).map(([k, v]) => [k, v === '$prev' ? prev : v]));

/** ReAct: the plan's calls one per step, each after the result it needs, then the last result as the answer. */
function react(conv: Conversation, task: PlannedTask): SimReply {
  const missing = missingTools(conv, toolsOf(task));
  if (missing) return missing;
  const made = conv.calls.filter((c) => toolsOf(task).includes(c.name));
  // A text result comes back as it is, any other value as JSON.
  const last = made.length ? made[made.length - 1].result : undefined;
  const prev = jsonResult(last) ?? last;
  if (made.length < task.plan.length)
    return callTools([{ name: task.plan[made.length].tool, args: argsOf(task.plan[made.length], prev) }]);
  return finalAnswer([String(prev)]);
}

/** Code Mode: one program that finds the tools, runs the plan and prints the last value as JSON. */
function code(conv: Conversation, task: PlannedTask): SimReply {
  const ran = conv.calls.find((c) => c.name === 'run_code');
  if (!ran) {
    const python = programLanguage(conv) === 'python';
    const q = JSON.stringify;
    const value = (v: string | number) => (v === '$prev' ? 'value' : q(v));
    const lines = [
      ...(python ? ['import json'] : []),
      // A tool in run_code's catalog is a function already; the others are found with search_tools.
      ...toolsOf(task)
        .filter((t) => !conv.runCodeDescription.includes(`${t}(`))
        .map((t) => `${python ? '' : 'const '}${t} = search_tools(${q(t.replace(/_/g, ' '))})[0]${python ? '' : ';'}`),
      ...task.plan.map(
        (s, i) =>
          `${i === 0 && !python ? 'let ' : ''}value = ${s.tool}(${Object.values(s.args).map(value).join(', ')})${python ? '' : ';'}`,
      ),
      python ? 'print(json.dumps(value))' : 'print(JSON.stringify(value));',
    ];
    return callTools([{ name: 'run_code', args: { code: lines.join('\n') } }]);
  }
  const out = programOutput(ran.result);
  const value = jsonResult(out.printed.trim().split('\n').pop());
  if (out.error || value === undefined)
    return finalAnswer([`My program failed: ${firstLine(out.error ?? out.printed)}`]);
  return finalAnswer([String(value)]);
}

const sim = {
  react,
  code,
  modes: {
    'react-search': (conv: Conversation, task: PlannedTask) => findTools(conv, toolsOf(task)) ?? react(conv, task),
  },
};

export const RECIPE_SET = defineTaskSet(
  defineDomain({ tasks: CIPHER_TASKS, tools: cipherTools, sim }),
  defineDomain({ tasks: TALLY_TASKS, tools: tallyTools, toolOffer: 'instead', sim }),
);
export const RECIPE_SET_TASKS: readonly PlannedTask[] = [...CIPHER_TASKS, ...TALLY_TASKS];
