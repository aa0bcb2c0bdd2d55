/**
 * Variants: the columns of a comparison. A column is a mode with, optionally, its own provider/model and its own
 * setting overrides; the default comparison ("the selected modes, one model") is one plain column per mode.
 *
 * - A plain column (nothing overridden) is keyed by its mode, so its run ids, folders and stored records read
 *   exactly as before variants existed; any other column is keyed `<mode>-<position>`.
 * - Every column is labelled by what differs: its mode, its model when the columns do not all share one, and
 *   each setting it sets away from the comparison's own ("Code Mode · no return types", "ReAct · deepseek-chat").
 * - Colours: a column is drawn in its own mode's colour, or a shade of it when the mode has several columns
 *   (columnSlots, shared/column-shades.ts), so a plain comparison looks as it always did, two columns of one mode
 *   still differ, and a colour names the same mode in every comparison.
 */
import { z } from 'zod';
import { slotOf as shadeSlot, type ColumnSlot } from './column-shades.js';
import { AGENT_MODE, COLUMN_MODE_IDS, MODE_LABELS, modeLabel, type ModeId } from './modes.js';
import { agentCommandSchema, agentName, agentRecordOf, type AgentCommand, type AgentRecord } from './agent-command.js';
import { PROTOCOLS, type ProviderProtocol } from './providers.js';
import { currentSettingNames, formerNameConflict, type RunSettings, type RunSettingsInput } from './run-spec.js';
import { KNOB_PHRASES } from './run-knobs.js';

/** Most columns in one comparison (a 3 models × 4 modes matrix). */
export const MAX_VARIANTS = 12;

/** What a user writes for one column (CLI --variants, the composer's variants editor, a suite file). */
export interface VariantInput {
  readonly label?: string;
  readonly mode: ModeId;
  /** A provider preset name ('openai', 'deepseek', 'simulated', 'custom', …); absent: the comparison's. */
  readonly provider?: string;
  /** The provider's base URL (custom provider, or a preset's proxy); absent: the preset's or the comparison's. */
  readonly baseUrl?: string | null;
  /**
   * The environment variable holding this column's key, for its own custom provider (bound to its URL by the
   * same rules as the comparison's); absent: the preset's variable, or the comparison's when the provider is.
   */
  readonly apiKeyEnv?: string;
  /**
   * The wire protocol of this column's custom provider (an Anthropic-compatible gateway: 'anthropic'); absent:
   * the comparison's when the column is on its server, else OpenAI chat completions. Presets speak their own.
   */
  readonly protocol?: ProviderProtocol;
  readonly model?: string;
  /** Run settings this column sets away from the comparison's (checked with them by parseSettings). */
  readonly settings?: RunSettingsInput;
  /** mode "agent" only: the program the column runs (shared/agent-command.ts). */
  readonly agent?: AgentCommand;
}

const variantInputSchema = z
  .strictObject({
    label: z
      .string()
      .trim()
      .min(1, 'must not be empty; leave it out to have the label derived')
      .max(80, 'must be at most 80 characters')
      .optional(),
    mode: z.enum(COLUMN_MODE_IDS, { error: `must be one of ${COLUMN_MODE_IDS.join(', ')}` }),
    provider: z.string().trim().min(1, "must name a provider preset (or leave it out for the comparison's)").optional(),
    baseUrl: z.string().trim().min(1).nullable().optional(),
    apiKeyEnv: z.string().trim().min(1, 'must name an environment variable (or leave it out)').optional(),
    protocol: z
      .enum(['openai', 'anthropic'], {
        error: `must be one of ${PROTOCOLS.join(', ')} (the custom base URL's wire protocol)`,
      })
      .optional(),
    model: z.string().trim().min(1, "must name a model (or leave it out for the comparison's)").optional(),
    settings: z
      .record(z.string(), z.unknown(), { error: 'must be an object of run settings, e.g. {"returnTypes": false}' })
      // A column written before a setting was renamed sets it under today's name (parseSettings refuses both).
      .transform((settings) => (formerNameConflict(settings) ? settings : currentSettingNames(settings)))
      .optional(),
    agent: agentCommandSchema.optional(),
  })
  .superRefine((v, ctx) => {
    if (v.mode === AGENT_MODE && !v.agent)
      ctx.addIssue({
        code: 'custom',
        path: ['agent'],
        message: 'is needed with mode "agent": {"command": ["python3", "my_agent.py"]}',
      });
    if (v.mode !== AGENT_MODE && v.agent)
      ctx.addIssue({
        code: 'custom',
        path: ['agent'],
        message: 'belongs to mode "agent" only; write "mode": "agent" or leave "agent" out',
      });
  });

