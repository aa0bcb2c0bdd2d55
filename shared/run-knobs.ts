/**
 * The experiment knobs: run settings that each choose one of a few named values (the reference tutorial's
 * exercises 2, 7 and 8; exercise 3 is `returnTypes`; seed 002's corrective tool errors). Each knob is ONE
 * definition here — values, default, what each value means, its label, its phrase in a column label, where it
 * applies and its CLI flag — and everything else is derived from it: the settings schema (shared/run-spec.ts),
 * the CLI flags and help (electron/cli/settings-option.ts), the report rows (knobRows), the column-label
 * phrases (shared/variants.ts) and the composer's controls; a variant column sets a knob in its settings JSON,
 * checked by the same schema. Adding a knob is one entry here plus the code that acts on it.
 */
import { z } from 'zod';
import { historyError, historyMeaning, type HistorySetting } from './history-setting.js';

export interface KnobDefinition<V extends string = string> {
  /**
   * The values it may take, in the order the composer and the help list them; for a knob with a parameter
   * (`check`), the presets its selects offer.
   */
  readonly values: readonly [V, ...V[]];
  /** What a run does when nothing sets the knob: what runs did before the knob existed. */
  readonly default: V;
  /** Its name in tables and in the composer. */
  readonly label: string;
  /** What each value (or value form, `window:K`) does, in the words of the composer, the CLI help and the reports. */
  readonly help: Readonly<Record<string, string>>;
  /** A knob with a parameter: why a value is not one of its values (null when it is), saying what to write. */
  readonly check?: (value: string) => string | null;
  /** What a value does, for values `help` does not list by name (a parameter's every K). */
  readonly meaning?: (value: string) => string;
  /** How a column that sets the knob away from the comparison's value is named ("Code Mode · state kept"). */
  readonly phrase: (value: V) => string;
  /** Where the knob means something, for the composer's hint ("every mode", "run_code modes"). */
  readonly appliesTo: string;
  /** The CLI flag (`--<name> <kind>`) and the words its help starts with. */
  readonly flag: { readonly name: string; readonly lead: string };
  /** Where it can be set: for the whole comparison (composer, CLI flag) and per variant column. */
  readonly scope: { readonly comparison: boolean; readonly column: boolean };
  /** It changes the tools as offered, so `parallax tools` takes its flag too. */
  readonly changesOffer?: boolean;
}

const knob = <V extends string>(definition: KnobDefinition<V>): KnobDefinition<V> => definition;
const everywhere = { comparison: true, column: true } as const;

export const KNOBS = {
  /** How tool descriptions reach the model (exercise 2: a vague docstring). Parameter names never change. */
  toolDescriptions: knob({
    values: ['full', 'one-line', 'vague'],
    default: 'full',
    label: 'Tool descriptions',
    help: {
      full: 'each tool as written: what it does, its arguments, what it returns, its limits',
      'one-line': "only each description's first sentence",
      vague: 'one generic sentence per argument shape ("Do something with a path."), hiding what each tool does',
    },
    phrase: (v) => `${v} descriptions`,
    appliesTo: 'every mode',
    flag: { name: 'tool-descriptions', lead: 'how tools are described to the model' },
    scope: everywhere,
    changesOffer: true,
  }),
  /** Whether a run_code program's top-level variables stay for the run's next program (exercise 8). */
  codeState: knob({
    values: ['fresh', 'persist'],
    default: 'fresh',
    label: 'Code Mode state',
    help: {
      fresh: 'each run_code program starts with nothing defined',
      persist:
        "top-level variables stay for the run's next program; each result lists what is stored and the sandbox's memory",
    },
    phrase: (v) => (v === 'persist' ? 'state kept' : 'fresh state'),
    appliesTo: 'run_code modes',
    flag: { name: 'code-state', lead: 'run_code programs' },
    scope: everywhere,
  }),
  /** How ReAct + tool search offers the tools it finds (the tutorial's two approaches, exercise 7). */
  toolSearch: knob({
    values: ['add-tools', 'call-tool'],
    default: 'add-tools',
    label: 'Tool search',
    help: {
      'add-tools': 'found tools join the tools of later requests (the tool list changes, so a prompt cache misses)',
      'call-tool': 'the tool list stays fixed; found tools are called through call_tool(name, arguments)',
    },
    phrase: (v) => (v === 'call-tool' ? 'via call_tool' : 'found tools added'),
    appliesTo: 'ReAct + tool search',
    flag: { name: 'tool-search', lead: 'ReAct + tool search' },
    scope: everywhere,
    changesOffer: true,
  }),
  /** How a failed tool call reads when it goes back to the model (seed 002: say what to do next). */
  errorHints: knob({
    values: ['plain', 'corrective'],
    default: 'plain',
    label: 'Tool error hints',
    help: {
      plain: 'a failed tool call goes back as its error message',
      corrective:
        'a failed tool call goes back with what to do next: check the arguments against the parameters, pick a listed tool, or try another way',
    },
    phrase: (v) => (v === 'corrective' ? 'corrective error hints' : 'plain tool errors'),
    appliesTo: 'modes whose tool errors return to the model',
    flag: { name: 'error-hints', lead: 'tool errors' },
    scope: everywhere,
  }),
  /** A call identical to an earlier one (seed 002's guard against the same tool called again and again). */
  repeatGuard: knob({
    values: ['off', 'on'],
    default: 'off',
    label: 'Repeat guard',
    help: {
      off: 'every call runs, even one identical to an earlier call',
      on: 'a call identical to an earlier one in the run (same tool, same arguments) is not run again; the model gets a note pointing to the earlier result',
    },
    phrase: (v) => (v === 'on' ? 'repeat guard' : 'no repeat guard'),
    appliesTo: 'every mode',
    flag: { name: 'repeat-guard', lead: 'identical tool calls' },
    scope: everywhere,
  }),
  /**
   * How much of the earlier tool results each request re-sends (Anthropic's context editing, LangGraph
   * trim_messages). Named `history` until it was confused with the History of comparisons
   * (shared/former-setting-names.ts).
   */
  toolHistory: knob<HistorySetting>({
    values: ['full', 'window:2', 'window:4', 'clear-results:2', 'clear-results:4', 'summarize:3'],
    default: 'full',
    label: 'Tool-result history',
    help: {
      full: historyMeaning('full'),
      'window:K':
        'the tool results of the last K steps are sent whole; older ones are replaced by a short placeholder naming the call',
      'clear-results:K':
        'the newest K tool results are sent whole; older ones are cleared to a short placeholder naming the call',
      'summarize:K':
        "the last K steps are sent whole; older ones are replaced by a summary the run's model writes (its requests count in the totals)",
    },
    check: historyError,
    meaning: historyMeaning,
    phrase: (v) => (v === 'full' ? 'full history' : `history ${v}`),
    appliesTo: 'every mode: its own history of tool results',
    flag: { name: 'tool-history', lead: 'earlier tool results in each request' },
    scope: everywhere,
  }),
} as const;

