/**
 * The simulated model's Anthropic Messages API (`POST /v1/messages`): a request is translated to the OpenAI
 * shapes the policies read (system → a system message, tool_result blocks → `tool` messages, tool_use blocks →
 * tool_calls), and the policy's reply is sent back as Anthropic's streamed events (message_start, content
 * blocks with text_delta / input_json_delta fragments, ping, message_delta with stop_reason and output_tokens,
 * message_stop) or as one Message. Usage is counted like the chat-completions endpoint counts the same
 * conversation, split the way Anthropic reports it: input_tokens, cache_read_input_tokens and
 * cache_creation_input_tokens sum to that count.
 *
 * Prompt cache: a cache_control breakpoint (on a tool, the system prompt or a message) marks the prefix up to
 * it, in the order tools, system, messages. A request reads the longest prefix still cached (within
 * CACHE_TTL_MS, refreshed by the read) that ends at one of its breakpoints or at an earlier message boundary, as
 * Anthropic's lookback finds the previous step's entry; the rest up to its last breakpoint is written when that
 * prefix has at least MIN_CACHE_TOKENS.
 */
import { createHash } from 'node:crypto';
import { z } from 'zod';
import { countCompletionTokens, countPromptTokens, REPLY_PRIMING, tok } from '../engine/tokens/count-tokens.js';
import { BadRequest } from './wire.js';
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
  messages: z
    .array(z.looseObject({ role: z.enum(['user', 'assistant']), content }))
    .min(1, 'must hold at least one message'),
  tools: z
    .array(
      z.looseObject({
        name: z.string().min(1),
        description: z.string().optional(),
        input_schema: z.unknown(),
        cache_control: cacheControl,
      }),
    )
    .optional(),
  stream: z.boolean().nullish(),
  stop_sequences: z.array(z.string()).max(8, 'takes at most 8 stop sequences').nullish(),
});

/** A cacheable prefix: its hash and its size in tokens (counted only when needed). */
interface Prefix {
  readonly key: string;
  readonly tokens: () => number;
}

/** The cache_control breakpoints of a request, and every message boundary a read may match (Anthropic looks back). */
export interface CachePlan {
  readonly marked: readonly Prefix[];
  readonly lookups: readonly Prefix[];
}

export interface MessagesRequest {
  readonly model: string;
  readonly messages: readonly WireMessage[];
  readonly tools: readonly WireTool[];
  readonly stream: boolean;
  /** stop_sequences: text ReAct's "Observation:" marker. */
  readonly stop: readonly string[];
  readonly cache: CachePlan;
}

type Block = { type: string; text?: unknown; [k: string]: unknown };
const textOfBlocks = (c: string | readonly Block[]): string =>
  typeof c === 'string'
    ? c
    : c
        .filter((b) => b.type === 'text')
        .map((b) => String(b.text ?? ''))
        .join('');

