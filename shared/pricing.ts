/**
 * The price table: its shape (checked with zod, errors that name the field), finding a model's price, and
 * what a run without one is called. A price is resolved once, when a run starts, and recorded in its
 * run-started event, so a report made later shows the cost the run had then, whatever the table says now.
 */
import { z } from 'zod';
import { PROVIDER_PRESETS } from './providers.js';
import type { ProviderInfo } from './run-spec.js';
import type { ModelPrice } from './step-event.js';

export const PRICE_TABLE_SCHEMA = 'parallax.price-table';

/** Presets that run models on the user's own machine: no API bill, so no price unless the user sets one. */
export const LOCAL_PRESETS: readonly string[] = PROVIDER_PRESETS.filter((p) => p.local).map((p) => p.name);

/** One model's rates, USD per 1M tokens. A null cached or cache-write rate means those tokens cost the input rate. */
export interface PriceEntry {
  readonly model: string;
  readonly input: number;
  readonly cachedInput: number | null;
  readonly cacheWrite: number | null;
  readonly output: number;
  /** A cache write with a 1-hour lifetime (Anthropic), per 1M tokens; absent or null: the cache-write rate. */
  readonly cacheWrite1h?: number | null;
  /** USD per 1,000 web searches the provider runs itself (Anthropic's web search tool); absent or null: not priced. */
  readonly webSearch?: number | null;
  /** YYYY-MM-DD the user set this price; absent for the table's own prices (they carry the table's date). */
  readonly date?: string;
  /** Where the price comes from, or what to know about it (peak hours, long prompts). */
  readonly source?: string;
}

export interface PriceTable {
  readonly schema: typeof PRICE_TABLE_SCHEMA;
  readonly version: 1;
  /** YYYY-MM-DD the prices were taken. */
  readonly date: string;
  readonly currency: 'USD';
  readonly models: readonly PriceEntry[];
}

const isoDate = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, 'must be a date written YYYY-MM-DD')
  .refine(
    (s) => !Number.isNaN(Date.parse(`${s}T00:00:00Z`)) && new Date(`${s}T00:00:00Z`).toISOString().startsWith(s),
    'is not a real calendar date',
  );

/** No public model costs more than this per 1M tokens; a bigger number is a typo (per token instead of per 1M?). */
export const MAX_RATE = 10_000;

const rate = z
  .number({ error: 'must be a number (USD per 1M tokens)' })
  .min(0, 'cannot be negative')
  .max(MAX_RATE, `is above $${MAX_RATE} per 1M tokens — prices are per 1M tokens, not per token or per 1K`);

export const priceEntrySchema = z.strictObject({
  model: z.string().trim().min(1, 'needs a model name').max(200, 'is longer than 200 characters'),
  input: rate,
  cachedInput: rate.nullable(),
  cacheWrite: rate.nullable(),
  output: rate,
  cacheWrite1h: rate.nullable().optional(),
  webSearch: z
    .number({ error: 'must be a number (USD per 1,000 searches)' })
    .min(0, 'cannot be negative')
    .max(MAX_RATE, `is above $${MAX_RATE} per 1,000 searches`)
    .nullable()
    .optional(),
  date: isoDate.optional(),
  source: z.string().max(500, 'is longer than 500 characters').optional(),
});

export const priceTableSchema = z.strictObject({
  schema: z.literal(PRICE_TABLE_SCHEMA, `must be "${PRICE_TABLE_SCHEMA}"`),
  version: z.literal(1, 'must be 1 (this Parallax reads version 1 price tables)'),
  date: isoDate,
  currency: z.literal('USD', 'must be "USD": prices are in US dollars'),
  models: z
    .array(priceEntrySchema)
    .max(5000, 'has more than 5,000 models')
    .superRefine((models, ctx) => {
      const seen = new Set<string>();
      models.forEach((m, i) => {
        const key = m.model.trim();
        if (seen.has(key))
          ctx.addIssue({
            code: 'custom',
            path: [i, 'model'],
            message: `"${key}" is listed twice; keep one price per model`,
          });
        seen.add(key);
      });
    }),
});

export class PriceTableError extends Error {
  override readonly name = 'PriceTableError';
}

/** Zod issues as "models[3].input: cannot be negative; date: …" (the first few). */
export function describeIssues(issues: readonly { path: readonly PropertyKey[]; message: string }[]): string {
  const where = (path: readonly PropertyKey[]) =>
    path.reduce<string>((s, p) => (typeof p === 'number' ? `${s}[${p}]` : s ? `${s}.${String(p)}` : String(p)), '') ||
    '(the whole table)';
  const shown = issues.slice(0, 5).map((i) => `${where(i.path)}: ${i.message}`);
  return shown.join('; ') + (issues.length > 5 ? ` (and ${issues.length - 5} more)` : '');
}

