/**
 * The composer's form, as plain data, and its conversion into a ComparisonRequest. Settings are validated with
 * the same schema as the host (shared/run-spec.ts): per field for messages at the field, then as a whole with
 * parseSettings, which is what the host runs too.
 */
import { knobValues, type KnobId, type KnobSettings } from '../../shared/run-knobs.js';
import type { ToolsetId } from '../../shared/toolsets.js';
import type { SearchBackendId } from '../../shared/search-backends.js';
import type { ApprovalPolicyInput } from '../../shared/approval.js';
import { findPreset, type ProviderProtocol } from '../../shared/providers.js';
import { checkMcpField, mcpConfigToSave } from './mcp-field.js';
import { checkConcurrency } from '../../shared/concurrency.js';
import {
  checkTrials,
  DEFAULT_SETTINGS,
  MODE_IDS,
  SIM_FAULT_LABELS,
  SIM_FAULTS,
  parseSettings,
  runSettingsSchema,
  type ComparisonRequest,
  type ModeId,
  type PromptCacheSetting,
  type RunSettings,
  type SimFault,
} from '../../shared/run-spec.js';
import { checkVariants, type VariantDraft } from './composer-variants.js';
import { simModelProblem } from '../../shared/sim-models.js';

export const NUMERIC_SETTINGS = [
  'maxSteps',
  'truncateChars',
  'temperature',
  'maxRetries',
  'requestTimeoutMs',
  'streamIdleTimeoutMs',
  'requestDeadlineMs',
  'codeTimeoutMs',
  'codeMemoryMb',
  'codeOutputChars',
  'codeMaxToolCalls',
] as const satisfies readonly (keyof RunSettings)[];
export type NumericSetting = (typeof NUMERIC_SETTINGS)[number];

/** Text as typed (so a half-typed value is not lost), plus the non-numeric settings. */
export type SettingsDraft = { readonly [K in NumericSetting]: string } & {
  readonly returnTypes: boolean;
  readonly streamOptions: boolean;
  readonly toolset: ToolsetId;
  /** Where web_search looks (absent in forms saved before it existed: off). */
  readonly webSearch?: SearchBackendId;
  /** The search backend's URL as typed ('' = its default). */
  readonly webSearchUrl?: string;
  /** Anthropic only: what is marked for the provider's prompt cache. */
  readonly promptCache: PromptCacheSetting;
  readonly simFaults: readonly SimFault[];
  /** Tools the user set an approval mode for; the others take the host's default. */
  readonly approvals?: ApprovalPolicyInput;
} & Partial<KnobSettings>; // The experiment knobs (shared/run-knobs.ts); a form saved before one existed lacks it: its default.

/** The experiment knobs the composer sets (each a choice of values, described in shared/run-knobs.ts). */
export type KnobSetting = KnobId;

export const SETTING_INFO: Record<NumericSetting, { label: string; unit?: string; hint: string }> = {
  maxSteps: { label: 'Max steps', hint: 'Model requests per run before it stops with max-steps.' },
  truncateChars: { label: 'Truncate tool results', unit: 'chars', hint: 'Longer results are cut, with a marker.' },
  temperature: { label: 'Temperature', hint: 'Empty: the provider’s default.' },
  maxRetries: { label: 'Retries per request', hint: 'For 429, 5xx, network errors and broken streams.' },
  requestTimeoutMs: { label: 'Request timeout', unit: 'ms', hint: 'Wait for the response headers.' },
  streamIdleTimeoutMs: {
    label: 'Stream idle timeout',
    unit: 'ms',
    hint: 'Longest silence between chunks; keep-alives do not count.',
  },
  requestDeadlineMs: { label: 'Request deadline', unit: 'ms', hint: 'Longest time one model request may take.' },
  codeTimeoutMs: { label: 'Code timeout', unit: 'ms', hint: 'run_code (Code Mode, Hybrid): per program.' },
  codeMemoryMb: { label: 'Code memory', unit: 'MB', hint: 'run_code: sandbox heap.' },
  codeOutputChars: { label: 'Printed output limit', unit: 'chars', hint: 'run_code: what returns to the model.' },
  codeMaxToolCalls: { label: 'Tool calls per program', hint: 'run_code: calls inside one program.' },
};