/** Parse and translate a Messages API body; throws BadRequest with what to fix. */
export function parseMessagesRequest(text: string): MessagesRequest {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new BadRequest(
      `The request body is not valid JSON (${(error as Error).message}). Send a JSON object with "model", "max_tokens" and "messages".`,
      null,
      'invalid_request_error',
    );
  }
  const parsed = body.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const where = issue.path.join('.') || 'body';
    throw new BadRequest(
      `${where}: ${issue.message}. Check it against the Messages API format.`,
      where,
      'invalid_request_error',
    );
  }
  const b = parsed.data;
  const tools: WireTool[] = (b.tools ?? []).map((t) => ({
    type: 'function',
    function: { name: t.name, description: t.description, parameters: t.input_schema },
  }));
  const systemText = b.system === undefined ? '' : textOfBlocks(b.system as string | Block[]);
  const messages: WireMessage[] = systemText ? [{ role: 'system', content: systemText }] : [];
  const systemMarked = Array.isArray(b.system) && b.system.some((x) => x.cache_control);
  // Converted messages at the end of the system prompt and of each message, and whether a breakpoint is there.
  const boundaries: { end: number; marked: boolean }[] = [{ end: messages.length, marked: systemMarked }];
  const pendingUse = new Set<string>();
  const sentCalls = new Map<string, { function: { arguments: string } }>();
  for (const [i, m] of b.messages.entries()) {
    const blocks: Block[] =
      typeof m.content === 'string' ? [{ type: 'text', text: m.content }] : (m.content as Block[]);
    const marked = blocks.some((x) => x.cache_control);
    if (m.role === 'assistant') {
      const calls = blocks
        .filter((x) => x.type === 'tool_use')
        .map((x) => {
          pendingUse.add(String(x.id));
          const call = {
            id: String(x.id),
            type: 'function' as const,
            function: { name: String(x.name), arguments: JSON.stringify(x.input ?? {}) },
          };
          sentCalls.set(call.id, call);
          return call;
        });
      messages.push({
        role: 'assistant',
        content: textOfBlocks(blocks),
        ...(calls.length ? { tool_calls: calls } : {}),
      });
      boundaries.push({ end: messages.length, marked });
      continue;
    }
    for (const r of blocks.filter((x) => x.type === 'tool_result')) {
      const id = String(r.tool_use_id ?? '');
      if (!pendingUse.delete(id))
        throw new BadRequest(
          `messages.${i}: tool_result block(s) provided for tool_use_id "${id}", which the previous assistant turn did not use. Each tool_result must answer a tool_use of the turn before it.`,
          `messages.${i}`,
          'invalid_request_error',
        );
      const result = textOfBlocks((r.content ?? '') as string | Block[]);
      // tool_use.input is always an object, so arguments the client could not parse (the malformed-args fault)
      // come back as {}; the error the client sent restores the cut-off object the policies recognise.
      const call = sentCalls.get(id);
      if (call && r.is_error === true && /arguments are not valid JSON/.test(result)) call.function.arguments = '{';
      messages.push({ role: 'tool', tool_call_id: id, content: result });
    }
    const userText = textOfBlocks(blocks);
    if (userText) messages.push({ role: 'user', content: userText });
    boundaries.push({ end: messages.length, marked });
  }
  return {
    model: b.model,
    messages,
    tools,
    stream: b.stream === true,
    stop: b.stop_sequences ?? [],
    cache: cachePlan(
      b.model,
      tools,
      (b.tools ?? []).map((t) => !!t.cache_control),
      messages,
      boundaries,
    ),
  };
}

/**
 * The prefixes of a request in Anthropic's order (tools, system, messages), hashed as a chain and counted as the
 * chat accounting counts those parts of the prompt (without the reply priming, which no prefix holds).
 */
function cachePlan(
  model: string,
  tools: readonly WireTool[],
  toolMarks: readonly boolean[],
  messages: readonly WireMessage[],
  boundaries: readonly { end: number; marked: boolean }[],
): CachePlan {
  const once = (count: () => number) => {
    let n: number | undefined;
    return () => (n ??= count());
  };
  const hash = (prev: string, part: unknown) =>
    createHash('sha256').update(prev).update(JSON.stringify(part)).digest('hex');
  const marked: Prefix[] = [];
  toolMarks.forEach((m, i) => {
    if (!m) return;
    const prefix = tools.slice(0, i + 1);
    marked.push({ key: hash(model, { tools: prefix }), tokens: once(() => tok(JSON.stringify(prefix))) });
  });
  const lookups: Prefix[] = [];
  let key = hash(model, { tools });
  let done = 0;
  for (const { end, marked: isMarked } of boundaries) {
    for (; done < end; done++) key = hash(key, messages[done]);
    const upTo = end;
    const prefix: Prefix = {
      key,
      tokens: once(() => countPromptTokens(messages.slice(0, upTo), tools) - REPLY_PRIMING),
    };
    lookups.push(prefix);
    if (isMarked) marked.push(prefix);
  }
  return { marked, lookups: [...marked.filter((p) => !lookups.includes(p)), ...lookups] };
}

/** The server's prompt cache: prefix hash → expiry time. */
export class PromptCache {
  private readonly entries = new Map<string, number>();
  constructor(private readonly now: () => number = Date.now) {}

