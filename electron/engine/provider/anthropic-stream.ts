/**
 * Folds the events of a streamed Messages API reply (message_start, content_block_start / _delta / _stop,
 * message_delta, message_stop; ping ignored) into one reply: text, thinking (kept with its signature for the
 * round trip), tool_use calls from their input_json_delta fragments, the stop reason and the usage exactly as
 * sent. Usage: message_start's counts, completed by every message_delta's (cumulative, so the last one wins
 * field by field). prompt = input_tokens + cache_read_input_tokens + cache_creation_input_tokens; cached = the
 * cache reads; cacheWrite = the cache writes (cacheWrite1h those of them with a 1-hour lifetime); completion =
 * output_tokens; reasoning = thinking_tokens when sent; webSearches = server_tool_use.web_search_requests.
 * Every block's input is rebuilt from its streamed JSON (tool_use, server_tool_use, MCP tool use alike).
 */
import type { Usage } from '../../../shared/step-event.js';
import { MAX_BLOCKS_PER_REPLY, MAX_CALLS_PER_REPLY, ReplyLimitError, tooManyCalls } from './reply-limits.js';
import { tokenCount as count } from './usage.js';
import type { AccumulatedReply } from './stream-accumulator.js';
import { ANTHROPIC_CONTENT, blocksToResend, inputOf, type Block } from './anthropic-messages.js';

function parses(text: string): boolean {
  try {
    JSON.parse(text || '{}');
    return true;
  } catch {
    return false;
  }
}

/** The usage fields of message_start.message.usage and message_delta.usage. */
export interface RawAnthropicUsage {
  readonly input_tokens?: unknown;
  readonly output_tokens?: unknown;
  readonly cache_creation_input_tokens?: unknown;
  readonly cache_read_input_tokens?: unknown;
  readonly output_tokens_details?: { readonly thinking_tokens?: unknown } | null;
  /** Cache writes by lifetime (the 1-hour ones cost more). */
  readonly cache_creation?: {
    readonly ephemeral_5m_input_tokens?: unknown;
    readonly ephemeral_1h_input_tokens?: unknown;
  } | null;
  /** Tools the server ran itself during the request. */
  readonly server_tool_use?: { readonly web_search_requests?: unknown } | null;
}

/** stop_reason → the finish reason every surface reads (the raw value is recorded beside it). */
const FINISH: Record<string, string> = {
  end_turn: 'stop',
  stop_sequence: 'stop',
  tool_use: 'tool_calls',
  max_tokens: 'length',
  refusal: 'content_filter',
  model_context_window_exceeded: 'length',
};

/** Our usage from the folded counts; null when the server sent no input or output count. */
export function usageFromAnthropic(raw: RawAnthropicUsage): Usage | null {
  const input = count(raw.input_tokens);
  const output = count(raw.output_tokens);
  if (input === undefined || output === undefined) return null;
  const read = count(raw.cache_read_input_tokens);
  const write = count(raw.cache_creation_input_tokens);
  const thinking = count(raw.output_tokens_details?.thinking_tokens);
  const oneHour = count(raw.cache_creation?.ephemeral_1h_input_tokens);
  const searches = count(raw.server_tool_use?.web_search_requests);
  return {
    prompt: input + (read ?? 0) + (write ?? 0),
    completion: output,
    ...(read !== undefined ? { cached: read } : {}),
    ...(write !== undefined ? { cacheWrite: write } : {}),
    ...(write !== undefined && oneHour ? { cacheWrite1h: Math.min(oneHour, write) } : {}),
    ...(thinking !== undefined ? { reasoning: thinking } : {}),
    ...(searches ? { webSearches: searches } : {}),
  };
}

/**
 * A content block's index as the array slot it fills: a whole number below MAX_BLOCKS_PER_REPLY (the protocol
 * counts up from 0), else the reply is refused — an index of 4e9 would make an array minutes long to walk.
 */