export { SIM_FAULT_LABELS, SIM_FAULTS };

export function draftFromSettings(s: RunSettings): SettingsDraft {
  return {
    maxSteps: String(s.maxSteps),
    truncateChars: String(s.truncateChars),
    temperature: s.temperature === null ? '' : String(s.temperature),
    maxRetries: String(s.maxRetries),
    requestTimeoutMs: String(s.requestTimeoutMs),
    streamIdleTimeoutMs: String(s.streamIdleTimeoutMs),
    requestDeadlineMs: String(s.requestDeadlineMs),
    codeTimeoutMs: String(s.codeTimeoutMs),
    codeMemoryMb: String(s.codeMemoryMb),
    codeOutputChars: String(s.codeOutputChars),
    codeMaxToolCalls: String(s.codeMaxToolCalls),
    returnTypes: s.returnTypes,
    streamOptions: s.streamOptions,
    toolset: s.toolset,
    webSearch: s.webSearch,
    webSearchUrl: s.webSearchUrl ?? '',
    promptCache: s.promptCache,
    simFaults: s.simFaults,
    approvals: s.approvals,
    ...knobValues(s),
  };
}

export const DEFAULT_DRAFT: SettingsDraft = draftFromSettings(DEFAULT_SETTINGS);

function toValue(key: NumericSetting, text: string): number | null | undefined {
  const t = text.trim();
  if (t === '') return key === 'temperature' ? null : undefined;
  return Number(t.replace(/[_,\s]/g, ''));
}

/** A zod issue in words a user reads at the field. */
function describeIssue(issue: {
  code: string;
  message: string;
  minimum?: unknown;
  maximum?: unknown;
  expected?: unknown;
}): string {
  if (issue.code === 'too_big') return `Must be at most ${Number(issue.maximum).toLocaleString('en-US')}.`;
  if (issue.code === 'too_small') return `Must be at least ${Number(issue.minimum).toLocaleString('en-US')}.`;
  if (issue.code === 'invalid_type' && issue.expected === 'int') return 'Must be a whole number.';
  if (issue.code === 'invalid_type') return 'Must be a number.';
  return issue.message;
}

export interface SettingsCheck {
  readonly settings: RunSettings | null;
  readonly fieldErrors: Partial<Record<NumericSetting | 'webSearchUrl', string>>;
  /** parseSettings' own message when the whole object fails for a reason no single field explains. */
  readonly formError: string | null;
}

export function checkSettings(draft: SettingsDraft, simulated: boolean): SettingsCheck {
  const fieldErrors: Partial<Record<NumericSetting | 'webSearchUrl', string>> = {};
  const webSearch = draft.webSearch ?? 'off';
  const webSearchUrl = webSearch === 'off' || webSearch === 'fixture' ? null : draft.webSearchUrl?.trim() || null;
  const input: Record<string, unknown> = {
    returnTypes: draft.returnTypes,
    streamOptions: draft.streamOptions,
    toolset: draft.toolset,
    promptCache: draft.promptCache,
    simFaults: simulated ? [...draft.simFaults] : [],
    approvals: { ...draft.approvals },
    webSearch,
    webSearchUrl,
    ...knobValues(draft),
  };
  if (webSearchUrl !== null && !runSettingsSchema.shape.webSearchUrl.safeParse(webSearchUrl).success) {
    fieldErrors.webSearchUrl = 'Must be an http:// or https:// URL, e.g. http://127.0.0.1:8888.';
  }
  for (const key of NUMERIC_SETTINGS) {
    const value = toValue(key, draft[key]);
    if (value === undefined) continue;
    const r = runSettingsSchema.shape[key].safeParse(value);
    if (!r.success) fieldErrors[key] = describeIssue(r.error.issues[0] as never);
    input[key] = value;
  }
  if (Object.keys(fieldErrors).length > 0) return { settings: null, fieldErrors, formError: null };
  try {
    return { settings: parseSettings(input), fieldErrors, formError: null };
  } catch (err) {
    return { settings: null, fieldErrors, formError: err instanceof Error ? err.message : String(err) };
  }
}

