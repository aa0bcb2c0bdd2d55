/**
 * Cost and usage-source math, and the words every surface uses for them. A step's cost is the provider's
 * own figure when it sent one (OpenRouter usage.cost), else its usage at the price the run recorded when it
 * started; a step without usage, or a run without a price, has no cost — never $0.
 */
import { NO_PRICE_HINT, NO_PRICE_TEXT, priceKind, type PriceKind } from './pricing.js';
import type { ProviderInfo } from './run-spec.js';
import type { ModelPrice, ModelResponseEvent, Usage } from './step-event.js';

/** A step's usage: as the provider reported it, estimated by Parallax, or missing (neither). */
export type StepUsageSource = 'reported' | 'estimated' | 'missing';
/** A run's usage over its steps: 'missing' as soon as one step has none (its totals are then incomplete). */
export type RunUsageSource = 'reported' | 'estimated' | 'mixed' | 'missing';

export function usageSourceOf(e: Pick<ModelResponseEvent, 'usage' | 'usageSource'>): StepUsageSource {
  if (e.usage === null) return 'missing';
  return e.usageSource === 'estimated' ? 'estimated' : 'reported';
}

/** Combines step (or run) sources into one. */
export function combineSources(sources: readonly (StepUsageSource | RunUsageSource)[]): RunUsageSource {
  if (sources.includes('missing')) return 'missing';
  if (sources.length === 0 || sources.every((s) => s === 'reported')) return 'reported';
  if (sources.every((s) => s === 'estimated')) return 'estimated';
  return 'mixed';
}

/** True when a figure built from these sources is (partly) estimated. */
export const isEstimated = (s: RunUsageSource | StepUsageSource): boolean => s === 'estimated' || s === 'mixed';

const count = (n: number | undefined): number => (typeof n === 'number' && Number.isFinite(n) && n > 0 ? n : 0);

/**
 * USD for one request's usage at a price (rates per 1M tokens). Cache reads and cache writes are parts of the
 * prompt (OpenAI's and OpenRouter's convention): the rest of the prompt is charged at the input rate, reads
 * at the cached rate, writes at the cache-write rate (the input rate when the model has none). Completion
 * tokens, reasoning included, are output; when a provider counts reasoning outside the completion (its
 * total exceeds prompt + completion by up to the reasoning tokens, as xAI does), those are output too. Cache
 * writes with a 1-hour lifetime go at their own rate (cacheWrite1h), server-side web searches per 1,000.
 */
export function priceUsage(u: Usage, p: ModelPrice): number {
  const prompt = count(u.prompt);
  const completion = count(u.completion);
  const cached = Math.min(count(u.cached), prompt);
  const written = Math.min(count(u.cacheWrite), prompt - cached);
  // Anthropic: writes with a 1-hour lifetime cost more than the 5-minute ones (the cache-write rate).
  const written1h = Math.min(count(u.cacheWrite1h), written);
  const uncached = prompt - cached - written;
  const outside = Math.min(count(u.reasoning), Math.max(0, count(u.total) - prompt - completion));
  const output = completion + outside;
  const writeRate = p.cacheWrite ?? p.input;
  const tokens =
    uncached * p.input +
    cached * (p.cachedInput ?? p.input) +
    (written - written1h) * writeRate +
    written1h * (p.cacheWrite1h ?? writeRate) +
    output * p.output;
  // Searches the provider ran itself are priced per 1,000.
  return tokens / 1_000_000 + (count(u.webSearches) * (p.webSearch ?? 0)) / 1000;
}

const rateOk = (v: unknown): boolean => typeof v === 'number' && Number.isFinite(v) && v >= 0;

/**
 * A recorded price the math can use: every rate a finite number ≥ 0. Stored events are read back from disk or
 * a report file, so a damaged price counts as none rather than turning every cost into NaN.
 */
