/**
 * What the text ReAct mode writes for the model: the system prompt (an opening, the tool list, the format) and
 * the observation that answers each reply. The prompt-composition tracker (tokens/prompt-composition.ts) uses
 * the same functions to find the tool list inside the system prompt and to count each observation, so the
 * parts it reports are the text the request carried.
 */
import type { ParsedReply, ToolExposure } from '../../../../shared/step-event.js';

/** Where a provider that honours stop sequences ends the reply: the model never writes an observation. */
export const STOP_SEQUENCES: readonly string[] = ['Observation:'];

/** One JSON schema without the keys that only describe the schema itself. */
function inputSchema(parameters: Record<string, unknown>): string {
  const { $schema: _schema, additionalProperties: _extra, ...rest } = parameters;
  return JSON.stringify(rest);
}

/** The tools as the system prompt lists them: one line per tool, with its input's JSON schema. */
export function toolListText(tools: readonly ToolExposure[]): string {
  return tools
    .map((t) => `- ${t.name}: ${t.description.replace(/\s*\n\s*/g, ' ')} Input: ${inputSchema(t.parameters)}`)
    .join('\n');
}

/** The whole system prompt: the profile's opening, the tools, and the format the parser reads. */
export function textReActPrompt(opening: string, tools: readonly ToolExposure[]): string {
  const names = tools.map((t) => t.name).join(', ');
  return [
    opening,
    '',
    'You can use these tools:',
    toolListText(tools),
    '',
    'Answer in this format:',
    '',
    'Thought: what you will do next, and why',
    `Action: the tool to use, one of [${names}]`,
    "Action Input: the tool's input, one JSON object",
    "Observation: the tool's result, written for you after your action; never write it yourself",
    '... (Thought / Action / Action Input / Observation repeat as needed)',
    'Thought: I now know the final answer',
    'Final Answer: the answer to the task',
    '',
    'Several Thought / Action / Action Input blocks may go in one reply when the actions do not depend on each ' +
      'other; then stop and wait for their observations. Write "Final Answer:" only once you have the answer.',
  ].join('\n');
}

/** What the loop needs of a reply to write its observation (all of it is in the recorded model-response). */
export interface ObservedReply {
  readonly parsed: ParsedReply;
  readonly actions: readonly { readonly name: string }[];
}

/**
 * The user message that answers a reply: the parse error, or each action's result (the text its tool
 * message would have carried in ReAct), in the order the actions were written.
 */
export function observationMessage(reply: ObservedReply, outputs: readonly string[]): string {
  if (reply.parsed.parseError !== null) return `Observation: ${reply.parsed.parseError}`;
  const note =
    reply.parsed.finalAnswer !== null
      ? 'Your Final Answer was set aside: it came before the results of your actions. Read them, then answer again.\n'
      : '';
  if (reply.actions.length === 1) return `${note}Observation: ${outputs[0] ?? ''}`;
  return note + reply.actions.map((a, i) => `Observation ${i + 1} (${a.name}): ${outputs[i] ?? ''}`).join('\n\n');
}
