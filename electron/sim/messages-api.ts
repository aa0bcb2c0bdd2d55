/**
 * The simulated model's Anthropic Messages API (`POST /v1/messages`): a request is translated to the OpenAI
 * shapes the policies read (system → a system message, tool_result blocks → `tool` messages, tool_use blocks →
 * tool_calls), and the policy's reply is sent back as Anthropic's streamed events (message_start, content
 * blocks with text_delta / input_json_delta fragments, ping, message_delta with stop_reason and output_tokens,
 * message_stop) or as one Message. Usage is counted like the chat-completions endpoint counts the same
 * conversation, split the way Anthropic reports it: input_tokens, cache_read_input_tokens and
 * cache_creation_input_tokens sum to that count.
 *
 * Prompt cache: a cache_control breakpoint on a tool or on the system prompt marks the prefix up to it
 * (tools, then system). A prefix of at least MIN_CACHE_TOKENS seen within CACHE_TTL_MS is read (and its
 * lifetime refreshed), else written; the longest cached breakpoint is read and the rest up to the last one
 * written, as Anthropic documents. cache_control on messages is not simulated.
 */
import { createHash } from 'node:crypto';
import { z } from 'zod';
import { countCompletionTokens, PER_MESSAGE, tok } from '../engine/tokens/count-tokens.js';
import { BadRequest } from './request.js';
import type { PlannedCall, WireMessage, WireTool } from './types.js';
import { pieces, SIM_MODEL_ID } from './wire.js';

/** Anthropic's smallest cacheable prompt for Sonnet 4.5 / Opus 4.1 (other models need 2048 or 4096). */
export const MIN_CACHE_TOKENS = 1024;
/** The default (5-minute) cache lifetime, refreshed by each read. */
export const CACHE_TTL_MS = 5 * 60_000;

const cacheControl = z.looseObject({ type: z.literal('ephemeral') }).nullish();
const block = z.looseObject({ type: z.string(), cache_control: cacheControl });
const content = z.union([z.string(), z.array(block)]);
const body = z.looseObject({
  model: z.string({ error: 'is required' }),
  max_tokens: z.number({ error: 'is required (a positive whole number)' }).int().positive(),
  system: content.optional(),
  messages: z.array(z.looseObject({ role: z.enum(['user', 'assistant']), content })).min(1, 'must hold at least one message'),
  tools: z.array(z.looseObject({ name: z.string().min(1), description: z.string().optional(), input_schema: z.unknown(), cache_control: cacheControl })).optional(),
  stream: z.boolean().nullish(),
});

/** One cache breakpoint: the prefix up to it (hash) and its size in tokens. */
interface Breakpoint {
  readonly key: string;
  readonly tokens: number;
}

export interface MessagesRequest {
  readonly messages: readonly WireMessage[];
  readonly tools: readonly WireTool[];
  readonly stream: boolean;
  readonly breakpoints: readonly Breakpoint[];
}

type Block = { type: string; text?: unknown; [k: string]: unknown };
const textOfBlocks = (c: string | readonly Block[]): string =>
  typeof c === 'string' ? c : c.filter((b) => b.type === 'text').map((b) => String(b.text ?? '')).join('');

/** Parse and translate a Messages API body; throws BadRequest with what to fix. */
export function parseMessagesRequest(text: string): MessagesRequest {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new BadRequest(`The request body is not valid JSON (${(error as Error).message}). Send a JSON object with "model", "max_tokens" and "messages".`, null, 'invalid_request_error');
  }
  const parsed = body.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const where = issue.path.join('.') || 'body';
    throw new BadRequest(`${where}: ${issue.message}. Check it against the Messages API format.`, where, 'invalid_request_error');
  }
  const b = parsed.data;
  const tools: WireTool[] = (b.tools ?? []).map((t) => ({ type: 'function', function: { name: t.name, description: t.description, parameters: t.input_schema } }));
  const systemText = b.system === undefined ? '' : textOfBlocks(b.system as string | Block[]);
  const messages: WireMessage[] = systemText ? [{ role: 'system', content: systemText }] : [];
  const pendingUse = new Set<string>();
  for (const [i, m] of b.messages.entries()) {
    const blocks: Block[] = typeof m.content === 'string' ? [{ type: 'text', text: m.content }] : (m.content as Block[]);
    if (m.role === 'assistant') {
      const calls = blocks.filter((x) => x.type === 'tool_use').map((x) => {
        pendingUse.add(String(x.id));
        return { id: String(x.id), type: 'function' as const, function: { name: String(x.name), arguments: JSON.stringify(x.input ?? {}) } };
      });
      messages.push({ role: 'assistant', content: textOfBlocks(blocks), ...(calls.length ? { tool_calls: calls } : {}) });
      continue;
    }
    for (const r of blocks.filter((x) => x.type === 'tool_result')) {
      const id = String(r.tool_use_id ?? '');
      if (!pendingUse.delete(id))
        throw new BadRequest(`messages.${i}: tool_result block(s) provided for tool_use_id "${id}", which the previous assistant turn did not use. Each tool_result must answer a tool_use of the turn before it.`, `messages.${i}`, 'invalid_request_error');
      messages.push({ role: 'tool', tool_call_id: id, content: textOfBlocks((r.content ?? '') as string | Block[]) });
    }
    const userText = textOfBlocks(blocks);
    if (userText) messages.push({ role: 'user', content: userText });
  }
  return { messages, tools, stream: b.stream === true, breakpoints: breakpointsOf(b.model, tools, b.tools ?? [], systemText, b.system) };
}

