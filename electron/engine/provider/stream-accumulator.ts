/**
 * Folds the chunks of a streamed chat completion (or one non-streamed completion) into one reply: text,
 * reasoning under the field name it came in, tool calls (tool-call-assembler.ts), the finish reason, the
 * provider's usage (the last usage object wins: vLLM repeats it on every chunk), and every field Parallax does
 * not interpret, kept for the round trip.
 */
import type { Usage } from '../../../shared/step-event.js';
import { mergeReasoningDetails, mergeValue } from './merge.js';
import { ToolCallAssembler, type AssembledCall, type ToolCallFragment } from './tool-call-assembler.js';
import { rawUsageOf, usageFromRaw, type RawUsage } from './usage.js';
import type { ErrorCodes } from './errors.js';
import { ContentParts, splitThinkTags } from './reply-content.js';

/** The loose shape of a chunk: providers add fields (reasoning_content, x_groq, provider, timings, …). */
export interface RawChunk {
  readonly choices?: ReadonlyArray<{
    readonly index?: number;
    readonly delta?: Record<string, unknown> | null;
    /** Non-streamed completions carry `message` instead of `delta`. */
    readonly message?: Record<string, unknown> | null;
    readonly finish_reason?: string | null;
    readonly native_finish_reason?: string | null;
    /** Azure OpenAI: the content filter's verdict per category. */
    readonly content_filter_results?: unknown;
  }> | null;
  readonly usage?: RawUsage | null;
  readonly x_groq?: unknown;
  readonly error?: unknown;
  readonly object?: unknown;
  readonly message?: unknown;
  readonly code?: unknown;
}

export interface AccumulatedReply {
  /** The reply's text as shown: without `<think>` blocks, the text parts of a content list joined. */
  readonly text: string;
  /** The reasoning text shown to the user: reasoning_content, else reasoning, else thinking parts or `<think>` blocks. */
  readonly reasoningText: string;
  /** The `<think>` blocks as written in the text (tags included), which `text` leaves out and the history keeps. */
  readonly thinkTags?: string;
  readonly refusal: string;
  /** The provider's own words on why it stopped the reply (Azure's filtered categories, Anthropic stop_details). */
  readonly stopDetails?: string;
  /** Calls, those cut short by the token limit (finish reason "length" inside their arguments) marked `cut`. */
  readonly toolCalls: readonly AssembledCall[];
  /** The reply used the legacy `function_call` field: its result goes back as a `function` message. */
  readonly legacyFunctionCall: boolean;
  readonly finishReason: string | null;
  /** The provider's usage, or null when it reported none. */
  readonly usage: Usage | null;
  /** The assistant message to append to the history, with every field the provider sent, as sent. */
  readonly message: Record<string, unknown>;
  /** Data events folded. */
  readonly chunks: number;
}

/** Delta fields with a meaning here; every other field is kept verbatim. */
const KNOWN = new Set([
  'role',
  'content',
  'refusal',
  'tool_calls',
  'function_call',
  'reasoning_content',
  'reasoning',
  'reasoning_details',
]);

/**
 * Delta fields that describe the stream, not the message, and never go back: Together's `token_id` (the id of the
 * chunk's token; its final chunk carries one too).
 */
const STREAM_ONLY = new Set(['token_id']);

/** Delta fields that carry the model's output: the first of them is the reply's first token. */
const OUTPUT_KEYS = new Set(['content', 'refusal', 'tool_calls', 'function_call', 'reasoning_content', 'reasoning']);

/** An error a provider sent inside a 200 reply: its words, the HTTP status it stands for, its own code and type. */
export interface StreamError {
  readonly message: string;
  readonly code: number | null;
  readonly codes?: ErrorCodes;
}

const statusOf = (v: unknown) =>
  typeof v === 'number' && v >= 100 && v < 600
    ? v
    : typeof v === 'string' && /^\d{3}$/.test(v.trim())
      ? Number(v)
      : null;
const nameOf = (v: unknown) =>
  typeof v === 'string' && v.trim() !== '' && !/^\d{3}$/.test(v.trim()) && v !== 'None' ? v.trim().toLowerCase() : null;

