/**
 * The composer's variants: the columns as rows a user edits (mode, optional provider and model, a few setting
 * overrides, any other setting as JSON, an optional label), checked with the same rules as the host
 * (parseVariants, parseSettings over the comparison's settings, resolveColumns for keys, labels and twins).
 * Pure: no React, no DOM.
 */
import { findPreset } from '../../shared/providers.js';
import { simModelProblem } from '../../shared/sim-models.js';
import { KNOB_IDS, knobOf, type KnobId } from '../../shared/run-knobs.js';
import {
  currentSettingNames,
  parseSettings,
  runSettingsSchema,
  type ModeId,
  type RunSettings,
  type RunSettingsInput,
} from '../../shared/run-spec.js';
import {
  matrixVariants,
  parseVariants,
  resolveColumns,
  type VariantInput,
  type VariantRecord,
} from '../../shared/variants.js';

/** One row as typed (text kept as typed, so a half-typed number is not lost). */
export interface VariantDraft {
  readonly mode: ModeId;
  /** A provider preset name; '' = the comparison's provider. */
  readonly provider: string;
  /** '' = the comparison's model (or the row's provider's default model). */
  readonly model: string;
  readonly returnTypes: 'same' | 'on' | 'off';
  readonly maxSteps: string;
  readonly truncateChars: string;
  /** The column's knobs (shared/run-knobs.ts, those a column may set): a value, or absent = as set for the comparison. */
  readonly knobs?: Readonly<Partial<Record<KnobId, string>>>;
  /** Any other settings, a JSON object such as {"temperature": 0}; '' = none. */
  readonly other: string;
  /** '' = derived from what differs. */
  readonly label: string;
  /** Mode "agent": the command, as words (`python3 /path/agent.py`) or a JSON array of them. */
  readonly agentCommand?: string;
  /** Mode "agent": more files or folders shown read-only, full paths separated by commas or new lines. */
  readonly agentPaths?: string;
}

/** An agent row's extra read-only paths as a list (the host checks each). */
export const agentPathList = (text: string): string[] =>
  text
    .split(/[,\n]/)
    .map((p) => p.trim())
    .filter(Boolean);

/** An agent row's command as words: a JSON array as written, else the text split at spaces; or what is wrong. */
export function agentWords(text: string): string[] | string {
  const t = text.trim();
  if (!t) return "Give the agent's command, e.g. python3 /home/me/agent.py.";
  if (t.startsWith('[')) {
    try {
      const words: unknown = JSON.parse(t);
      if (Array.isArray(words) && words.length > 0 && words.every((w) => typeof w === 'string' && w !== ''))
        return words as string[];
    } catch {
      /* said below */
    }
    return 'The command as JSON must be an array of words, e.g. ["python3", "/home/me/my agent.py"].';
  }
  return t.split(/\s+/);
}

/** The knobs a column may set, in their definition order (the editor's selects). */
export const COLUMN_KNOBS: readonly KnobId[] = KNOB_IDS.filter((id) => knobOf(id).scope.column);

export const blankVariant = (mode: ModeId): VariantDraft => ({
  mode,
  provider: '',
  model: '',
  returnTypes: 'same',
  maxSteps: '',
  truncateChars: '',
  other: '',
  label: '',
});

/** The rows that stand for the selected modes (the plain comparison the editor starts from). */
export const draftsFromModes = (modes: readonly ModeId[]): VariantDraft[] => modes.map(blankVariant);

/** The models × modes shortcut: models as typed ("sim, sim-careful"), each with every selected mode. */
export function draftsFromMatrix(models: string, modes: readonly ModeId[]): VariantDraft[] | string {
  const names = [
    ...new Set(
      models
        .split(',')
        .map((m) => m.trim())
        .filter(Boolean),
    ),
  ];
  if (names.length === 0) return 'Name at least one model, e.g. sim, sim-careful.';
  if (modes.length === 0) return 'Pick at least one mode above.';
  return matrixVariants(names, modes).map((v) => ({ ...blankVariant(v.mode), model: v.model ?? '' }));
}

/** A row's overrides as an object, or the reason it has none (numbers as the settings schema reads them). */
function overridesOf(d: VariantDraft): RunSettingsInput | string {
  let other: Record<string, unknown> = {};
  if (d.other.trim()) {
    try {
      other = JSON.parse(d.other) as Record<string, unknown>;
    } catch {
      return 'Other settings must be a JSON object, e.g. {"temperature": 0}.';
    }
    if (!other || typeof other !== 'object' || Array.isArray(other))
      return 'Other settings must be a JSON object, e.g. {"temperature": 0}.';
  }
  const out: Record<string, unknown> = { ...other };
  if (d.returnTypes !== 'same') out.returnTypes = d.returnTypes === 'on';
  for (const id of COLUMN_KNOBS) {
    const v = d.knobs?.[id];
    if (v) out[id] = v;
  }
  for (const key of ['maxSteps', 'truncateChars'] as const) {
    const t = d[key].trim();
    if (!t) continue;
    const n = Number(t.replace(/[_,\s]/g, ''));
    const r = runSettingsSchema.shape[key].safeParse(n);
    if (!r.success)
      return `${key === 'maxSteps' ? 'Max steps' : 'Truncate'}: ${r.error.issues[0]?.message ?? 'not a valid number'}.`;
    out[key] = n;
  }
  return out as RunSettingsInput;
}