export type KnobId = keyof typeof KNOBS;
export const KNOB_IDS = Object.keys(KNOBS) as KnobId[];
export type KnobValue<K extends KnobId> = (typeof KNOBS)[K] extends KnobDefinition<infer V> ? V : never;
/** The knobs' part of the run settings. */
export type KnobSettings = { readonly [K in KnobId]: KnobValue<K> };

export type ToolDescriptionsSetting = KnobValue<'toolDescriptions'>;
export type CodeStateSetting = KnobValue<'codeState'>;
export type ErrorHintsSetting = KnobValue<'errorHints'>;
export type { HistorySetting };

/** A knob by id, seen as its plain shape (for code that loops over all knobs). */
export const knobOf = (id: KnobId): KnobDefinition => KNOBS[id] as unknown as KnobDefinition;

const field = <V extends string>(k: KnobDefinition<V>) =>
  k.check
    ? z
        .string()
        .superRefine((v, ctx) => {
          const error = k.check!(v);
          if (error) ctx.addIssue({ code: 'custom', message: error });
        })
        .transform((v) => v as V)
        .default(k.default as never)
    : z.enum(k.values).default(k.default);
/** The knobs' fields of the settings schema: each one of its values, its default when absent. */
export const KNOB_FIELDS = Object.fromEntries(KNOB_IDS.map((id) => [id, field(knobOf(id))])) as unknown as {
  readonly [K in KnobId]: ReturnType<typeof field<KnobValue<K>>>;
};

/** Each knob's phrase in a column label (shared/variants.ts SETTING_PHRASES). */
export const KNOB_PHRASES = Object.fromEntries(KNOB_IDS.map((id) => [id, knobOf(id).phrase])) as unknown as {
  readonly [K in KnobId]: (value: KnobValue<K>) => string;
};

/** One line naming each value and its meaning, for CLI help: `full: …; one-line: …`. */
export function knobHelp(help: Readonly<Record<string, string>>): string {
  return Object.entries<string>(help)
    .map(([value, meaning]) => `${value}: ${meaning}`)
    .join('; ');
}

/** What a knob's value does (a parameter's value through its own words). */
export function knobMeaning(id: KnobId, value: string): string {
  const k = knobOf(id);
  return k.help[value] ?? k.meaning?.(value) ?? '';
}

/** Why a value is not one of a knob's values, naming them; null when it is one. */
export function knobValueError(id: KnobId, value: string): string | null {
  const k = knobOf(id);
  if (k.check) return k.check(value);
  return (k.values as readonly string[]).includes(value)
    ? null
    : `must be one of ${k.values.join(', ')}; got "${value}".`;
}

/** The knobs as label/value rows, each only when it differs from its default (knobs a record lacks are at theirs). */
export function knobRows(s: Partial<Readonly<Record<KnobId, string>>>): [string, string][] {
  return KNOB_IDS.flatMap((id): [string, string][] => {
    const k = knobOf(id);
    const value = s[id];
    return value && value !== k.default ? [[k.label, `${value} (${knobMeaning(id, value)})`]] : [];
  });
}

/** The knobs' values in a settings object, each its default where absent (forms saved before a knob existed). */
export function knobValues(s: Partial<Readonly<Record<KnobId, string>>>): KnobSettings {
  return Object.fromEntries(KNOB_IDS.map((id) => [id, s[id] ?? KNOBS[id].default])) as unknown as KnobSettings;
}