  /**
   * Tokens read from and written to the cache by one request: the longest live prefix up to its last breakpoint
   * is read (its lifetime refreshed); the rest up to that breakpoint is written, if it is long enough to cache.
   */
  use(plan: CachePlan): { read: number; write: number } {
    const t = this.now();
    const cacheable = plan.marked.filter((p) => p.tokens() >= MIN_CACHE_TOKENS);
    if (cacheable.length === 0) return { read: 0, write: 0 };
    const last = cacheable.reduce((a, p) => (p.tokens() > a.tokens() ? p : a));
    const hits = plan.lookups.filter((p) => (this.entries.get(p.key) ?? 0) > t && p.tokens() <= last.tokens());
    const hit = hits.reduce<Prefix | null>((a, p) => (a === null || p.tokens() > a.tokens() ? p : a), null);
    const read = hit?.tokens() ?? 0;
    if (hit) this.entries.set(hit.key, t + CACHE_TTL_MS);
    for (const p of cacheable) this.entries.set(p.key, t + CACHE_TTL_MS);
    return { read, write: last.tokens() - read };
  }
}

export interface MessagesReply {
  readonly id: string;
  readonly text: string;
  readonly calls: readonly (PlannedCall & { readonly id: string })[];
  readonly usage: {
    readonly input_tokens: number;
    readonly cache_creation_input_tokens: number;
    readonly cache_read_input_tokens: number;
    readonly output_tokens: number;
  };
  /** The stop sequence the text was cut at (text ReAct's "Observation:"), as the API reports it. */
  readonly stopSequence?: string | null;
}

const stopReason = (r: MessagesReply) =>
  r.calls.length > 0 ? 'tool_use' : r.stopSequence ? 'stop_sequence' : 'end_turn';

/** Usage for a counted prompt, split by what the cache served. */
export function messagesUsage(
  prompt: number,
  cache: { read: number; write: number },
  text: string,
  calls: readonly PlannedCall[],
): MessagesReply['usage'] {
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
  return {
    id: r.id,
    type: 'message',
    role: 'assistant',
    model: SIM_MODEL_ID,
    content: contentBlocks(r),
    stop_reason: stopReason(r),
    stop_sequence: r.stopSequence ?? null,
    usage: r.usage,
  };
}

const TEXT_PIECE = 16;
const ARGS_PIECE = 24;

/** Every event of a streamed reply as `event:` / `data:` pairs, in Anthropic's order. */
export function messageEvents(r: MessagesReply): string[] {
  const ev = (data: Record<string, unknown>) => `event: ${String(data.type)}\ndata: ${JSON.stringify(data)}\n\n`;
  const { output_tokens: output, ...input } = r.usage;
  const out = [
    ev({
      type: 'message_start',
      message: {
        id: r.id,
        type: 'message',
        role: 'assistant',
        model: SIM_MODEL_ID,
        content: [],
        stop_reason: null,
        stop_sequence: null,
        usage: { ...input, output_tokens: 1 },
      },
    }),
  ];
  let index = 0;
  if (r.text) {
    out.push(
      ev({ type: 'content_block_start', index, content_block: { type: 'text', text: '' } }),
      ev({ type: 'ping' }),
    );
    for (const piece of pieces(r.text, TEXT_PIECE))
      out.push(ev({ type: 'content_block_delta', index, delta: { type: 'text_delta', text: piece } }));
    out.push(ev({ type: 'content_block_stop', index }));
    index++;
  }
  for (const c of r.calls) {
    out.push(
      ev({
        type: 'content_block_start',
        index,
        content_block: { type: 'tool_use', id: c.id, name: c.name, input: {} },
      }),
    );
    out.push(ev({ type: 'content_block_delta', index, delta: { type: 'input_json_delta', partial_json: '' } }));
    for (const piece of pieces(c.arguments, ARGS_PIECE))
      out.push(ev({ type: 'content_block_delta', index, delta: { type: 'input_json_delta', partial_json: piece } }));
    out.push(ev({ type: 'content_block_stop', index }));
    index++;
  }
  out.push(
    ev({
      type: 'message_delta',
      delta: { stop_reason: stopReason(r), stop_sequence: r.stopSequence ?? null },
      usage: { output_tokens: output },
    }),
  );
  out.push(ev({ type: 'message_stop' }));
  return out;
}