export interface VariantsCheck {
  /** What the request sends, once every row is sound and the columns resolve. */
  readonly variants: VariantInput[] | null;
  /** Each row's key and derived label (the label fields' placeholders), when the columns resolve. */
  readonly columns: readonly VariantRecord[] | null;
  /** Per row: what to fix in it, or null. */
  readonly rowErrors: readonly (string | null)[];
  /** What is wrong across rows (two rows the same column, two equal labels), or null. */
  readonly error: string | null;
}

/** The comparison the rows are measured against: its provider, model and (checked) settings. */
export interface VariantsBase {
  readonly provider: string;
  readonly model: string;
  readonly settings: RunSettings | null;
}

export function checkVariants(drafts: readonly VariantDraft[], base: VariantsBase): VariantsCheck {
  const rowErrors: (string | null)[] = [];
  const inputs: VariantInput[] = [];
  for (const d of drafts) {
    const overrides = overridesOf(d);
    if (typeof overrides === 'string') {
      rowErrors.push(overrides);
      continue;
    }
    // The row's settings are checked as the host checks them: merged over the comparison's.
    if (base.settings) {
      try {
        parseSettings({ ...base.settings, ...overrides });
      } catch (err) {
        rowErrors.push(err instanceof Error ? err.message : String(err));
        continue;
      }
    }
    const words = d.mode === 'agent' ? agentWords(d.agentCommand ?? '') : null;
    if (typeof words === 'string') {
      rowErrors.push(words);
      continue;
    }
    const preset = d.provider ? findPreset(d.provider) : undefined;
    const model = d.model.trim() || (preset && d.provider !== base.provider ? preset.defaultModel : '');
    const onSim = (d.provider || base.provider) === 'simulated';
    const simProblem = onSim && model ? simModelProblem(model) : null;
    if (simProblem) {
      rowErrors.push(simProblem);
      continue;
    }
    rowErrors.push(null);
    inputs.push({
      mode: d.mode,
      ...(d.provider && d.provider !== base.provider ? { provider: d.provider } : {}),
      ...(model ? { model } : {}),
      ...(Object.keys(overrides).length > 0 ? { settings: overrides } : {}),
      ...(d.label.trim() ? { label: d.label.trim() } : {}),
      ...(words
        ? {
            agent: {
              command: words,
              ...(agentPathList(d.agentPaths ?? '').length ? { paths: agentPathList(d.agentPaths ?? '') } : {}),
            },
          }
        : {}),
    });
  }
  if (rowErrors.some((e) => e !== null) || !base.settings)
    return { variants: null, columns: null, rowErrors, error: null };
  try {
    const variants = parseVariants(inputs);
    const columns = resolveColumns(variants, {
      provider: base.provider,
      model: base.model.trim(),
      settings: base.settings,
    });
    return { variants, columns, rowErrors, error: null };
  } catch (err) {
    return { variants: null, columns: null, rowErrors, error: err instanceof Error ? err.message : String(err) };
  }
}

/** A saved draft from another version: keep rows that have a known shape, drop the rest. */
export function restoreVariants(value: unknown, known: (mode: string) => mode is ModeId): VariantDraft[] | undefined {
  if (!Array.isArray(value)) return undefined;
  const rows = value.filter(
    (v): v is VariantDraft => !!v && typeof v === 'object' && known(String((v as VariantDraft).mode)),
  );
  return rows.map((v) => ({
    ...blankVariant(v.mode),
    ...Object.fromEntries(Object.entries(v).filter(([, x]) => typeof x === 'string')),
    mode: v.mode,
    ...knobsOf(v.knobs),
  }));
}

/** A saved row's knobs: only known knobs with one of their values (a value a later version dropped is let go). */
function knobsOf(saved: unknown): { knobs?: Partial<Record<KnobId, string>> } {
  if (!saved || typeof saved !== 'object') return {};
  // Rows saved before a knob was renamed hold it under its former name.
  const value = currentSettingNames(saved);
  const kept = COLUMN_KNOBS.filter((id) =>
    knobOf(id).values.includes((value as Record<string, unknown>)[id] as string),
  );
  return kept.length
    ? { knobs: Object.fromEntries(kept.map((id) => [id, (value as Record<string, string>)[id]])) }
    : {};
}