/**
 * The columns as written (an array, or its JSON text), each checked; throws an Error naming the column and the
 * field, and saying what to write instead. Settings are checked later, merged with the comparison's.
 */
export function parseVariants(value: unknown): VariantInput[] {
  let list = value;
  if (typeof value === 'string') {
    try {
      list = JSON.parse(value);
    } catch {
      throw new Error(
        `Variants must be a JSON array such as [{"mode":"code","settings":{"returnTypes":false}},{"mode":"code"}]; this is not valid JSON: ${value.slice(0, 80)}`,
      );
    }
  }
  if (!Array.isArray(list) || list.length === 0) {
    throw new Error(
      'Variants must be a non-empty array of columns, each {"mode": …} with optional "model", "provider", "baseUrl", "apiKeyEnv", "protocol", "settings" and "label" (mode "agent" also takes "agent": {"command": […], "env": {…}}).',
    );
  }
  if (list.length > MAX_VARIANTS)
    throw new Error(
      `At most ${MAX_VARIANTS} variants in one comparison; got ${list.length}. Split the matrix into several comparisons.`,
    );
  return list.map((item, i) => {
    const result = variantInputSchema.safeParse(item);
    if (result.success) return result.data as VariantInput;
    const problems = result.error.issues.map(
      (issue) => `${['variants', i + 1, ...issue.path].join('.')}: ${issue.message}`,
    );
    throw new Error(`Invalid variant ${i + 1} — ${problems.join('; ')}.`);
  });
}

/** The full matrix for `--models a,b --modes x,y`: models are rows, modes columns, in the order given. */
export function matrixVariants(models: readonly string[], modes: readonly ModeId[]): VariantInput[] {
  return models.flatMap((model) => modes.map((mode) => ({ mode, model })));
}

/** How the runs of one column are named and keyed everywhere (run-started.variant, RunSummary.column). */
export interface ColumnRef {
  /** Path-safe and unique in its comparison: the mode for a plain column, else `<mode>-<position>`. */
  readonly key: string;
  readonly label: string;
}

/** A column as stored in the comparison's meta.json: what it ran, and what it set away from the comparison. */
export interface VariantRecord extends ColumnRef {
  readonly mode: ModeId;
  /** Preset name and model (never a key); absent when the comparison's. */
  readonly provider?: string;
  readonly baseUrl?: string | null;
  /** The custom provider's protocol, when the column gave one. */
  readonly protocol?: ProviderProtocol;
  readonly model?: string;
  /** The overrides as given (the run's whole settings are in its run-started). */
  readonly settings?: RunSettingsInput;
  /** An agent column's program: its command and the names of the variables it set (never their values). */
  readonly agent?: AgentRecord;
}

/** What the columns are compared against: the comparison's own provider, model and settings. */
export interface VariantBase {
  readonly provider: string;
  readonly model: string;
  readonly settings: RunSettings;
}

const stable = (v: unknown): string =>
  JSON.stringify(v, (_k, x) =>
    x && typeof x === 'object' && !Array.isArray(x)
      ? Object.fromEntries(Object.entries(x).sort(([a], [b]) => a.localeCompare(b)))
      : x,
  );

/** The settings a column sets to a value other than the comparison's, by name, sorted. */
export function changedSettings(v: VariantInput, base: RunSettings): [string, unknown][] {
  return Object.entries(v.settings ?? {})
    .filter(([name, value]) => stable(value) !== stable((base as Record<string, unknown>)[name]))
    .sort(([a], [b]) => a.localeCompare(b));
}

/**
 * Each setting's phrase in a label, where it reads better than `name=value`. One entry per setting that has a
 * natural wording; every other setting reads `name value`.
 */
export const SETTING_PHRASES: { readonly [K in keyof RunSettings]?: (value: RunSettings[K]) => string } = {
  returnTypes: (v) => (v ? 'return types' : 'no return types'),
  maxSteps: (v) => `max ${v} steps`,
  truncateChars: (v) => `truncate at ${v} chars`,
  temperature: (v) => (v === null ? 'default temperature' : `temperature ${v}`),
  toolset: (v) => `${v} toolset`,
  promptCache: (v) => `prompt cache ${v}`,
  streamOptions: (v) => (v ? 'usage in stream' : 'no stream usage'),
  webSearch: (v) => `web search ${v}`,
  // The experiment knobs carry their own phrases (shared/run-knobs.ts).
  ...KNOB_PHRASES,
};

export function settingPhrase(name: string, value: unknown): string {
  const phrase = (SETTING_PHRASES as Record<string, ((v: unknown) => string) | undefined>)[name];
  if (phrase) return phrase(value);
  return `${name} ${typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean' || value === null ? String(value) : stable(value)}`;
}

const modelOf = (v: VariantInput, base: VariantBase) => ({
  provider: v.provider ?? base.provider,
  model: v.model ?? base.model,
});