function blockIndex(v: unknown): number {
  const n = Number(v);
  if (!Number.isInteger(n) || n < 0 || n >= MAX_BLOCKS_PER_REPLY) {
    throw new ReplyLimitError(
      `sent a content block at index ${JSON.stringify(v)?.slice(0, 40)} (blocks are numbered from 0, at most ${MAX_BLOCKS_PER_REPLY} in one reply); the reply was refused.`,
    );
  }
  return n;
}

interface OpenBlock {
  block: Record<string, unknown> & { type: string };
  /** input_json_delta fragments of a tool_use block, joined. */
  json: string;
  sawJson: boolean;
}

export interface MessagesReply extends AccumulatedReply {
  /** stop_reason as sent. */
  readonly stopReason: string | null;
  /** message_start arrived, and message_stop. */
  readonly started: boolean;
  readonly stopped: boolean;
}

export class MessagesAccumulator {
  private readonly blocks: OpenBlock[] = [];
  private usage: Record<string, unknown> = {};
  private stopReason: string | null = null;
  private stopDetails: string | null = null;
  private started = false;
  private hasStopped = false;
  private events = 0;
  /** performance.now() when the first content block (text, thinking, a tool call) began: the reply's first token. */
  firstOutputAt: number | null = null;

  /** message_stop has arrived: the reply is complete. */
  get stopped(): boolean {
    return this.hasStopped;
  }

  /** One parsed event (its `type` field decides; the SSE event name is the same by the protocol). */
  push(ev: Record<string, unknown>): void {
    this.events++;
    switch (ev.type) {
      case 'message_start': {
        this.started = true;
        const msg = (ev.message ?? {}) as { usage?: Record<string, unknown>; content?: unknown; stop_reason?: unknown };
        if (msg.usage && typeof msg.usage === 'object') this.mergeUsage(msg.usage);
        if (typeof msg.stop_reason === 'string') this.stopReason = msg.stop_reason;
        this.noteStopDetails((msg as { stop_details?: unknown }).stop_details);
        break;
      }
      case 'content_block_start': {
        const block = { ...((ev.content_block ?? { type: 'unknown' }) as OpenBlock['block']) };
        this.blocks[blockIndex(ev.index ?? this.blocks.length)] = { block, json: '', sawJson: false };
        // A call's block names its tool as it opens; an empty text or thinking block is not output yet.
        if (
          (block.type !== 'text' && block.type !== 'thinking' && block.type !== 'redacted_thinking') ||
          (typeof block.text === 'string' && block.text !== '')
        )
          this.firstOutputAt ??= performance.now();
        if (
          block.type === 'tool_use' &&
          this.blocks.filter((b) => b?.block.type === 'tool_use').length > MAX_CALLS_PER_REPLY
        )
          throw tooManyCalls();
        break;
      }
      case 'content_block_delta': {
        const open = this.blocks[Number(ev.index)];
        const d = (ev.delta ?? {}) as Record<string, unknown>;
        if (!open) break;
        this.firstOutputAt ??= performance.now();
        const b = open.block;
        if (d.type === 'text_delta') b.text = `${typeof b.text === 'string' ? b.text : ''}${String(d.text ?? '')}`;
        else if (d.type === 'input_json_delta') {
          open.json += String(d.partial_json ?? '');
          open.sawJson = true;
        } else if (d.type === 'thinking_delta')
          b.thinking = `${typeof b.thinking === 'string' ? b.thinking : ''}${String(d.thinking ?? '')}`;
        else if (d.type === 'signature_delta')
          b.signature = `${typeof b.signature === 'string' ? b.signature : ''}${String(d.signature ?? '')}`;
        break;
      }
      case 'message_delta': {
        const d = (ev.delta ?? {}) as { stop_reason?: unknown; stop_details?: unknown };
        if (typeof d.stop_reason === 'string') this.stopReason = d.stop_reason;
        this.noteStopDetails(d.stop_details);
        if (ev.usage && typeof ev.usage === 'object') this.mergeUsage(ev.usage as Record<string, unknown>);
        break;
      }
      case 'message_stop':
        this.hasStopped = true;
        break;
      default:
        // ping, content_block_stop and event types added later carry nothing to fold.
        break;
    }
  }

