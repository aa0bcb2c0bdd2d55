/**
 * Usage truth. `usageFromRaw` maps whatever usage object a provider sent to ours without inventing anything;
 * `estimateUsage` counts a step with the tokenizer from the exact request sent and the reply received, for
 * providers that report nothing. Every step says which of the two it is (UsageSource).
 */
import type { Usage } from '../../../shared/step-event.js';
import type { CountableMessage } from '../tokens/count-tokens.js';
import { MAX_TOKEN_COUNT } from './reply-limits.js';

/** The loose shape of a provider's usage object (OpenAI, DeepSeek, OpenRouter, xAI, Groq, vLLM, llama.cpp). */
export interface RawUsage {
  readonly prompt_tokens?: unknown;
  readonly completion_tokens?: unknown;
  readonly total_tokens?: unknown;
  readonly prompt_tokens_details?: {
    readonly cached_tokens?: unknown;
    /** OpenRouter: prompt tokens written to the provider's cache. */
    readonly cache_write_tokens?: unknown;
  } | null;
  readonly completion_tokens_details?: { readonly reasoning_tokens?: unknown } | null;
  /** DeepSeek's names for cache hits and misses. */
  readonly prompt_cache_hit_tokens?: unknown;
  readonly prompt_cache_miss_tokens?: unknown;
  /** Anthropic's name for cache writes, passed through by some OpenAI-compatible gateways. */
  readonly cache_creation_input_tokens?: unknown;
  /** Moonshot / Kimi: cache hits at the top level of usage. */
  readonly cached_tokens?: unknown;
  /**
   * OpenRouter: the cost in credits (1 credit = 1 USD); with your own provider key (`is_byok`) only OpenRouter's
   * fee, the provider's charge being `cost_details.upstream_inference_cost`. Perplexity: an object of USD figures
   * whose `total_cost` is the request's whole charge (tokens, the per-request search fee, citations).
   */
  readonly cost?: unknown;
  /** OpenRouter: the request used the account's own provider key. */
  readonly is_byok?: unknown;
  readonly cost_details?: { readonly upstream_inference_cost?: unknown } | null;
  /** xAI: the cost in ticks of 1e-10 USD. */
  readonly cost_in_usd_ticks?: unknown;
}

/** A number as sent, or a numeric string (some gateways quote their figures); anything else is absent. */
const amount = (v: unknown): number | undefined => {
  const n = typeof v === 'string' && /^\s*\d+(\.\d+)?\s*$/.test(v) ? Number(v) : v;
  return typeof n === 'number' && Number.isFinite(n) && n >= 0 ? n : undefined;
};

/**
 * A token count as sent: a whole number (or its numeric string) up to MAX_TOKEN_COUNT. A fraction, or a figure no
 * request could reach (a hostile server's 1e300), is no count: absent, so the step is estimated, not priced from it.
 */
export const tokenCount = (v: unknown): number | undefined => {
  const n = amount(v);
  return n !== undefined && Number.isInteger(n) && n <= MAX_TOKEN_COUNT ? n : undefined;
};
const count = tokenCount;
const USD_PER_XAI_TICK = 1e-10;

/**
 * Map a provider's usage object to ours; absent fields stay absent. Null when the object lacks prompt or
 * completion counts, or reports zero for both (no real request has an empty prompt: such a server does not count).
 */
export function usageFromRaw(raw: RawUsage | null | undefined): Usage | null {
  if (!raw || typeof raw !== 'object') return null;
  const prompt = count(raw.prompt_tokens);
  const completion = count(raw.completion_tokens);
  if (prompt === undefined || completion === undefined || (prompt === 0 && completion === 0)) return null;
  const cached =
    count(raw.prompt_tokens_details?.cached_tokens) ?? count(raw.prompt_cache_hit_tokens) ?? count(raw.cached_tokens);
  const reasoning = count(raw.completion_tokens_details?.reasoning_tokens);
  const total = count(raw.total_tokens);
  const cacheWrite = count(raw.prompt_tokens_details?.cache_write_tokens) ?? count(raw.cache_creation_input_tokens);
  const cost = costOf(raw);
  return {
    prompt,
    completion,
    ...(cached !== undefined ? { cached } : {}),
    ...(reasoning !== undefined ? { reasoning } : {}),
    ...(total !== undefined ? { total } : {}),
    ...(cacheWrite !== undefined ? { cacheWrite } : {}),
    ...(cost !== undefined ? { cost } : {}),
  };
}

/** Rounded to 1e-12 USD, so that sums and conversions do not show float noise. */
const usd = (n: number) => Math.round(n * 1e12) / 1e12;

/**
 * The request's whole charge in USD, as the provider reported it: OpenRouter's `cost`, plus the upstream
 * provider's charge when the request ran on the account's own key (BYOK: `cost` is then only OpenRouter's fee);
 * Perplexity's `cost.total_cost`; xAI's ticks. Undefined when the provider sent no figure (or one that is not a
 * number), so the step is priced from its tokens instead.
 */
function costOf(raw: RawUsage): number | undefined {
  const c = raw.cost;
  if (c !== null && typeof c === 'object' && !Array.isArray(c))
    return amount((c as { total_cost?: unknown }).total_cost);
  const fee = amount(c);
  const upstream = raw.is_byok === true ? amount(raw.cost_details?.upstream_inference_cost) : undefined;
  if (upstream !== undefined) return usd((fee ?? 0) + upstream);
  if (fee !== undefined) return fee;
  const ticks = amount(raw.cost_in_usd_ticks);
  return ticks !== undefined ? usd(ticks * USD_PER_XAI_TICK) : undefined;
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * The usage object of one chunk: top-level `usage`, else Groq's `x_groq.usage`, else the first choice's own
 * `usage` (Moonshot / Kimi's native API puts it there, on the finish chunk).
 */
export function rawUsageOf(chunk: {
  readonly usage?: unknown;
  readonly x_groq?: unknown;
  readonly choices?: unknown;
}): RawUsage | null {
  if (isObject(chunk.usage)) return chunk.usage as RawUsage;
  const groq = chunk.x_groq;
  if (isObject(groq) && isObject(groq.usage)) return groq.usage as RawUsage;
  const choices = Array.isArray(chunk.choices) ? (chunk.choices as unknown[]) : [];
  const first = choices.find((c) => isObject(c) && (c.index ?? 0) === 0);
  if (isObject(first) && isObject(first.usage)) return first.usage as RawUsage;
  return null;
}

export interface EstimateInput {
  /** The messages exactly as sent. */
  readonly messages: readonly CountableMessage[];
  /** The tools array exactly as sent. */
  readonly tools: readonly unknown[];
  readonly text: string;
  readonly reasoningText: string;
  readonly toolCalls: readonly { readonly name: string; readonly arguments: string }[];
}

/**
 * The tokenizer's encoding takes a noticeable time to load (about 115 ms), so it is loaded only when a reply
 * arrives without usage: a provider that counts for itself never pays for it, and no run pays before its first request.
 */
const counter = () => import('../tokens/count-tokens.js');

/** Prompt and completion counted with the tokenizer (o200k_base); reasoning kept as its own figure when any. */
export async function estimateUsage(input: EstimateInput): Promise<Usage> {
  const { countCompletionTokens, countPromptTokens, tok } = await counter();
  const prompt = countPromptTokens(input.messages, input.tools);
  const completion = countCompletionTokens(input.text, input.toolCalls, input.reasoningText);
  const reasoning = input.reasoningText ? tok(input.reasoningText) : 0;
  return { prompt, completion, ...(reasoning ? { reasoning } : {}) };
}