export interface ComposerForm {
  readonly taskChoice: string; // a built-in task id, or 'custom'
  readonly customTask: string;
  readonly providerName: string;
  readonly baseUrl: string;
  readonly model: string;
  readonly modes: readonly ModeId[];
  /** Trials per mode, as typed. */
  readonly trials: string;
  readonly settings: SettingsDraft;
  /** Custom provider: the key variable the host accepted (keys:use-env) for this session; never saved. */
  readonly apiKeyEnv?: string;
  /** Custom provider: the protocol its server speaks ('openai' when absent). */
  readonly protocol?: ProviderProtocol;
  /** A folder of the user's to copy as the workspace: the path shown (typed on the web host). */
  readonly workspaceDir?: string;
  /** Desktop: the folder dialog's handle for `workspaceDir`; the page can name a folder only by it. Never saved. */
  readonly workspaceHandle?: string | null;
  /** The columns as rows (store/composer-variants.ts); absent or empty: one plain column per selected mode. */
  readonly variants?: readonly VariantDraft[];
  /** Rounds at once as typed ('' or absent: the host's default). */
  readonly concurrency?: string;
  /** The `mcpServers` JSON as pasted under Advanced → MCP servers ('' or absent: none). */
  readonly mcpConfig?: string;
}

/** The form as it is saved between sessions: without what the host granted to this session only, nor MCP secrets. */
export function savedForm<F extends Partial<ComposerForm>>(form: F): F {
  const { apiKeyEnv: _env, workspaceHandle, workspaceDir, mcpConfig, ...rest } = form;
  const mcp = mcpConfig === undefined ? undefined : mcpConfigToSave(mcpConfig);
  // A folder picked in the desktop dialog is named by a handle of this session only: it is picked again.
  return {
    ...rest,
    ...(!workspaceHandle && workspaceDir ? { workspaceDir } : {}),
    ...(mcp !== undefined ? { mcpConfig: mcp } : {}),
  } as F;
}

/** What the request names as the workspace: the dialog's handle, else the typed path, else nothing. */
export function requestedWorkspace(form: Pick<ComposerForm, 'workspaceDir' | 'workspaceHandle'>): string | null {
  return form.workspaceHandle || form.workspaceDir?.trim() || null;
}

export interface FormErrors {
  task?: string;
  modes?: string;
  trials?: string;
  model?: string;
  baseUrl?: string;
  settings?: string;
  /** A variant row or the set of them (composer-variants.ts checkVariants says which). */
  variants?: string;
  mcp?: string;
  concurrency?: string;
}

export function effectiveBaseUrl(form: Pick<ComposerForm, 'providerName' | 'baseUrl'>): string | null {
  const preset = findPreset(form.providerName);
  const typed = form.baseUrl.trim();
  if (form.providerName === 'simulated') return null;
  // A preset that needs a key keeps its own URL (its key goes nowhere else), whatever an older form held.
  if (preset?.needsKey && preset.baseUrl) return preset.baseUrl;
  return typed || preset?.baseUrl || null;
}

// Trials are checked by the one rule of shared/run-spec.ts, as the CLI and the host check them.
export { checkTrials, type TrialsCheck } from '../../shared/run-spec.js';

/** "Run", "Run 2 modes", "Run 2 modes × 3", "Run 4 variants": what pressing the button starts. */
export function runLabel(modes: number, trials: number | null, what: 'mode' | 'variant' = 'mode'): string {
  const times = trials !== null && trials > 1 ? ` × ${trials}` : '';
  if (modes <= 1 && !times && what === 'mode') return 'Run';
  return `Run ${modes} ${what}${modes === 1 ? '' : 's'}${times}`;
}

