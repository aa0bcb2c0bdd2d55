/**
 * What a run is: one task, one mode, one provider/model, one set of settings, one workspace.
 * A comparison is the same task/provider/settings over several modes, one run per mode, started together.
 */
import type { ProviderProtocol } from './providers.js';
import { z } from 'zod';
import type { ModelPrice } from './step-event.js';
import { approvalPolicySchema } from './approval.js';
import type { ModeId } from './modes.js';
import { TOOLSET_IDS } from './toolsets.js';
import { SEARCH_BACKEND_IDS } from './search-backends.js';
import type { McpServerConfig } from './mcp-config.js';
import type { ColumnRef, VariantInput } from './variants.js';
import type { AgentCommand, AgentLaunch } from './agent-command.js';
import { KNOB_FIELDS } from './run-knobs.js';
import { currentSettingNames, formerNameConflict } from './former-setting-names.js';

// Renamed settings are read under today's names (former-setting-names.ts); re-exported for the readers of run-spec.
export { currentSettingNames, formerNameConflict } from './former-setting-names.js';

// The modes are described in modes.ts; re-exported here for the many readers of run-spec.
export { COLUMN_MODE_IDS, DEFAULT_MODES, isModeId, MODE_IDS, MODE_LABELS, type ModeId } from './modes.js';

/** Faults the simulated model can inject, for tests and demos of the error paths. */
export const SIM_FAULTS = [
  '429-once',
  '500',
  'hang',
  'slow',
  'malformed-args',
  'unknown-tool',
  'loop-forever',
  'repeat-call',
] as const;
export type SimFault = (typeof SIM_FAULTS)[number];

/** What each fault does, in the words of the composer, the CLI help and the error for an unknown fault. */
export const SIM_FAULT_LABELS: Record<SimFault, string> = {
  '429-once': '429 once (retried)',
  '500': '500 on every request',
  hang: 'Hang (never answers)',
  slow: 'Slow replies (a pause before each, like a real model)',
  'malformed-args': 'Malformed tool arguments',
  'unknown-tool': 'Calls an unknown tool',
  'loop-forever': 'Program loops forever',
  'repeat-call': 'Repeats its first call',
};

/**
 * Response header of the simulated model when it has no policy for the task (it only knows the built-in
 * tasks): its canned reply then ends the run as 'no-policy', not as an answer.
 */
export const SIM_POLICY_HEADER = 'x-parallax-sim-policy';

/** Prompt caching on the Anthropic Messages API, per variant: what each value marks with cache_control. */
export const PROMPT_CACHES = ['off', 'on', 'conversation'] as const;
export type PromptCacheSetting = (typeof PROMPT_CACHES)[number];
export const PROMPT_CACHE_HELP: Record<PromptCacheSetting, string> = {
  off: 'no cache_control: every request is billed as uncached input',
  on: "cache_control on the tools and the system prompt: a request whose tools and system prompt repeat reads them from the cache (tools that change, as tool search adds them, write a new entry; prefixes under the model's minimum, 1024–4096 tokens, are never cached)",
  conversation: 'as "on", plus on the last message: each step reads the conversation the step before it wrote',
};

export const runSettingsSchema = z.object({
  maxSteps: z.number().int().min(1).max(100).default(10),
  /** A tool result longer than this many characters is truncated, with a visible marker. */
  truncateChars: z.number().int().min(100).max(1_000_000).default(4000),
  temperature: z.number().min(0).max(2).nullable().default(null),
  /** Retries of a failed model request (429, 5xx, network) before the run ends with an error. */
  maxRetries: z.number().int().min(0).max(10).default(3),
  /** Longest wait for the response headers of one model request, ms. */
  requestTimeoutMs: z.number().int().min(1000).max(600_000).default(120_000),
  /** Longest silence between two data events of a streamed reply, ms; keep-alive comments do not count. */
  streamIdleTimeoutMs: z.number().int().min(1000).max(3_600_000).default(120_000),
  /** Longest time one model request may take, from sending it to its last byte, ms. */
  requestDeadlineMs: z.number().int().min(1000).max(7_200_000).default(600_000),
  /** Ask for usage in the stream (stream_options.include_usage); dropped by itself when a provider refuses it. */
  streamOptions: z.boolean().default(true),
  /** Anthropic Messages API only: which part of each request is marked for the provider's prompt cache (PROMPT_CACHE_HELP). */
  promptCache: z.enum(PROMPT_CACHES).default('off'),
  /** Code Mode sandbox limits. */
  codeTimeoutMs: z.number().int().min(100).max(300_000).default(10_000),
  codeMemoryMb: z.number().int().min(8).max(1024).default(64),
  codeOutputChars: z.number().int().min(100).max(1_000_000).default(4000),
  codeMaxToolCalls: z.number().int().min(1).max(10_000).default(50),
  /** Show return types in the Code Mode catalog. Off reproduces a model's wrong guess of a tool's result. */
  returnTypes: z.boolean().default(true),
  /** The experiment knobs (shared/run-knobs.ts): each one of its named values, its default when absent. */
  ...KNOB_FIELDS,
  /** Which tools and prompts the modes offer (shared/toolsets.ts); 'seed' reproduces the reference tutorial's. */
  toolset: z.enum(TOOLSET_IDS).default('parallax'),
  /** Where web_search looks (shared/search-backends.ts); 'off' offers no web_search to free-text tasks. */
  webSearch: z.enum(SEARCH_BACKEND_IDS).default('off'),
  /** The search backend's URL when not its default (a SearXNG instance; a proxy for Brave or Tavily). */
  webSearchUrl: z
    .url({ protocol: /^https?$/, error: 'must be an http:// or https:// URL' })
    .nullable()
    .default(null),
  /** Simulated model only: faults to inject. */
  simFaults: z.array(z.enum(SIM_FAULTS)).default([]),
  /** Per dangerous tool: allow, ask the user, or deny (shared/approval.ts); the host fills in the defaults. */
  approvals: approvalPolicySchema,
});