/** The breakpoints of a request, in prefix order (tools, then system), as the chat accounting counts them. */
function breakpointsOf(model: string, tools: readonly WireTool[], raw: readonly { cache_control?: unknown }[], system: string, rawSystem: unknown): Breakpoint[] {
  const out: Breakpoint[] = [];
  const key = (parts: unknown) => createHash('sha256').update(JSON.stringify([model, parts])).digest('hex');
  raw.forEach((t, i) => {
    if (!t.cache_control) return;
    const prefix = tools.slice(0, i + 1);
    out.push({ key: key({ tools: prefix }), tokens: tok(JSON.stringify(prefix)) });
  });
  const systemMarked = Array.isArray(rawSystem) && rawSystem.some((x: { cache_control?: unknown }) => x?.cache_control);
  if (systemMarked) {
    out.push({ key: key({ tools, system }), tokens: (tools.length ? tok(JSON.stringify(tools)) : 0) + PER_MESSAGE + tok('system') + tok(system) });
  }
  return out;
}

/** The server's prompt cache: prefix hash → expiry time. */
export class PromptCache {
  private readonly entries = new Map<string, number>();
  constructor(private readonly now: () => number = Date.now) {}

  /** Tokens read from and written to the cache by a request with these breakpoints; records the writes. */
  use(breakpoints: readonly Breakpoint[]): { read: number; write: number } {
    const t = this.now();
    const live = (b: Breakpoint) => (this.entries.get(b.key) ?? 0) > t;
    const cacheable = breakpoints.filter((b) => b.tokens >= MIN_CACHE_TOKENS);
    if (cacheable.length === 0) return { read: 0, write: 0 };
    const hit = [...cacheable].reverse().find(live);
    const last = cacheable[cacheable.length - 1];
    const read = hit?.tokens ?? 0;
    for (const b of cacheable) this.entries.set(b.key, t + CACHE_TTL_MS);
    return { read, write: Math.max(0, last.tokens - read) };
  }
}

export interface MessagesReply {
  readonly id: string;
  readonly text: string;
  readonly calls: readonly (PlannedCall & { readonly id: string })[];
  readonly usage: { readonly input_tokens: number; readonly cache_creation_input_tokens: number; readonly cache_read_input_tokens: number; readonly output_tokens: number };
}

const stopReason = (r: MessagesReply) => (r.calls.length > 0 ? 'tool_use' : 'end_turn');

/** Usage for a counted prompt, split by what the cache served. */
export function messagesUsage(prompt: number, cache: { read: number; write: number }, text: string, calls: readonly PlannedCall[]): MessagesReply['usage'] {
  return {
    input_tokens: prompt - cache.read - cache.write,
    cache_creation_input_tokens: cache.write,
    cache_read_input_tokens: cache.read,
    output_tokens: countCompletionTokens(text, calls),
  };
}

function contentBlocks(r: MessagesReply): Record<string, unknown>[] {
  const out: Record<string, unknown>[] = r.text ? [{ type: 'text', text: r.text }] : [];
  for (const c of r.calls) {
    let input: unknown = {};
    try {
      input = JSON.parse(c.arguments);
    } catch {
      input = {};
    }
    out.push({ type: 'tool_use', id: c.id, name: c.name, input });
  }
  return out;
}

/** A non-streamed reply: one Message object. */
export function messageBody(r: MessagesReply): Record<string, unknown> {
  return { id: r.id, type: 'message', role: 'assistant', model: SIM_MODEL_ID, content: contentBlocks(r), stop_reason: stopReason(r), stop_sequence: null, usage: r.usage };
}

const TEXT_PIECE = 16;
const ARGS_PIECE = 24;

/** Every event of a streamed reply as `event:` / `data:` pairs, in Anthropic's order. */
export function messageEvents(r: MessagesReply): string[] {
  const ev = (data: Record<string, unknown>) => `event: ${String(data.type)}\ndata: ${JSON.stringify(data)}\n\n`;
  const { output_tokens: output, ...input } = r.usage;
  const out = [ev({
    type: 'message_start',
    message: { id: r.id, type: 'message', role: 'assistant', model: SIM_MODEL_ID, content: [], stop_reason: null, stop_sequence: null, usage: { ...input, output_tokens: 1 } },
  })];
  let index = 0;
  if (r.text) {
    out.push(ev({ type: 'content_block_start', index, content_block: { type: 'text', text: '' } }), ev({ type: 'ping' }));
    for (const piece of pieces(r.text, TEXT_PIECE)) out.push(ev({ type: 'content_block_delta', index, delta: { type: 'text_delta', text: piece } }));
    out.push(ev({ type: 'content_block_stop', index }));
    index++;
  }
  for (const c of r.calls) {
    out.push(ev({ type: 'content_block_start', index, content_block: { type: 'tool_use', id: c.id, name: c.name, input: {} } }));
    out.push(ev({ type: 'content_block_delta', index, delta: { type: 'input_json_delta', partial_json: '' } }));
    for (const piece of pieces(c.arguments, ARGS_PIECE)) out.push(ev({ type: 'content_block_delta', index, delta: { type: 'input_json_delta', partial_json: piece } }));
    out.push(ev({ type: 'content_block_stop', index }));
    index++;
  }
  out.push(ev({ type: 'message_delta', delta: { stop_reason: stopReason(r), stop_sequence: null }, usage: { output_tokens: output } }));
  out.push(ev({ type: 'message_stop' }));
  return out;
}

/** An error body in Anthropic's shape, from the OpenAI-style type the server's shared paths use. */
export function messagesErrorBody(message: string, type: string): Record<string, unknown> {
  const anthropicType = type === 'server_error' ? 'api_error' : type;
  return { type: 'error', error: { type: anthropicType, message } };
}