export function usablePrice(p: ModelPrice | null | undefined): ModelPrice | null | undefined {
  if (p === undefined || p === null) return p;
  const ok =
    typeof p === 'object' &&
    rateOk(p.input) &&
    rateOk(p.output) &&
    (p.cachedInput === null || rateOk(p.cachedInput)) &&
    (p.cacheWrite === null || rateOk(p.cacheWrite)) &&
    (p.cacheWrite1h === undefined || p.cacheWrite1h === null || rateOk(p.cacheWrite1h)) &&
    (p.webSearch === undefined || p.webSearch === null || rateOk(p.webSearch));
  return ok ? p : null;
}

export interface StepCost {
  /** USD, or null when it cannot be known (no usage; no price and no figure from the provider). */
  readonly usd: number | null;
  /** 'provider': the provider reported it; 'price': usage at the recorded price; null: unknown. */
  readonly from: 'provider' | 'price' | null;
  /** Computed from estimated usage. */
  readonly estimated: boolean;
}

export function stepCost(
  e: Pick<ModelResponseEvent, 'usage' | 'usageSource'>,
  price: ModelPrice | null | undefined,
): StepCost {
  const u = e.usage;
  if (!u) return { usd: null, from: null, estimated: false };
  if (typeof u.cost === 'number' && Number.isFinite(u.cost) && u.cost >= 0)
    return { usd: u.cost, from: 'provider', estimated: false };
  if (price) return { usd: priceUsage(u, price), from: 'price', estimated: usageSourceOf(e) === 'estimated' };
  return { usd: null, from: null, estimated: false };
}

export interface RunCost {
  /** The run's cost when every step's is known (0 for a priced run that made no request), else null. */
  readonly usd: number | null;
  /** USD of the steps whose cost is known: all of it when `usd` is set, a floor otherwise. */
  readonly knownUsd: number;
  readonly steps: number;
  readonly costedSteps: number;
  /** Steps whose cost the provider reported itself. */
  readonly providerSteps: number;
  /** Some of the cost comes from estimated usage. */
  readonly estimated: boolean;
  /** The price recorded when the run started (null: none; see `kind`). */
  readonly price: ModelPrice | null;
  readonly kind: PriceKind;
}

export function runCost(
  steps: readonly { readonly cost: StepCost }[],
  price: ModelPrice | null | undefined,
  provider: Pick<ProviderInfo, 'name' | 'simulated'> | null,
): RunCost {
  let knownUsd = 0,
    costedSteps = 0,
    providerSteps = 0,
    estimated = false;
  for (const { cost } of steps) {
    if (cost.usd === null) continue;
    knownUsd += cost.usd;
    costedSteps++;
    if (cost.from === 'provider') providerSteps++;
    if (cost.estimated) estimated = true;
  }
  const complete = steps.length > 0 ? costedSteps === steps.length : !!price;
  return {
    usd: complete ? knownUsd : null,
    knownUsd,
    steps: steps.length,
    costedSteps,
    providerSteps,
    estimated,
    price: price ?? null,
    kind: priceKind(provider, price),
  };
}

/** Sum of several runs' costs (a comparison, or a mode over trials): null unless every one is known. */
export function sumCosts(costs: readonly RunCost[]): { usd: number | null; estimated: boolean } {
  let usd = 0;
  for (const c of costs) {
    if (c.usd === null) return { usd: null, estimated: false };
    usd += c.usd;
  }
  return { usd, estimated: costs.some((c) => c.estimated) };
}

// ---- words -------------------------------------------------------------------------------------------

export const ESTIMATED_MARK = '≈';

export const USAGE_SOURCE_TEXT: Readonly<Record<RunUsageSource, string>> = {
  reported: 'reported',
  estimated: '≈ estimated',
  mixed: '≈ partly estimated',
  missing: 'not sent',
};

export const ESTIMATED_HINT =
  'Estimated: the provider sent no usage for this request, so Parallax counted the tokens with its tokenizer from the exact request sent and the reply received.';
export const MISSING_HINT =
  'Not sent: the provider sent no usage and it could not be estimated; these tokens count as 0, so the totals are incomplete.';
export const PROVIDER_COST_HINT = 'Cost as reported by the provider itself.';