export type RunSettings = z.infer<typeof runSettingsSchema>;
export type RunSettingsInput = z.input<typeof runSettingsSchema>;

export const DEFAULT_SETTINGS: RunSettings = runSettingsSchema.parse({});

/** The settings as stored in meta.json and run-started: former names read as today's, both names refused. */
export const storedSettingsSchema = z.preprocess((value, ctx) => {
  const conflict = formerNameConflict(value);
  if (conflict) ctx.addIssue({ code: 'custom', message: conflict, input: value });
  return currentSettingNames(value);
}, runSettingsSchema);

/** Parse user-supplied settings; throws an Error whose message names each bad field and its allowed range. */
/** Edit distance of two short names (for "did you mean"). */
function distance(a: string, b: string): number {
  const row = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    let prev = row[0]!;
    row[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const cur = row[j]!;
      row[j] = Math.min(row[j]! + 1, row[j - 1]! + 1, prev + (a[i - 1] === b[j - 1] ? 0 : 1));
      prev = cur;
    }
  }
  return row[b.length]!;
}

/** The name among `names` closest to `name` (case aside), when it is close enough to be a slip. */
export function closestName(name: string, names: readonly string[]): string | null {
  let best: string | null = null;
  let bestD = Infinity;
  for (const n of names) {
    const d = distance(name.toLowerCase(), n.toLowerCase());
    if (d < bestD) [best, bestD] = [n, d];
  }
  return best !== null && bestD <= Math.max(2, Math.floor(best.length / 3)) ? best : null;
}

export const SETTING_KEYS: readonly string[] = Object.keys(runSettingsSchema.shape);

/** Keys of a settings object that are no setting, each with the nearest valid name; null when there are none. */
export function unknownSettingsMessage(input: unknown, where = 'settings'): string | null {
  if (!input || typeof input !== 'object' || Array.isArray(input)) return null;
  const unknown = Object.keys(input).filter((k) => !SETTING_KEYS.includes(k));
  if (unknown.length === 0) return null;
  const each = unknown.map((k) => {
    const near = closestName(k, SETTING_KEYS);
    return `"${k}"${near ? ` (did you mean "${near}"?)` : ''}`;
  });
  return `Unknown ${unknown.length === 1 ? 'key' : 'keys'} in ${where}: ${each.join(', ')}. Valid settings: ${SETTING_KEYS.join(', ')}.`;
}

export function parseSettings(given: unknown): RunSettings {
  const conflict = formerNameConflict(given);
  if (conflict) throw new Error(`Invalid run settings — ${conflict}. Fix these values and start again.`);
  // Settings saved under a former name (old comparisons, suites, composer choices) keep their value.
  const input = currentSettingNames(given);
  // A misspelt key would otherwise be dropped silently and the run would use the default.
  const unknown = unknownSettingsMessage(input);
  if (unknown) throw new Error(`Invalid run settings — ${unknown} Fix these values and start again.`);
  const result = runSettingsSchema.safeParse(input ?? {});
  if (result.success) return result.data;
  const problems = result.error.issues.map((i) => `${i.path.join('.') || 'settings'}: ${i.message}`);
  throw new Error(`Invalid run settings — ${problems.join('; ')}. Fix these values and start again.`);
}

export interface TaskRef {
  /** Built-in task id, when the task is one of them. */
  readonly id: string | null;
  readonly text: string;
}

