/**
 * Token counting for the simulated model's `usage`. Every figure is counted with gpt-tokenizer (o200k_base)
 * from the request actually received and the reply actually sent; nothing is typed in.
 *
 * Formula (modelled on OpenAI's published chat accounting; tok(s) = o200k_base token count of s, special
 * token text such as "<|endoftext|>" counted as plain text):
 *
 *   prompt     = REPLY_PRIMING
 *              + Σ messages [ PER_MESSAGE + tok(role) + tok(content text)
 *                             + (name ? PER_NAME + tok(name) : 0)
 *                             + (tool_call_id ? tok(tool_call_id) : 0)
 *                             + Σ tool_calls [ PER_TOOL_CALL + tok(function.name) + tok(function.arguments) ] ]
 *              + (tools non-empty ? tok(JSON.stringify(tools)) : 0)
 *   completion = tok(reply text) + Σ reply tool calls [ PER_TOOL_CALL + tok(name) + tok(arguments) ]
 *
 * Content given as an array of parts counts the concatenated `text` of its parts (other part types count 0).
 */
import { countTokens } from 'gpt-tokenizer/encoding/o200k_base';
import { textOf, type PlannedCall, type WireMessage, type WireTool } from './types.js';

export const PER_MESSAGE = 3;
export const PER_NAME = 1;
export const PER_TOOL_CALL = 3;
export const REPLY_PRIMING = 3;

const PLAIN = { disallowedSpecial: new Set<string>() };

/** o200k_base tokens of a string; special-token text is counted as ordinary text instead of throwing. */
export function tok(text: string): number {
  return text.length === 0 ? 0 : countTokens(text, PLAIN);
}

export function countPromptTokens(messages: readonly WireMessage[], tools: readonly WireTool[] | undefined): number {
  let total = REPLY_PRIMING;
  for (const m of messages) {
    total += PER_MESSAGE + tok(m.role) + tok(textOf(m.content));
    if (m.name) total += PER_NAME + tok(m.name);
    if (m.tool_call_id) total += tok(m.tool_call_id);
    for (const call of m.tool_calls ?? []) total += PER_TOOL_CALL + tok(call.function.name) + tok(call.function.arguments);
  }
  if (tools && tools.length > 0) total += tok(JSON.stringify(tools));
  return total;
}

export function countCompletionTokens(text: string, calls: readonly PlannedCall[]): number {
  let total = tok(text);
  for (const call of calls) total += PER_TOOL_CALL + tok(call.name) + tok(call.arguments);
  return total;
}
