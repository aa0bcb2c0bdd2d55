/**
 * The one token counter of Parallax. The simulated model counts its `usage` with it, and the provider client
 * estimates a step's usage with it when a provider reports none. Every figure is counted with gpt-tokenizer
 * (o200k_base) from the request actually sent and the reply actually received; nothing is typed in.
 *
 * Formula (modelled on OpenAI's published chat accounting; tok(s) = o200k_base token count of s, special
 * token text such as "<|endoftext|>" counted as plain text):
 *
 *   prompt     = REPLY_PRIMING
 *              + Σ messages [ PER_MESSAGE + tok(role) + tok(content text)
 *                             + (name ? PER_NAME + tok(name) : 0)
 *                             + (tool_call_id ? tok(tool_call_id) : 0)
 *                             + Σ tool_calls (and a legacy function_call) [ PER_TOOL_CALL + tok(name) + tok(arguments) ]
 *                             + tok(reasoning text sent back: reasoning_content or reasoning) ]
 *              + (tools non-empty ? tok(JSON.stringify(tools)) : 0)
 *   completion = tok(reply text) + tok(reasoning text) + Σ reply tool calls [ PER_TOOL_CALL + tok(name) + tok(arguments) ]
 *
 * Content given as an array of parts counts the concatenated `text` of its parts (other part types count 0).
 */
import { GptEncoding } from 'gpt-tokenizer/GptEncoding';
import path from 'node:path';
import { appLayout } from '../app-layout.js';
import { textOf } from './message-text.js';
import { libraryRanks, RANK_TABLE_FILE, readRankTable } from './rank-table.js';

export const PER_MESSAGE = 3;
export const PER_NAME = 1;
export const PER_TOOL_CALL = 3;
export const REPLY_PRIMING = 3;

/** The slice of a chat message the counter reads (the wire format, snake_case). */
export interface CountableMessage {
  readonly role: string;
  readonly content?: string | readonly { readonly type: string; readonly text?: string }[] | null;
  readonly name?: string;
  readonly tool_call_id?: string;
  readonly tool_calls?: readonly { readonly function: { readonly name: string; readonly arguments: string } }[];
  readonly function_call?: { readonly name: string; readonly arguments: string } | null;
  readonly reasoning_content?: unknown;
  readonly reasoning?: unknown;
}

export interface CountableCall {
  readonly name: string;
  readonly arguments: string;
}

const PLAIN = { disallowedSpecial: new Set<string>() };

let encoding: GptEncoding | undefined;

/**
 * The o200k_base encoding, built on the first count as gpt-tokenizer builds its own (`encoding/o200k_base`), from the
 * build's rank table beside the worker bundle when it holds this library version's ranks, else from the library's.
 */
function o200k(): GptEncoding {
  encoding ??= GptEncoding.getEncodingApi(
    'o200k_base',
    () => readRankTable(path.join(appLayout().workerDir, RANK_TABLE_FILE)) ?? libraryRanks(),
  );
  return encoding;
}

/** o200k_base tokens of a string; special-token text is counted as ordinary text instead of throwing. */
export function tok(text: string): number {
  return text.length === 0 ? 0 : o200k().countTokens(text, PLAIN);
}

const callTokens = (name: string, args: string) => PER_TOOL_CALL + tok(name) + tok(args);

export function countPromptTokens(
  messages: readonly CountableMessage[],
  tools: readonly unknown[] | undefined,
): number {
  let total = REPLY_PRIMING;
  for (const m of messages) {
    total += PER_MESSAGE + tok(m.role) + tok(textOf(m.content));
    if (m.name) total += PER_NAME + tok(m.name);
    if (m.tool_call_id) total += tok(m.tool_call_id);
    for (const call of m.tool_calls ?? []) total += callTokens(call.function.name, call.function.arguments);
    if (m.function_call) total += callTokens(m.function_call.name, m.function_call.arguments);
    const reasoning = m.reasoning_content ?? m.reasoning;
    if (typeof reasoning === 'string') total += tok(reasoning);
  }
  if (tools && tools.length > 0) total += tok(JSON.stringify(tools));
  return total;
}

export function countCompletionTokens(text: string, calls: readonly CountableCall[], reasoningText = ''): number {
  let total = tok(text) + tok(reasoningText);
  for (const call of calls) total += callTokens(call.name, call.arguments);
  return total;
}