/** The provider as recorded in events and reports. Never holds a key. */
export interface ProviderInfo {
  /** Preset name ('simulated', 'openai', 'deepseek', …, 'custom'). */
  readonly name: string;
  readonly baseUrl: string;
  readonly model: string;
  readonly simulated: boolean;
  /** The custom provider's wire protocol when it is not OpenAI chat completions (an Anthropic-compatible gateway). */
  readonly protocol?: ProviderProtocol;
}

/** Everything a worker needs to run one mode. The API key travels beside it, never inside it. */
export interface RunSpec {
  readonly runId: string;
  readonly comparisonId?: string;
  readonly task: TaskRef;
  readonly mode: ModeId;
  readonly provider: ProviderInfo;
  /** Name of the environment variable holding the key (for the record; the value is passed separately). */
  readonly apiKeyEnv: string | null;
  readonly settings: RunSettings;
  /** Absolute path of this run's own workspace copy. */
  readonly workspace: string;
  /** The model's price from the user's table, resolved when the comparison starts (null: none); recorded in run-started. */
  readonly price?: ModelPrice | null;
  /** The local test page of tasks that fetch one: the only local origin fetch_url may reach in this run. */
  readonly fixtureUrl?: string | null;
  /** Which trial of its mode this run is, 1-based (absent: 1); the simulated model varies its behaviour by it. */
  readonly trial?: number;
  /**
   * MCP servers whose tools every mode offers (shared/mcp-config.ts). Like the keys, not recorded as such (a
   * server's env may hold a token): run-started records the tools they brought.
   */
  readonly mcpServers?: readonly McpServerConfig[];
  /** Its column when the comparison runs variants (shared/variants.ts); absent: the plain column of its mode. */
  readonly variant?: ColumnRef;
  /** Mode "agent": the program to run (its env's values are the user's, passed like a key, never recorded). */
  readonly agent?: AgentCommand;
  /** Mode "agent": how its program starts and what it sees, resolved by the host (absent: the engine resolves it). */
  readonly agentLaunch?: AgentLaunch;
}

/** Most trials per mode in one comparison. */
export const MAX_TRIALS = 10;

export type TrialsCheck =
  | { readonly trials: number; readonly error: null }
  | { readonly trials: null; readonly error: string };

/**
 * Trials per mode as typed (composer field, CLI flag) or sent (a number, as text): a whole number from 1 to
 * MAX_TRIALS, with the reason in words when it is not. The one rule of the composer, the CLI and the host.
 */
export function checkTrials(text: string): TrialsCheck {
  const t = text.trim();
  const range = `a whole number from 1 to ${MAX_TRIALS}`;
  if (t === '') return { trials: null, error: `Enter how many times to run each mode: ${range}.` };
  if (!/^[+-]?(\d+\.?\d*|\.\d+)$/.test(t)) return { trials: null, error: `Must be ${range}.` };
  const n = Number(t);
  if (!Number.isInteger(n)) return { trials: null, error: 'Must be a whole number.' };
  if (n < 1) return { trials: null, error: 'Must be at least 1.' };
  if (n > MAX_TRIALS) return { trials: null, error: `At most ${MAX_TRIALS} trials per mode.` };
  return { trials: n, error: null };
}

/** What a user asks for when starting a comparison. */
export interface ComparisonRequest {
  /** A built-in task id, or free text. */
  readonly task: string;
  readonly modes: readonly ModeId[];
  /**
   * Runs per mode (1 by default, at most MAX_TRIALS). One run is noise: a model decides differently each
   * time. Trials run in rounds; each round starts one run of every mode together, on the same fixture.
   */
  readonly trials?: number;
  readonly provider: {
    readonly name: string;
    readonly baseUrl: string | null;
    readonly model: string;
    /** Name of an environment variable holding the key (CLI), or null. */
    readonly apiKeyEnv?: string | null;
    /** The custom provider's protocol (default 'openai'); a preset speaks its own. */
    readonly protocol?: ProviderProtocol | null;
  };
  readonly settings?: RunSettingsInput;
  /**
   * A folder to copy as the workspace instead of the task's fixture: a path (CLI; web host: inside a folder
   * allowed with --allow-dir) or the handle the desktop folder dialog issued (workspace:choose).
   */
  readonly workspaceDir?: string | null;
  /** MCP servers whose tools every run offers, already checked (parseMcpConfig). */
  readonly mcpServers?: readonly McpServerConfig[];
  /**
   * The columns, when they are not simply `modes` under one model (shared/variants.ts, checked by parseVariants):
   * each a mode with its own provider/model and setting overrides. Given, it replaces `modes`.
   */
  readonly variants?: readonly VariantInput[];
  /**
   * Rounds in flight at once (shared/concurrency.ts; default: the simulated model one per two cores, a real
   * provider 1), at most the provider's cap. Each round still starts its modes together.
   */
  readonly concurrency?: number;
}

export const SIMULATED_MODEL = 'sim';