/** A price table from parsed JSON; throws PriceTableError naming every bad field. */
export function parsePriceTable(value: unknown): PriceTable {
  const r = priceTableSchema.safeParse(value);
  if (!r.success) throw new PriceTableError(describeIssues(r.error.issues));
  return { ...r.data, models: r.data.models.map((m) => ({ ...m, model: m.model.trim() })) };
}

/** One price as typed by a user (CLI flags, the app's editor); throws PriceTableError naming the bad field. */
export function parsePriceEntry(value: unknown): PriceEntry {
  const r = priceEntrySchema.safeParse(value);
  if (!r.success) throw new PriceTableError(describeIssues(r.error.issues));
  return { ...r.data, model: r.data.model.trim() };
}

const DATED = /-(\d{4}-\d{2}-\d{2}|\d{8})$/;

/**
 * The table's entry for a model: the exact name, else the same name in another case, else the name without a
 * dated snapshot suffix ("gpt-4.1-mini-2025-04-14" is priced as "gpt-4.1-mini"). Null when none.
 */
export function findPriceEntry(table: PriceTable, model: string): PriceEntry | null {
  const name = model.trim();
  if (!name) return null;
  const exact = table.models.find((m) => m.model === name);
  if (exact) return exact;
  const lower = name.toLowerCase();
  const folded = table.models.find((m) => m.model.toLowerCase() === lower);
  if (folded) return folded;
  return DATED.test(name) ? findPriceEntry(table, name.replace(DATED, '')) : null;
}

export function toModelPrice(entry: PriceEntry, table: PriceTable): ModelPrice {
  return {
    model: entry.model,
    input: entry.input,
    cachedInput: entry.cachedInput,
    cacheWrite: entry.cacheWrite,
    output: entry.output,
    ...(entry.cacheWrite1h !== undefined && entry.cacheWrite1h !== null ? { cacheWrite1h: entry.cacheWrite1h } : {}),
    ...(entry.webSearch !== undefined && entry.webSearch !== null ? { webSearch: entry.webSearch } : {}),
    tableDate: entry.date ?? table.date,
  };
}

/**
 * The price a run records when it starts. The simulated model is never priced (it bills nobody); a local
 * preset or any other model is priced only when the table has it (a user may price a local model on purpose).
 */
export function resolvePrice(
  table: PriceTable,
  provider: Pick<ProviderInfo, 'model' | 'simulated'>,
): ModelPrice | null {
  if (provider.simulated) return null;
  const entry = findPriceEntry(table, provider.model);
  return entry ? toModelPrice(entry, table) : null;
}

/**
 * Why a run has or lacks a price: 'priced'; 'simulated' (never billed); 'local' (a model on the user's machine);
 * 'unknown' (the table had no price when it ran); 'unrecorded' (it ran before Parallax recorded prices).
 */
export type PriceKind = 'priced' | 'simulated' | 'local' | 'unknown' | 'unrecorded';

export function priceKind(
  provider: Pick<ProviderInfo, 'name' | 'simulated'> | null,
  price: ModelPrice | null | undefined,
): PriceKind {
  if (price) return 'priced';
  if (provider?.simulated) return 'simulated';
  if (provider && LOCAL_PRESETS.includes(provider.name)) return 'local';
  return price === undefined ? 'unrecorded' : 'unknown';
}

/** The words every surface uses where a cost cannot be given. Never "$0". */
export const NO_PRICE_TEXT: Readonly<Record<Exclude<PriceKind, 'priced'>, string>> = {
  simulated: 'simulated: no price',
  local: 'local: no API price',
  unknown: 'no price',
  unrecorded: 'no price recorded',
};

/** One sentence on why, for hints and report notes. */
export const NO_PRICE_HINT: Readonly<Record<Exclude<PriceKind, 'priced'>, string>> = {
  simulated: 'The simulated model bills nobody, so it has no cost.',
  local: 'A model served on this machine has no API price; set one in the price table to cost it anyway.',
  unknown:
    'The price table had no price for this model when the run started; add one (parallax prices set, or Prices in the app) for later runs.',
  unrecorded: 'This run was recorded before Parallax kept prices with its runs.',
};

/** Pure edits; the caller stores the result. Setting a price replaces the model's entry (same name, any case). */
export function setPrice(table: PriceTable, entry: PriceEntry): PriceTable {
  const lower = entry.model.toLowerCase();
  const at = table.models.findIndex((m) => m.model.toLowerCase() === lower);
  const models = [...table.models];
  if (at >= 0) models[at] = entry;
  else models.push(entry);
  return { ...table, models };
}

export function removePrice(table: PriceTable, model: string): { table: PriceTable; removed: boolean } {
  const lower = model.trim().toLowerCase();
  const models = table.models.filter((m) => m.model.toLowerCase() !== lower);
  return { table: { ...table, models }, removed: models.length !== table.models.length };
}
