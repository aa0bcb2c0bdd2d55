/**
 * A task suite: many tasks run through the same modes and trials, one comparison per task, summed up in a
 * leaderboard. The suite file (JSON or YAML, read by electron/suite/load-suite.ts) is checked here, task by
 * task, so every error names the task and the field and says what to write instead.
 */
import { z } from 'zod';
import {
  COLUMN_MODE_IDS,
  DEFAULT_MODES,
  isModeId,
  MAX_TRIALS,
  MODE_IDS,
  currentSettingNames,
  formerNameConflict,
  runSettingsSchema,
  unknownSettingsMessage,
  type ModeId,
  type ProviderInfo,
  type RunSettingsInput,
} from './run-spec.js';
import { matrixVariants, parseVariants, type VariantInput } from './variants.js';
import type { Validation } from './step-event.js';
import { BUILTIN_TASKS, findTask } from './tasks.js';

/** How a suite task's answer is judged. One key names the kind. */
export type SuiteValidator =
  | { readonly exact: string }
  | { readonly regex: string; readonly flags?: string }
  | { readonly number: number; readonly tolerance?: number }
  | { readonly jsonPath: string; readonly equals: unknown }
  | { readonly js: string };

export const VALIDATOR_KINDS = ['exact', 'regex', 'number', 'jsonPath', 'js'] as const;

const VALIDATOR_EXAMPLES =
  '{exact: "56877"}, {regex: "^5\\\\d+$", flags: "i"}, {number: 56877, tolerance: 0.5}, ' +
  '{jsonPath: "$.result.total", equals: 42} or {js: "answer.includes(\'56877\')"}';