/**
 * The chosen modes in the app's own order (MODE_IDS), whatever order they were ticked in, so the first column
 * (the baseline of every Δ) is the same each time; names this version does not know are dropped.
 */
export function orderModes(modes: readonly string[]): ModeId[] {
  return MODE_IDS.filter((m) => modes.includes(m));
}

export function buildRequest(form: ComposerForm): {
  request: ComparisonRequest | null;
  errors: FormErrors;
  check: SettingsCheck;
} {
  const errors: FormErrors = {};
  const simulated = form.providerName === 'simulated';
  const task = form.taskChoice === 'custom' ? form.customTask.trim() : form.taskChoice;
  if (!task) errors.task = 'Describe the task, or pick a built-in one.';
  const rows = form.variants ?? [];
  if (form.modes.length === 0 && rows.length === 0) errors.modes = 'Pick at least one mode.';
  const trials = checkTrials(form.trials);
  if (trials.error !== null) errors.trials = trials.error;
  const simProblem = simulated && form.model.trim() ? simModelProblem(form.model.trim()) : null;
  if (!form.model.trim()) errors.model = 'Name the model to use.';
  else if (simProblem) errors.model = simProblem;
  const baseUrl = effectiveBaseUrl(form);
  if (!simulated) {
    if (!baseUrl) errors.baseUrl = 'Enter the server’s base URL, e.g. http://127.0.0.1:8000/v1.';
    else if (!/^https?:\/\/[^\s/]+/.test(baseUrl)) errors.baseUrl = 'The base URL must start with http:// or https://.';
  }
  const check = checkSettings(form.settings, simulated);
  if (!check.settings) errors.settings = check.formError ?? 'Fix the highlighted settings.';
  const columns =
    rows.length > 0
      ? checkVariants(rows, { provider: form.providerName, model: form.model, settings: check.settings })
      : null;
  if (columns && !columns.variants)
    errors.variants = columns.error ?? columns.rowErrors.find((e) => e !== null) ?? 'Fix the highlighted variants.';
  const mcp = checkMcpField(form.mcpConfig);
  if (mcp.error) errors.mcp = mcp.error;
  // Rounds at once matter only with several rounds; empty takes the host's default.
  const concurrency =
    form.concurrency?.trim() && trials.trials !== null && trials.trials > 1
      ? checkConcurrency(form.concurrency, form.providerName)
      : null;
  if (concurrency?.error) errors.concurrency = concurrency.error;
  if (Object.keys(errors).length > 0 || !check.settings || trials.trials === null)
    return { request: null, errors, check };
  // The mcp approval entry governs MCP tools only: without servers it is not sent (nor recorded).
  const { mcp: mcpApproval, ...approvals } = check.settings.approvals ?? {};
  const settings = mcp.servers.length > 0 || !mcpApproval ? check.settings : { ...check.settings, approvals };
  const preset = findPreset(form.providerName);
  return {
    request: {
      task,
      // Variants replace the modes: the modes sent are theirs, in column order, for what reads only modes.
      modes: columns?.variants ? [...new Set(columns.variants.map((v) => v.mode))] : [...form.modes],
      ...(columns?.variants ? { variants: columns.variants } : {}),
      trials: trials.trials,
      ...(concurrency?.concurrency ? { concurrency: concurrency.concurrency } : {}),
      provider: {
        name: form.providerName,
        baseUrl: simulated || (preset?.baseUrl && baseUrl === preset.baseUrl) ? null : baseUrl,
        model: form.model.trim(),
        ...(form.providerName === 'custom' && form.apiKeyEnv ? { apiKeyEnv: form.apiKeyEnv } : {}),
        ...(form.providerName === 'custom' && form.protocol === 'anthropic' ? { protocol: 'anthropic' as const } : {}),
      },
      settings,
      ...(requestedWorkspace(form) ? { workspaceDir: requestedWorkspace(form) } : {}),
      ...(mcp.servers.length > 0 ? { mcpServers: mcp.servers } : {}),
    },
    errors,
    check,
  };
}