  /** A non-streamed Message object (a server that ignored `stream`). */
  pushMessage(msg: Record<string, unknown>): void {
    this.push({ type: 'message_start', message: { ...msg, content: [] } });
    const content = Array.isArray(msg.content) ? (msg.content as Block[]) : [];
    if (content.length > MAX_BLOCKS_PER_REPLY)
      throw new ReplyLimitError(
        `sent a message of ${content.length} content blocks (at most ${MAX_BLOCKS_PER_REPLY}); it was refused.`,
      );
    if (content.filter((b) => b?.type === 'tool_use').length > MAX_CALLS_PER_REPLY) throw tooManyCalls();
    if (content.length) this.firstOutputAt ??= performance.now();
    content.forEach((block, index) => {
      this.blocks[index] = { block: { ...block }, json: '', sawJson: false };
    });
    this.hasStopped = true;
  }

  /** stop_details ({type, category, explanation}) as one line of the provider's own words. */
  private noteStopDetails(v: unknown): void {
    if (!v || typeof v !== 'object') return;
    const d = v as { category?: unknown; explanation?: unknown };
    const words = [
      typeof d.category === 'string' ? `category ${d.category}` : '',
      typeof d.explanation === 'string' ? d.explanation : '',
    ].filter(Boolean);
    if (words.length) this.stopDetails = words.join(': ');
  }

  private mergeUsage(u: Record<string, unknown>): void {
    for (const [k, v] of Object.entries(u)) if (v !== null && v !== undefined) this.usage[k] = v;
  }

  result(): MessagesReply {
    const blocks = this.blocks.filter((b): b is OpenBlock => b !== undefined);
    const text = blocks
      .filter((b) => b.block.type === 'text')
      .map((b) => String(b.block.text ?? ''))
      .join('');
    const reasoningText = blocks
      .filter((b) => b.block.type === 'thinking')
      .map((b) => String(b.block.thinking ?? ''))
      .join('');
    const cutShort = this.stopReason === 'max_tokens';
    const toolCalls = blocks
      .filter((b) => b.block.type === 'tool_use')
      .map((b) => {
        const id = String(b.block.id ?? '');
        // The fragments exactly as streamed; a block that had no deltas carries its input whole.
        const a = b.sawJson ? b.json : JSON.stringify(b.block.input ?? {});
        const cut = cutShort && b.sawJson && !parses(a);
        return {
          id,
          name: String(b.block.name ?? ''),
          arguments: a,
          type: 'function',
          extra: {},
          functionExtra: {},
          ...(cut ? { cut: true as const } : {}),
        };
      });
    // Every block whose input streamed as input_json_delta goes back with that input (tool_use, server_tool_use, …).
    const content = blocksToResend(
      blocks.map((b) => (b.sawJson ? { ...b.block, input: inputOf(b.json) } : b.block) as Block),
    );
    const message: Record<string, unknown> = {
      role: 'assistant',
      content: text || null,
      ...(toolCalls.length
        ? {
            tool_calls: toolCalls.map((c) => ({
              id: c.id,
              type: 'function',
              function: { name: c.name, arguments: c.arguments },
            })),
          }
        : {}),
      [ANTHROPIC_CONTENT]: content,
    };
    return {
      text,
      reasoningText,
      refusal: '',
      toolCalls,
      legacyFunctionCall: false,
      ...(this.stopDetails ? { stopDetails: this.stopDetails } : {}),
      finishReason: this.stopReason === null ? null : (FINISH[this.stopReason] ?? this.stopReason),
      stopReason: this.stopReason,
      usage: usageFromAnthropic(this.usage),
      message,
      chunks: this.events,
      started: this.started,
      stopped: this.hasStopped,
    };
  }
}

/** Anthropic error types → the HTTP status they come with, for an `error` event inside a 200 stream. */
export const ERROR_STATUS: Record<string, number> = {
  invalid_request_error: 400,
  authentication_error: 401,
  billing_error: 402,
  permission_error: 403,
  not_found_error: 404,
  request_too_large: 413,
  rate_limit_error: 429,
  api_error: 500,
  timeout_error: 504,
  overloaded_error: 529,
};