/** "$0.00347", "$0.0123", "$1.25", "$1,234.50": three significant digits below a cent, so small runs differ visibly. No locale. */
export function formatUsd(usd: number): string {
  if (!Number.isFinite(usd)) return '—';
  const sign = usd < 0 ? '-' : '';
  const a = Math.abs(usd);
  if (a === 0) return '$0.00';
  if (a < 0.000_000_01) return `${sign}<$0.00000001`;
  let text: string;
  if (a >= 1) text = a.toFixed(2);
  else if (a >= 0.01) text = a.toFixed(4);
  else text = a.toFixed(Math.min(8, 2 - Math.floor(Math.log10(a))));
  const [int, frac] = text.split('.');
  return `${sign}$${int.replace(/\B(?=(\d{3})+(?!\d))/g, ',')}${frac ? `.${frac}` : ''}`;
}

/** A token count with "≈ " in front when it is (partly) estimated. */
export function markEstimated(text: string, estimated: boolean): string {
  return estimated ? `${ESTIMATED_MARK} ${text}` : text;
}

/** What a run's cost cell says: "$0.0123", "≈ $0.0123", "no price", "$0.0100 for 4 of 5 steps". */
export function costText(c: RunCost): string {
  if (c.usd !== null) return markEstimated(formatUsd(c.usd), c.estimated);
  if (c.costedSteps === 0) return c.kind === 'priced' ? 'unknown: no usage' : NO_PRICE_TEXT[c.kind];
  return `${markEstimated(formatUsd(c.knownUsd), c.estimated)} for ${c.costedSteps} of ${c.steps} steps`;
}

/** One step's cost cell. */
export function stepCostText(c: StepCost, kind: PriceKind, usageMissing: boolean): string {
  if (c.usd !== null) return markEstimated(formatUsd(c.usd), c.estimated);
  if (usageMissing) return 'no usage';
  return kind === 'priced' ? 'no usage' : NO_PRICE_TEXT[kind];
}

/** A rate per 1M tokens as it is written in price lists: "$0.40", "$1.60", "$0.0028", "$0.003625". */
export function formatRate(perMillion: number): string {
  if (!Number.isFinite(perMillion)) return '—';
  const cents = perMillion * 100;
  return `$${Math.abs(cents - Math.round(cents)) < 1e-9 ? perMillion.toFixed(2) : String(perMillion)}`;
}

/** "prices of 2026-12-01: $0.40 in, $0.10 cached, $1.60 out per 1M tokens". */
export function priceSummary(p: ModelPrice): string {
  const cached = p.cachedInput !== null ? `, ${formatRate(p.cachedInput)} cached` : '';
  const write = p.cacheWrite !== null ? `, ${formatRate(p.cacheWrite)} cache write` : '';
  return `prices of ${p.tableDate}: ${formatRate(p.input)} in${cached}${write}, ${formatRate(p.output)} out per 1M tokens`;
}

/** A hint for a run's cost cell: where the figure comes from, or why there is none. */
export function costHint(c: RunCost): string {
  const parts: string[] = [];
  if (c.providerSteps > 0)
    parts.push(
      c.providerSteps === c.steps
        ? PROVIDER_COST_HINT
        : `The provider reported the cost of ${c.providerSteps} of ${c.steps} steps.`,
    );
  if (c.price && c.providerSteps < c.steps) parts.push(`Computed at the ${priceSummary(c.price)} (${c.price.model}).`);
  if (!c.price && c.kind !== 'priced' && c.providerSteps < c.steps) parts.push(NO_PRICE_HINT[c.kind]);
  if (c.usd === null && c.costedSteps < c.steps && (c.price || c.providerSteps > 0))
    parts.push(`${c.steps - c.costedSteps} of ${c.steps} steps have no usage, so their cost is unknown.`);
  if (c.estimated) parts.push(ESTIMATED_HINT);
  return parts.join(' ');
}

/** The price table date(s) behind a set of runs, for "prices of …" notes; empty when none was priced. */
export function priceDates(costs: readonly RunCost[]): string[] {
  return [...new Set(costs.map((c) => c.price?.tableDate).filter((d): d is string => !!d))].sort();
}