const validatorSchemas = {
  exact: z.strictObject({ exact: z.string() }),
  regex: z.strictObject({
    regex: z.string().min(1).refine(isRegex, 'is not a valid regular expression'),
    flags: z
      .string()
      .regex(/^[imsu]*$/, 'may hold only the letters i, m, s and u')
      .optional(),
  }),
  number: z.strictObject({ number: z.number().finite(), tolerance: z.number().finite().nonnegative().optional() }),
  jsonPath: z.strictObject({
    jsonPath: z
      .string()
      .regex(/^\$?(\.[A-Za-z_$][\w$-]*|\[\d+\]|\["[^"]*"\])*$/, 'must be a path like $.items[0].name or $["a key"]'),
    equals: z.unknown().refine((v) => v !== undefined, 'is required: the value the path must hold'),
  }),
  js: z.strictObject({ js: z.string().trim().min(1, 'must be a JavaScript expression or program over `answer`') }),
} satisfies Record<(typeof VALIDATOR_KINDS)[number], z.ZodType>;

function isRegex(source: string): boolean {
  try {
    new RegExp(source);
    return true;
  } catch {
    return false;
  }
}

const builtinTaskSchema = z.strictObject({
  builtin: z.string().refine((id) => findTask(id) !== undefined, {
    message: `is not a built-in task; use one of ${BUILTIN_TASKS.map((t) => t.id).join(', ')}`,
  }),
});

const customTaskSchema = z.strictObject({
  id: z
    .string()
    .regex(
      /^[A-Za-z0-9][\w.-]{0,63}$/,
      'must be 1–64 letters, digits, ".", "_" or "-", starting with a letter or digit',
    ),
  text: z.string().trim().min(1, 'is the task given to every mode: write it as one string'),
  fixture: z.string().min(1, 'is a folder relative to the suite file; leave it out for an empty workspace').optional(),
  validator: z.unknown().optional(),
});

const suiteHeadSchema = z.strictObject({
  name: z.string().trim().min(1, 'names the suite: write e.g. name: "my tasks"'),
  modes: z
    .array(z.string())
    .min(1, `lists at least one mode: ${MODE_IDS.join(', ')}`)
    .optional(),
  trials: z.number().int().min(1).max(MAX_TRIALS).optional(),
  settings: z.record(z.string(), z.unknown()).optional(),
  /** The columns instead of modes (shared/variants.ts), or `models` with `modes` for every model × every mode. */
  variants: z.array(z.unknown()).optional(),
  models: z.array(z.string().trim().min(1, 'names a model')).min(1, 'lists at least one model').optional(),
  tasks: z.array(z.unknown()).min(1, 'lists at least one task: {builtin: "calc"} or {id, text, validator}'),
});

export type SuiteTask =
  | { readonly kind: 'builtin'; readonly id: string; readonly text: string }
  | {
      readonly kind: 'custom';
      readonly id: string;
      readonly text: string;
      /** As written in the file (relative to it); the loader resolves it. */
      readonly fixture: string | null;
      readonly validator: SuiteValidator | null;
    };

export interface Suite {
  readonly name: string;
  /** The task set the suite is (shared/task-set-suites.ts): its reports add the paper's table. */
  readonly taskSet?: string;
  readonly modes: readonly ModeId[] | null;
  /** The columns when the suite gives variants (or models × modes); null: the modes under one model. */
  readonly variants: readonly VariantInput[] | null;
  readonly trials: number | null;
  readonly settings: RunSettingsInput | null;
  readonly tasks: readonly SuiteTask[];
}

export class SuiteError extends Error {
  constructor(
    readonly problems: readonly string[],
    source: string,
  ) {
    super(
      `The suite ${source} is not valid:\n${problems.map((p) => `  - ${p}`).join('\n')}\nFix these and run it again.`,
    );
    this.name = 'SuiteError';
  }
}

const where = (prefix: string, path: readonly PropertyKey[]): string =>
  [prefix, ...path.map((p) => (typeof p === 'number' ? `[${p}]` : `.${String(p)}`))].join('').replace(/^\./, '') ||
  'suite';

function issuesOf(error: z.ZodError, prefix: string): string[] {
  return error.issues.map((i) => {
    const msg =
      i.code === 'unrecognized_keys' ? `unknown field${i.keys.length > 1 ? 's' : ''} ${i.keys.join(', ')}` : i.message;
    return `${where(prefix, i.path)}: ${msg}`;
  });
}

function parseValidator(raw: unknown, at: string, problems: string[]): SuiteValidator | null {
  if (raw === undefined || raw === null) return null;
  const kinds =
    typeof raw === 'object' && !Array.isArray(raw) ? VALIDATOR_KINDS.filter((k) => k in (raw as object)) : [];
  if (kinds.length !== 1) {
    const why =
      kinds.length === 0 ? 'needs one of exact, regex, number, jsonPath or js' : `has ${kinds.join(' and ')}: keep one`;
    problems.push(`${at}: ${why}, e.g. ${VALIDATOR_EXAMPLES}`);
    return null;
  }
  const parsed = validatorSchemas[kinds[0]].safeParse(raw);
  if (!parsed.success) {
    problems.push(...issuesOf(parsed.error, at));
    return null;
  }
  return parsed.data as SuiteValidator;
}

/** Checks a parsed suite file; throws SuiteError listing every problem (task index and field, what to write). */
export function parseSuite(raw: unknown, source: string): Suite {
  const head = suiteHeadSchema.safeParse(raw);
  if (!head.success) throw new SuiteError(issuesOf(head.error, ''), source);
  const problems: string[] = [];
  const { name, modes, trials, settings } = head.data;
  for (const [i, m] of (modes ?? []).entries())
    if (!isModeId(m)) problems.push(`modes[${i}]: "${m}" is not a mode; use ${MODE_IDS.join(', ')}`);
  if (modes && new Set(modes).size !== modes.length) problems.push('modes: a mode is listed twice; list each once');
  const variants = suiteVariants(head.data, problems);
  if (settings) {
    // A suite written before a setting was renamed uses its former name: read as today's (parseSettings does too).
    const conflict = formerNameConflict(settings);
    if (conflict) problems.push(`settings: ${conflict}`);
    const current = currentSettingNames(settings);
    const unknown = conflict ? null : unknownSettingsMessage(current, "the suite's settings");
    if (unknown) problems.push(unknown);
    const s = runSettingsSchema.safeParse(current);
    if (!s.success) problems.push(...issuesOf(s.error, 'settings'));
  }
  const tasks: SuiteTask[] = [];
  const seen = new Set<string>();
  for (const [i, t] of head.data.tasks.entries()) {
    const at = `tasks[${i}]`;
    if (typeof t !== 'object' || t === null || Array.isArray(t)) {
      problems.push(`${at}: must be {builtin: "<task id>"} or {id, text, fixture?, validator?}`);
      continue;
    }
    let task: SuiteTask | null = null;
    if ('builtin' in t) {
      const b = builtinTaskSchema.safeParse(t);
      if (!b.success) problems.push(...issuesOf(b.error, at));
      else task = { kind: 'builtin', id: b.data.builtin, text: findTask(b.data.builtin)!.text };
    } else {
      const c = customTaskSchema.safeParse(t);
      const label = c.success ? `${at} (${c.data.id})` : at;
      if (!c.success) problems.push(...issuesOf(c.error, at));
      const validator = parseValidator((t as { validator?: unknown }).validator, `${label}.validator`, problems);
      if (c.success)
        task = { kind: 'custom', id: c.data.id, text: c.data.text, fixture: c.data.fixture ?? null, validator };
    }
    if (task) {
      if (seen.has(task.id)) problems.push(`${at}: the task id "${task.id}" is used twice; give each task its own id`);
      seen.add(task.id);
      tasks.push(task);
    }
  }
  if (problems.length > 0) throw new SuiteError(problems, source);
  return {
    name,
    modes: variants ? [...new Set(variants.map((v) => v.mode))] : ((modes as ModeId[] | undefined) ?? null),
    variants,
    trials: trials ?? null,
    settings: (currentSettingNames(settings) as RunSettingsInput | undefined) ?? null,
    tasks,
  };
}

/** A suite's columns: `variants` as written, or `models` × `modes` (the default modes without `modes`); null for plain modes. */
function suiteVariants(
  head: { modes?: string[]; variants?: unknown[]; models?: string[] },
  problems: string[],
): VariantInput[] | null {
  if (head.variants && head.models)
    problems.push(
      'variants, models: give either variants (the columns) or models with modes (every model × every mode)',
    );
  else if (head.variants && head.modes)
    problems.push('variants: each column names its mode; leave modes out (or use models with modes)');
  else {
    try {
      if (head.variants) return parseVariants(head.variants);
      if (head.models)
        return parseVariants(matrixVariants(head.models, ((head.modes ?? DEFAULT_MODES) as ModeId[]).filter(isModeId)));
    } catch (err) {
      problems.push((err as Error).message);
    }
  }
  return null;
}

/** The suite named "builtin": every built-in task (shared/tasks.ts), judged by its own validator. */
export const BUILTIN_SUITE_NAME = 'builtin';
export function builtinSuite(): Suite {
  return {
    name: BUILTIN_SUITE_NAME,
    modes: null,
    variants: null,
    trials: null,
    settings: null,
    tasks: BUILTIN_TASKS.map((t) => ({ kind: 'builtin', id: t.id, text: t.text })),
  };
}

/** The second built-in suite: does ReAct with a managed history close the gap to Code Mode (issue 32)? */
export const HISTORY_SUITE_NAME = 'history';
/** The history settings it runs ReAct under, each one column beside Code Mode's. */
export const HISTORY_SUITE_SETTINGS = [
  'full',
  'window:2',
  'clear-results:2',
  'clear-results:4',
  'summarize:3',
] as const;

/** Every built-in task, ReAct under each history setting and Code Mode, 3 trials each. */
export function historySuite(): Suite {
  return {
    name: HISTORY_SUITE_NAME,
    modes: null,
    trials: 3,
    settings: null,
    variants: [
      ...HISTORY_SUITE_SETTINGS.map((toolHistory) => ({ mode: 'react' as const, settings: { toolHistory } })),
      { mode: 'code' as const },
    ],
    tasks: BUILTIN_TASKS.map((t) => ({ kind: 'builtin', id: t.id, text: t.text })),
  };
}

/** One task of a suite run as stored: its comparison and the judgement of each run. */
export interface SuiteRecordTask {
  readonly taskId: string;
  readonly kind: 'builtin' | 'custom';
  readonly text: string;
  readonly validator: SuiteValidator | null;
  /** null when the comparison could not start (error says why). */
  readonly comparisonId: string | null;
  readonly error: string | null;
  /** Per run id: the suite validator's judgement (custom tasks) or the run's own (built-in tasks); null: no answer. */
  readonly validations: Readonly<Record<string, Validation | null>>;
}

/** `<data>/suites/<id>.json`: one suite run. Figures are recomputed from the stored comparisons, never stored. */
export interface SuiteRecord {
  readonly version: 1;
  readonly id: string;
  readonly name: string;
  /** 'builtin' or the suite file's path. */
  readonly source: string;
  readonly createdAt: number;
  readonly modes: readonly ModeId[];
  /** The columns every task ran, when the suite ran variants (absent in records of modes, as before). */
  readonly variants?: readonly VariantInput[];
  readonly trials: number;
  readonly provider: ProviderInfo | null;
  readonly tasks: readonly SuiteRecordTask[];
  /** The task set it ran (absent for other suites): its reports add the paper's table. */
  readonly taskSet?: string;
}

export const suiteRecordSchema = z.object({
  version: z.literal(1),
  id: z.string().regex(/^[\w-]+$/),
  name: z.string(),
  source: z.string(),
  createdAt: z.number(),
  modes: z.array(z.enum(COLUMN_MODE_IDS)),
  variants: z.array(z.looseObject({ mode: z.enum(COLUMN_MODE_IDS) })).optional(),
  trials: z.number().int().min(1),
  taskSet: z.string().optional(),
  provider: z.object({ name: z.string(), baseUrl: z.string(), model: z.string(), simulated: z.boolean() }).nullable(),
  tasks: z.array(
    z.object({
      taskId: z.string(),
      kind: z.enum(['builtin', 'custom']),
      text: z.string(),
      validator: z.unknown().transform((v) => (v ?? null) as SuiteValidator | null),
      comparisonId: z.string().nullable(),
      error: z.string().nullable(),
      validations: z.record(z.string(), z.object({ ok: z.boolean(), detail: z.string() }).nullable()),
    }),
  ),
});