/** An `{error: …}` object as a StreamError (a string error is its own message). */
export function errorObjectOf(error: unknown): StreamError {
  if (typeof error === 'string') return { message: error, code: null };
  const e = (error ?? {}) as { message?: unknown; code?: unknown; status?: unknown; type?: unknown };
  const message = typeof e.message === 'string' ? e.message : JSON.stringify(error);
  return {
    message,
    code: statusOf(e.code) ?? statusOf(e.status),
    codes: { code: nameOf(e.code), type: nameOf(e.type) },
  };
}

/** An error a provider sent inside a 200 reply, if this chunk is one. */
export function streamErrorOf(chunk: RawChunk): StreamError | null {
  const codeOf = statusOf;
  const finish = chunk.choices?.find((c) => c.finish_reason === 'error');
  if (chunk.error !== undefined && chunk.error !== null) return errorObjectOf(chunk.error);
  if (chunk.object === 'error')
    return {
      message: typeof chunk.message === 'string' ? chunk.message : JSON.stringify(chunk),
      code: codeOf(chunk.code),
    };
  if (finish)
    return {
      message: `the reply ended with finish_reason "error"${finish.native_finish_reason ? ` (${finish.native_finish_reason})` : ''}`,
      code: null,
    };
  return null;
}

export class StreamAccumulator {
  private readonly content = new ContentParts();
  private reasoningContent = '';
  private reasoning = '';
  private refusal = '';
  private readonly reasoningDetails: Record<string, unknown>[] = [];
  private extra: Record<string, unknown> = {};
  private finishReason: string | null = null;
  private readonly filtered = new Set<string>();
  private usage: Usage | null = null;
  private readonly calls: ToolCallAssembler;
  private chunks = 0;
  /** performance.now() when the first chunk carrying output (text, reasoning, refusal, a tool call) was folded. */
  firstOutputAt: number | null = null;

  constructor(toolNames?: ReadonlySet<string>) {
    this.calls = new ToolCallAssembler(toolNames);
  }

  /** One streamed chunk. */
  push(chunk: RawChunk): void {
    this.chunks++;
    const raw = rawUsageOf(chunk);
    if (raw) this.usage = usageFromRaw(raw) ?? this.usage;
    const choices = chunk.choices;
    if (!choices) return;
    for (let i = 0; i < choices.length; i++) {
      const choice = choices[i];
      // Only the first choice is ours (we never ask for n > 1).
      if ((choice.index ?? 0) !== 0) continue;
      if (choice.delta) this.pushDelta(choice.delta);
      if (choice.finish_reason) this.finishReason = choice.finish_reason;
      this.noteFilter(choice.content_filter_results);
    }
  }

  /** Azure's content_filter_results: the categories it filtered, with their severity, as the provider named them. */
  private noteFilter(results: unknown): void {
    if (!results || typeof results !== 'object') return;
    for (const [category, r] of Object.entries(results as Record<string, unknown>)) {
      const v = r as { filtered?: unknown; severity?: unknown } | null;
      if (v && v.filtered === true)
        this.filtered.add(typeof v.severity === 'string' ? `${category} (${v.severity})` : category);
    }
  }

  /** A non-streamed completion (a server that ignored `stream`): its first choice's whole message. */
  pushCompletion(completion: RawChunk): void {
    this.chunks++;
    const raw = rawUsageOf(completion);
    if (raw) this.usage = usageFromRaw(raw) ?? this.usage;
    const choice = completion.choices?.find((c) => (c.index ?? 0) === 0);
    if (!choice) return;
    const message = choice.message ?? choice.delta ?? {};
    const rawCalls = message.tool_calls;
    const calls = (
      Array.isArray(rawCalls) ? rawCalls : rawCalls && typeof rawCalls === 'object' ? [rawCalls] : []
    ) as ToolCallFragment[];
    this.pushDelta({
      ...message,
      tool_calls: calls.map((c, i) => ({ ...c, index: typeof c.index === 'number' ? c.index : i })),
    });
    if (choice.finish_reason) this.finishReason = choice.finish_reason;
    this.noteFilter(choice.content_filter_results);
  }

