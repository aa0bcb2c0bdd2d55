/**
 * M3ToolEval as a task set: its five domains, each with its tools, and its 82 tasks in the original's order,
 * each with its instruction and expected output (data/tasks.ts). A task's id is `m3tooleval/<domain>/<task>`;
 * a domain can be chosen on its own (`m3tooleval:dna_sequencer`).
 */
import { M3_TASK_DATA } from './data/tasks.js';
import { DNA_TOOLS } from './domains/dna-sequencer.js';
import { DECODER_TOOLS } from './domains/message-decoder.js';
import { TRADE_TOOLS } from './domains/trade-calculator.js';
import { TRAVEL_TOOLS } from './domains/travel-planner.js';
import { WEB_TOOLS } from './domains/web-browser.js';
import type { M3Tool } from './m3-tool.js';
import { literalEval } from './py-expr.js';
import type { PyValue } from './py-value.js';

export const M3_SET_ID = 'm3tooleval';

export interface M3Domain {
  /** As `m3tooleval:<id>` names it. */
  readonly id: string;
  readonly title: string;
  /** The prefix of the original's task names. */
  readonly original: string;
  readonly tools: readonly M3Tool[];
}

export const M3_DOMAINS: readonly M3Domain[] = [
  { id: 'message_decoder', title: 'Alien message decoder', original: 'message_decoder', tools: DECODER_TOOLS },
  { id: 'dna_sequencer', title: "Cryptobotanist's plant DNA sequencer", original: 'cryptobotanists_plant_dna_sequencer', tools: DNA_TOOLS },
  { id: 'trade_calculator', title: 'Intergalactic trade calculator', original: 'trade_calculator', tools: TRADE_TOOLS },
  { id: 'travel_itinerary_planning', title: 'Travel itinerary planning', original: 'travel_itinerary_planning', tools: TRAVEL_TOOLS },
  { id: 'web_browsing', title: 'Web browsing (stored pages)', original: 'web_browsing', tools: WEB_TOOLS },
];

export interface M3Task {
  /** `m3tooleval/<domain>/<task>`. */
  readonly id: string;
  /** The original's name, `<original domain>/<task>`. */
  readonly name: string;
  readonly domain: M3Domain;
  readonly instruction: string;
  readonly expected: PyValue;
  /** The expected output as the original writes it (repr). */
  readonly expectedRepr: string;
}

/**
 * The lines the original's prompt puts after every instruction about the answer, kept in the task's text so that
 * every mode is asked for the answer the same way and the scoring reads it as the paper's harness does.
 */
export const ANSWER_LINES =
  "When you are done, output the result using 'Answer: your answer'\n" +
  'Please ONLY output the answer (e.g., single number), without any other text.';

function domainOf(name: string): M3Domain {
  const prefix = name.split('/')[0];
  const domain = M3_DOMAINS.find((d) => d.original === prefix);
  if (!domain) throw new Error(`M3ToolEval task ${name} names no known domain.`);
  return domain;
}

export const M3_TASKS: readonly M3Task[] = M3_TASK_DATA.map((t) => {
  const domain = domainOf(t.name);
  return {
    id: `${M3_SET_ID}/${domain.id}/${t.name.split('/').slice(1).join('/')}`,
    name: t.name,
    domain,
    instruction: t.instruction,
    expected: literalEval(t.expected),
    expectedRepr: t.expected,
  };
});

/** The task's text as every mode receives it: the instruction, then the answer lines. */
export function taskText(task: M3Task): string {
  return `${task.instruction.replace(/\s+$/, '')}\n${ANSWER_LINES}`;
}

/** The M3ToolEval task whose instruction the text begins with (any agent may add words after it). */
export function m3TaskOf(text: string): M3Task | undefined {
  const t = text.trim();
  return M3_TASKS.find((task) => t.startsWith(task.instruction.trim()));
}
