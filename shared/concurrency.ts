/**
 * Concurrency: how many rounds (one run of every mode, released together) may be in flight at once. Rounds side
 * by side share the machine's cores, which changes latency figures (never token counts), so a comparison
 * records its concurrency and the reports say it next to latency. The one rule of the CLI, the composer and
 * the host.
 */
import { findPreset } from './providers.js';

/** Most rounds in flight at once. */
export const MAX_CONCURRENCY = 16;

/**
 * Most rounds at once per provider preset: a real provider's rate limits (requests and tokens per minute) are
 * per key, and a 429 lowers the limit further at run time. Presets not listed: 4; local servers: 2 (they
 * serve one model on one machine). The simulated model: MAX_CONCURRENCY.
 */
const PROVIDER_CAPS: Readonly<Record<string, number>> = {
  openai: 8,
  anthropic: 4,
  deepseek: 4,
  openrouter: 4,
  gemini: 4,
  groq: 2,
  xai: 4,
  together: 4,
  mistral: 2,
};

export function concurrencyCap(providerName: string): number {
  if (providerName === 'simulated') return MAX_CONCURRENCY;
  if (findPreset(providerName)?.local) return 2;
  return PROVIDER_CAPS[providerName] ?? 4;
}

/**
 * The default when the user names none: a real provider 1 (its limits are unknown until it answers 429); the
 * simulated model one round per two cores, as a round's workers load and run on the cores while the model
 * answers at once (`npm run bench -- concurrency`).
 */
export function defaultConcurrency(simulated: boolean, cores: number): number {
  return simulated ? Math.max(1, Math.min(MAX_CONCURRENCY, Math.floor(cores / 2))) : 1;
}

export type ConcurrencyCheck =
  | { readonly concurrency: number; readonly error: null }
  | { readonly concurrency: null; readonly error: string };

/** Rounds at once as typed or sent, against the provider's cap; the reason in words when it is not valid. */
export function checkConcurrency(text: string, providerName: string): ConcurrencyCheck {
  const t = text.trim();
  const cap = concurrencyCap(providerName);
  if (!/^\d+$/.test(t)) return { concurrency: null, error: `Must be a whole number from 1 to ${cap}.` };
  const n = Number(t);
  if (n < 1) return { concurrency: null, error: 'Must be at least 1.' };
  if (n > cap) {
    const who =
      providerName === 'simulated' ? 'the simulated model' : (findPreset(providerName)?.label ?? providerName);
    return { concurrency: null, error: `At most ${cap} rounds at once for ${who}.` };
  }
  return { concurrency: n, error: null };
}

/** The line the reports print beside latency; null when rounds ran one at a time. */
export function concurrencyNote(
  concurrency: number | undefined,
  throttled: readonly string[] | undefined,
): string | null {
  if (!concurrency || concurrency <= 1) return null;
  const base = `Rounds ran up to ${concurrency} at a time, sharing the cores: latency figures include that contention (token counts do not).`;
  return throttled?.length ? `${base} Throttled: ${throttled.join(' ')}` : base;
}

/**
 * Of the providers a comparison's columns use, the one that allows the fewest rounds at once: any real provider
 * before the simulated model (its default is 1), then the lowest cap. Its limit and its scheduler pace the comparison.
 */
export function strictestProvider<P extends { readonly name: string; readonly simulated: boolean }>(
  providers: readonly P[],
): P {
  const rank = (p: P): number => (p.simulated ? MAX_CONCURRENCY + 1 : concurrencyCap(p.name));
  return providers.reduce((a, b) => (rank(b) < rank(a) ? b : a));
}