/**
 * Keys and labels for the columns, in order. Throws when two columns are the same (same mode, model and
 * settings) or two end up with the same label: a comparison's columns must be told apart.
 */
export function resolveColumns(variants: readonly VariantInput[], base: VariantBase): VariantRecord[] {
  const models = variants.map((v) => modelOf(v, base));
  const providersVary = new Set(models.map((m) => m.provider)).size > 1;
  const modelsVary = new Set(models.map((m) => `${m.provider}\u0000${m.model}`)).size > 1;
  const protocolsVary = new Set(variants.map((v) => v.protocol ?? '')).size > 1;
  const seen = new Map<string, number>();
  const labels = new Map<string, number>();
  const plainModes = new Set<ModeId>();
  return variants.map((v, i) => {
    const m = models[i]!;
    const changed = changedSettings(v, base.settings);
    const same = stable({
      mode: v.mode,
      ...m,
      baseUrl: v.baseUrl ?? null,
      protocol: v.protocol ?? null,
      changed,
      agent: v.agent ?? null,
    });
    const twin = seen.get(same);
    if (twin !== undefined)
      throw new Error(
        `Variants ${twin + 1} and ${i + 1} are the same column (${modeLabel(v.mode)}, ${m.model}, same settings); remove one or make them differ.`,
      );
    seen.set(same, i);
    const plain =
      v.mode !== AGENT_MODE &&
      !modelsVary &&
      changed.length === 0 &&
      v.baseUrl == null &&
      v.protocol === undefined &&
      !v.label &&
      !plainModes.has(v.mode);
    if (plain) plainModes.add(v.mode);
    const parts = [MODE_LABELS[v.mode]];
    if (v.agent) parts.push(agentName(v.agent));
    if (modelsVary) parts.push(providersVary ? `${m.model} (${m.provider})` : m.model);
    if (protocolsVary && v.protocol) parts.push(v.protocol === 'anthropic' ? 'Messages API' : 'chat completions');
    for (const [name, value] of changed) parts.push(settingPhrase(name, value));
    const label = v.label ?? parts.join(' · ');
    const clash = labels.get(label);
    if (clash !== undefined)
      throw new Error(`Variants ${clash + 1} and ${i + 1} would both be labelled "${label}"; give one a "label".`);
    labels.set(label, i);
    return {
      key: plain ? v.mode : `${v.mode}-${i + 1}`,
      label,
      mode: v.mode,
      ...(v.provider !== undefined ? { provider: v.provider } : {}),
      ...(v.baseUrl != null ? { baseUrl: v.baseUrl } : {}),
      ...(v.protocol !== undefined ? { protocol: v.protocol } : {}),
      ...(v.model !== undefined ? { model: v.model } : {}),
      ...(v.settings && Object.keys(v.settings).length > 0 ? { settings: v.settings } : {}),
      ...(v.agent ? { agent: agentRecordOf(v.agent) } : {}),
    };
  });
}

/** The plain columns of a comparison of modes (no variants given): one per mode, keyed and labelled by it. */
export const plainColumns = (modes: readonly ModeId[]): VariantRecord[] =>
  modes.map((mode) => ({ key: mode, label: MODE_LABELS[mode], mode }));

/** The column of a run recorded with or without one: runs stored before variants existed are their mode's column. */
export function columnOf(run: { readonly mode: ModeId | string; readonly variant?: ColumnRef }): ColumnRef {
  return run.variant ?? { key: run.mode, label: modeLabel(run.mode) };
}

/**
 * Each column's palette slot (shared/column-shades.ts): always a shade of its own mode, so a colour means the
 * same mode in every comparison. The plain column of a mode takes the mode's own colours (so "Code Mode" beside
 * "Code Mode · no return types" keeps Code Mode's colour), else the mode's first column does; the mode's further
 * columns take its shades 1, 2, … in column order. A mode this build does not know keeps its id (drawn grey).
 */
export function columnSlots(
  columns: readonly { readonly key: string; readonly mode: ModeId | string }[],
): Map<string, ColumnSlot> {
  const slots = new Map<string, ColumnSlot>();
  const own = new Set<string>();
  for (const c of columns) {
    if (c.key === c.mode && !own.has(c.mode)) {
      slots.set(c.key, c.mode as ModeId);
      own.add(c.mode);
    }
  }
  const next = new Map<string, number>();
  for (const c of columns) {
    if (slots.has(c.key)) continue;
    const shade = own.has(c.mode) ? (next.get(c.mode) ?? 1) : 0;
    own.add(c.mode);
    next.set(c.mode, shade + 1);
    slots.set(c.key, shadeSlot(c.mode as ModeId, shade));
  }
  return slots;
}