  private pushDelta(d: Record<string, unknown>): void {
    for (const key in d) {
      const v = d[key];
      if (v === null || v === undefined) continue;
      if (this.firstOutputAt === null && OUTPUT_KEYS.has(key) && v !== '') this.firstOutputAt = performance.now();
      switch (key) {
        case 'content':
          if (typeof v === 'string') this.content.pushText(v);
          else if (Array.isArray(v)) this.content.pushParts(v);
          else this.extra.content = mergeValue(this.extra.content, v, true);
          break;
        case 'reasoning_content':
          if (typeof v === 'string') this.reasoningContent += v;
          break;
        case 'reasoning':
          if (typeof v === 'string') this.reasoning += v;
          break;
        case 'refusal':
          if (typeof v === 'string') this.refusal += v;
          break;
        case 'reasoning_details':
          mergeReasoningDetails(this.reasoningDetails, v);
          break;
        case 'tool_calls':
          // Hugging Face TGI sends one call as an object instead of a list of one.
          for (const f of Array.isArray(v) ? v : [v])
            if (f && typeof f === 'object') this.calls.push(f as ToolCallFragment);
          break;
        case 'function_call':
          if (typeof v === 'object') this.calls.pushLegacy(v as Record<string, unknown>);
          break;
        case 'role':
          break;
        default:
          if (!KNOWN.has(key) && !STREAM_ONLY.has(key)) this.extra[key] = mergeValue(this.extra[key], v, true);
      }
    }
  }

  result(): AccumulatedReply {
    const open = this.finishReason === 'length' ? this.calls.openCalls() : new Set<number>();
    const toolCalls = this.calls.result().map((c, i) => (open.has(i) ? { ...c, cut: true as const } : c));
    const legacy = this.calls.isLegacy;
    const split = this.content.used
      ? { shown: this.content.text, reasoning: '', tagged: '' }
      : splitThinkTags(this.content.text);
    return {
      text: split.shown,
      reasoningText: this.reasoningContent || this.reasoning || this.content.thinking || split.reasoning,
      ...(split.tagged ? { thinkTags: split.tagged } : {}),
      refusal: this.refusal,
      ...(this.filtered.size ? { stopDetails: `content filter: ${[...this.filtered].join(', ')}` } : {}),
      toolCalls,
      legacyFunctionCall: legacy,
      finishReason: this.finishReason,
      usage: this.usage,
      message: this.message(toolCalls, legacy),
      chunks: this.chunks,
    };
  }

  /** The assistant message as it goes back: what the provider sent, under the names it used. */
  private message(calls: readonly AssembledCall[], legacy: boolean): Record<string, unknown> {
    // The content exactly as sent: a list stays a list (thinking parts included), a text keeps its <think> blocks.
    const parts = this.content.used ? this.content.list() : null;
    const msg: Record<string, unknown> = {
      role: 'assistant',
      content: parts ? (parts.length ? parts : null) : this.content.text || null,
    };
    for (const [k, v] of Object.entries(this.extra)) {
      if (k === 'content') continue;
      if (v === '' || (Array.isArray(v) && v.length === 0)) continue;
      msg[k] = v;
    }
    if (this.refusal) msg.refusal = this.refusal;
    if (legacy) {
      const c = calls[0];
      msg.function_call = { name: c.name, arguments: c.arguments, ...c.functionExtra };
    } else if (calls.length) {
      msg.tool_calls = calls.map((c) => ({
        id: c.id,
        type: c.type,
        function: { name: c.name, arguments: c.arguments, ...c.functionExtra },
        ...c.extra,
      }));
    }
    // Reasoning goes back under the field it came in (DeepSeek reasoning_content, OpenRouter reasoning and
    // reasoning_details): models that think across tool calls need it within the turn.
    if (this.reasoningContent) msg.reasoning_content = this.reasoningContent;
    if (this.reasoning) msg.reasoning = this.reasoning;
    if (this.reasoningDetails.length) msg.reasoning_details = this.reasoningDetails;
    return msg;
  }
}
