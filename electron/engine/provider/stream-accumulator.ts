/**
 * Folds the raw chunks of a streamed chat completion into one reply. Tool-call argument fragments arrive
 * split anywhere (even mid-token) and are keyed by `index`; the id and name come once, in the first fragment.
 * With `stream_options.include_usage`, the last chunk has empty `choices` and carries `usage`.
 */
import type { Usage, ToolCallRequest } from '../../../shared/step-event.js';

/** The loose shape of a chunk: providers add fields (reasoning_content, prompt_cache_hit_tokens, …). */
export interface RawChunk {
  readonly choices?: ReadonlyArray<{
    readonly index?: number;
    readonly delta?: {
      readonly role?: string | null;
      readonly content?: string | null;
      readonly reasoning_content?: string | null;
      readonly reasoning?: string | null;
      readonly refusal?: string | null;
      readonly tool_calls?: ReadonlyArray<{
        readonly index: number;
        readonly id?: string | null;
        readonly type?: string | null;
        readonly function?: { readonly name?: string | null; readonly arguments?: string | null } | null;
      }> | null;
    } | null;
    readonly finish_reason?: string | null;
  }> | null;
  readonly usage?: RawUsage | null;
}

export interface RawUsage {
  readonly prompt_tokens?: number;
  readonly completion_tokens?: number;
  readonly total_tokens?: number;
  readonly prompt_tokens_details?: { readonly cached_tokens?: number | null } | null;
  readonly completion_tokens_details?: { readonly reasoning_tokens?: number | null } | null;
  /** DeepSeek's names for cache hits and misses. */
  readonly prompt_cache_hit_tokens?: number;
  readonly prompt_cache_miss_tokens?: number;
}

export interface AccumulatedReply {
  readonly text: string;
  readonly reasoningText: string;
  readonly refusal: string;
  readonly toolCalls: readonly ToolCallRequest[];
  readonly finishReason: string | null;
  readonly usage: Usage | null;
}

/** Map a provider's usage object to ours without inventing anything: absent fields stay absent. */
export function usageFromRaw(raw: RawUsage | null | undefined): Usage | null {
  if (!raw || typeof raw.prompt_tokens !== 'number' || typeof raw.completion_tokens !== 'number') return null;
  const cached = raw.prompt_tokens_details?.cached_tokens ?? raw.prompt_cache_hit_tokens;
  const reasoning = raw.completion_tokens_details?.reasoning_tokens;
  return {
    prompt: raw.prompt_tokens,
    completion: raw.completion_tokens,
    ...(typeof cached === 'number' ? { cached } : {}),
    ...(typeof reasoning === 'number' ? { reasoning } : {}),
    ...(typeof raw.total_tokens === 'number' ? { total: raw.total_tokens } : {}),
  };
}

export class StreamAccumulator {
  private text = '';
  private reasoning = '';
  private refusal = '';
  private finishReason: string | null = null;
  private usage: Usage | null = null;
  private readonly calls = new Map<number, { id: string; name: string; args: string }>();

  push(chunk: RawChunk): void {
    if (chunk.usage) this.usage = usageFromRaw(chunk.usage) ?? this.usage;
    for (const choice of chunk.choices ?? []) {
      // Only the first choice is ours (we never ask for n > 1).
      if ((choice.index ?? 0) !== 0) continue;
      const d = choice.delta;
      if (d?.content) this.text += d.content;
      if (d?.reasoning_content) this.reasoning += d.reasoning_content;
      else if (d?.reasoning) this.reasoning += d.reasoning;
      if (d?.refusal) this.refusal += d.refusal;
      for (const frag of d?.tool_calls ?? []) {
        let call = this.calls.get(frag.index);
        if (!call) this.calls.set(frag.index, (call = { id: '', name: '', args: '' }));
        if (frag.id) call.id = frag.id;
        const name = frag.function?.name;
        // Most providers send the name once; a few split it, and a few repeat it whole in every fragment.
        if (name) call.name = !call.name || call.name === name ? name : call.name + name;
        if (frag.function?.arguments) call.args += frag.function.arguments;
      }
      if (choice.finish_reason) this.finishReason = choice.finish_reason;
    }
  }

  result(): AccumulatedReply {
    const toolCalls = [...this.calls.entries()]
      .sort(([a], [b]) => a - b)
      .map(([index, c]) => ({ id: c.id || `call_${index}`, name: c.name, arguments: c.args }));
    return {
      text: this.text,
      reasoningText: this.reasoning,
      refusal: this.refusal,
      toolCalls,
      finishReason: this.finishReason,
      usage: this.usage,
    };
  }
}
