/**
 * M3ToolEval as a task set: its five domains, each with its tools, and its 82 tasks in the original's order,
 * each with its instruction and expected output (shared/m3tooleval-tasks.ts). A task's id is `m3tooleval/<domain>/<task>`;
 * a domain can be chosen on its own (`m3tooleval:dna_sequencer`).
 */
import { M3_DOMAIN_INFO, M3_SET_ID, M3_TASK_DATA, m3Cards, type M3DomainId } from '../../../shared/m3tooleval-tasks.js';
import { DNA_TOOLS } from './domains/dna-sequencer.js';
import { DECODER_TOOLS } from './domains/message-decoder.js';
import { TRADE_TOOLS } from './domains/trade-calculator.js';
import { TRAVEL_TOOLS } from './domains/travel-planner.js';
import { WEB_TOOLS } from './domains/web-browser.js';
import type { M3Tool } from './m3-tool.js';
import { literalEval } from './py-expr.js';
import type { PyValue } from './py-value.js';

export { M3_SET_ID };

export interface M3Domain {
  /** As `m3tooleval:<id>` names it. */
  readonly id: M3DomainId;
  readonly title: string;
  /** The prefix of the original's task names. */
  readonly original: string;
  readonly tools: readonly M3Tool[];
}

const TOOLS: Readonly<Record<M3DomainId, readonly M3Tool[]>> = {
  message_decoder: DECODER_TOOLS,
  dna_sequencer: DNA_TOOLS,
  trade_calculator: TRADE_TOOLS,
  travel_itinerary_planning: TRAVEL_TOOLS,
  web_browsing: WEB_TOOLS,
};

export const M3_DOMAINS: readonly M3Domain[] = M3_DOMAIN_INFO.map((d) => ({ ...d, tools: TOOLS[d.id] }));

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
  /** Its text as every mode receives it (its card's): the instruction, then the answer lines. */
  readonly text: string;
}

const CARDS = m3Cards();

export const M3_TASKS: readonly M3Task[] = M3_TASK_DATA.map((t, i) => ({
  id: CARDS[i].id,
  name: t.name,
  domain: M3_DOMAINS.find((d) => d.id === CARDS[i].domain)!,
  instruction: t.instruction,
  expected: literalEval(t.expected),
  expectedRepr: t.expected,
  text: CARDS[i].text,
}));

/** The task's text as every mode receives it: the instruction, then the answer lines. */
export function taskText(task: M3Task): string {
  return task.text;
}

/** The M3ToolEval task whose instruction the text begins with (any agent may add words after it). */
export function m3TaskOf(text: string): M3Task | undefined {
  const t = text.trim();
  return M3_TASKS.find((task) => t.startsWith(task.instruction.trim()));
}
