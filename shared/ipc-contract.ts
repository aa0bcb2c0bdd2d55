/**
 * The one IPC contract between the renderer and a host (the Electron main process, or the web host over a
 * WebSocket). Invoke channels are request/response; event channels are pushed by the host.
 * Channel names are `domain:verb`. Both sides use thin typed wrappers over this map.
 */
import type { AgentCommand, AgentView } from './agent-command.js';
import type { ComparisonDiff } from './comparison-diff.js';
import type { ProviderProtocol } from './providers.js';
import type { PriceTable } from './pricing.js';
import type { RunUsageSource } from './cost.js';
import type { ComparisonRequest, ModeId, ProviderInfo, RunSettings, TaskRef } from './run-spec.js';
import type { RunStatus, StepEvent } from './step-event.js';
import type { TaskInfo } from './tasks.js';
import type { ColumnRef, VariantRecord } from './variants.js';

export interface ComparisonMeta {
  readonly id: string;
  readonly createdAt: number;
  readonly task: TaskRef;
  readonly provider: ProviderInfo;
  readonly settings: RunSettings;
  /** One entry per run, in start order. `trial` is 1-based; comparisons stored before trials existed lack it (= 1). */
  readonly runs: readonly {
    readonly runId: string;
    readonly mode: ModeId;
    readonly trial?: number;
    readonly variant?: string;
  }[];
  /**
   * The columns when the comparison ran variants (shared/variants.ts), in order; each run names its column's key
   * in `variant`. Absent: one plain column per mode, as before variants existed.
   */
  readonly variants?: readonly VariantRecord[];
  /** Where the workspace came from: a built-in fixture id or a user folder. */
  readonly workspaceSource: string;
  /** Rounds allowed in flight at once (shared/concurrency.ts); absent: one at a time. */
  readonly concurrency?: number;
  /** Each time a 429 paused new rounds and lowered that limit, one sentence; absent: never. */
  readonly throttled?: readonly string[];
}

export interface ComparisonListItem {
  readonly meta: ComparisonMeta;
  readonly runs: readonly {
    readonly runId: string;
    readonly mode: ModeId;
    /** Its column when the comparison ran variants (absent: its mode's plain column). */
    readonly column?: ColumnRef;
    /** 'never-started': its round never began (no event was stored); 'interrupted': it began and did not end. */
    readonly status: RunStatus | 'running' | 'interrupted' | 'never-started';
    readonly totalTokens: number;
    readonly steps: number;
    /** Where the run's usage came from ("≈" when estimated); absent from hosts older than usage sources. */
    readonly usageSource?: RunUsageSource;
    /** Whether its answer passed validation; null: not validated (no validator, or no answer); absent from older hosts. */
    readonly passed?: boolean | null;
  }[];
  /** Damage found in its run logs (lines skipped on load), one sentence each; absent when there is none. */
  readonly problems?: readonly string[];
}

/** What history:page returns: newest first, from `offset`, at most `limit`; search and filters applied first. */
export interface HistoryQuery {
  readonly offset?: number;
  /** At most 200 (default 50). */
  readonly limit?: number;
  /** Words that must all appear in the id, task (its text or title), model, provider or a column's label (any case). */
  readonly search?: string;
  readonly mode?: string;
  /** Keep comparisons with at least one run of this status. */
  readonly status?: string;
  /** 'answered': every run that ended answered; 'not-answered': one that ended otherwise (as the list's filter). */
  readonly outcome?: 'answered' | 'not-answered';
  /** Keep comparisons created at or after this time (ms since the epoch). */
  readonly since?: number;
}

export interface HistoryPage {
  readonly items: readonly ComparisonListItem[];
  /** How many comparisons match the query in all (the pages together). */
  readonly total: number;
  /** How many sound comparisons are stored, whatever the query. */
  readonly stored: number;
  /** The offset of the next page; null when this is the last. */
  readonly nextOffset: number | null;
  /** Damaged comparisons (listed by history:damaged), counted so the panel can say so. */
  readonly damagedCount: number;
}

/** A stored comparison whose meta.json cannot be read or is not a valid record: listed so it can be deleted. */
export interface DamagedComparison {
  readonly id: string;
  /** What is wrong, in one sentence. */
  readonly reason: string;
  /** When its folder last changed (epoch ms), for ordering with the others. */
  readonly modifiedAt: number;
}

export interface StoredComparison {
  readonly meta: ComparisonMeta;
  /** Every stored event of every run, each run in seq order. */
  readonly events: readonly StepEvent[];
  /** Problems met while loading (e.g. a torn last line that was skipped). */
  readonly warnings: readonly string[];
  /** Runs with no run-finished event that are not running in this host: the app or a worker died mid-run. */
  readonly interruptedRunIds: readonly string[];
  /** Runs (among interruptedRunIds) whose record is incomplete because the history could not be written, and why. */
  readonly notRecorded?: Readonly<Record<string, string>>;
}

/** What the user may answer to an approval card. */
export type ApprovalAnswer = 'allow' | 'deny' | 'allow-comparison';
export const APPROVAL_ANSWERS: readonly ApprovalAnswer[] = ['allow', 'deny', 'allow-comparison'];

/** What the person sends back from an MCP server's form: the values only with 'accept' (checked by the engine). */
export interface ElicitationReply {
  readonly action: 'accept' | 'decline' | 'cancel';
  readonly content?: Readonly<Record<string, string | number | boolean | readonly string[]>>;
}
export const ELICITATION_ACTIONS: readonly ElicitationReply['action'][] = ['accept', 'decline', 'cancel'];

import type { SuiteRecord } from './suite.js';
import type { SuiteView } from './suite-leaderboard.js';

// The formats are described in report-formats.ts.
import type { ReportFormat } from './report-formats.js';
export { REPORT_FORMATS, type ReportFormat } from './report-formats.js';

export type ExportResult =
  | { readonly status: 'saved'; readonly path: string }
  | { readonly status: 'download'; readonly fileName: string; readonly mimeType: string; readonly content: string }
  | { readonly status: 'cancelled' };

/**
 * Where 'report:send-otlp' sends a comparison's trace: an OTLP HTTP endpoint and the headers it needs. Headers
 * often hold a secret (Authorization): the host uses them for that one request and never stores or logs them.
 */
export interface OtlpTargetInput {
  readonly endpoint: string;
  readonly headers: Readonly<Record<string, string>>;
}

export interface OtlpSendResult {
  /** The URL the trace went to (the endpoint, with /v1/traces added when it did not end so). */
  readonly url: string;
  readonly spans: number;
  readonly bytes: number;
  readonly status: number;
  /** What the receiver said it rejected (OTLP partial success), one sentence; null when it took everything. */
  readonly rejected: string | null;
}

export interface ProviderCheck {
  readonly name: string;
  readonly baseUrl: string | null;
  readonly model: string;
  /** Custom provider: the key variable named with keys:use-env for this base URL. */
  readonly apiKeyEnv?: string | null;
  /** Custom provider: the protocol its server speaks (default openai). */
  readonly protocol?: ProviderProtocol | null;
}

/** Whether a run would find a key for a provider, and where that key may go. */
export interface KeyStatus {
  /** A key is stored, or the preset's environment variable holds one. */
  readonly available: boolean;
  /** The one base URL the key is sent to (a preset's own; the custom provider's: the URL it was stored for). */
  readonly boundTo: string | null;
}

/** A key variable named for the custom provider in this app session. */
export interface KeyEnvStatus {
  readonly name: string;
  readonly baseUrl: string;
  /** The variable holds a value in the host's environment. */
  readonly set: boolean;
}

/** How the composer lets the user name a workspace folder on this host. */
export interface WorkspaceFolders {
  /** 'dialog': the desktop folder dialog; 'typed': a path inside `allowedDirs`; 'any': any path (CLI). */
  readonly picker: 'dialog' | 'typed' | 'any';
  readonly allowedDirs: readonly string[];
}

/** A folder picked in the desktop folder dialog: the page sends `handle` back as the request's workspaceDir. */
export interface ChosenFolder {
  readonly handle: string;
  readonly path: string;
}

export type ConnectionResult =
  | { readonly ok: true; readonly models: readonly string[]; readonly detail: string }
  | {
      readonly ok: false;
      readonly reason: 'unreachable' | 'bad-key' | 'unknown-model' | 'bad-url' | 'error';
      readonly detail: string;
    };

export interface AppInfo {
  readonly version: string;
  readonly host: 'electron' | 'web';
  readonly dataDir: string;
  /** Absent from hosts that offer no workspace folder at all. */
  readonly workspaceFolders?: WorkspaceFolders;
  /** Whether run_shell runs in the OS sandbox here: its approval default is allow there, ask elsewhere. */
  readonly shellSandbox?: 'bubblewrap' | 'seatbelt' | 'none';
}

/** The price table as the app's price editor sees it. */
export interface PricesView {
  /** The table in force (the default one when the user's file is missing or broken). */
  readonly table: PriceTable;
  /** True when the user's own file exists (it replaces the default table). */
  readonly custom: boolean;
  /** Where the user's table lives. */
  readonly path: string;
  /** The date of the default table this Parallax ships. */
  readonly defaultDate: string;
  /** Why the user's file cannot be used, and what to do; null when it is fine. */
  readonly error: string | null;
}

/** A price as typed in the editor: USD per 1M tokens; empty cached or cache-write rates mean "the input rate". */
export interface PriceInput {
  readonly model: string;
  readonly input: number | string;
  readonly output: number | string;
  readonly cachedInput?: number | string | null;
  readonly cacheWrite?: number | string | null;
  readonly source?: string;
}

export type MenuCommand = 'new-comparison' | 'run' | 'cancel' | 'open-history' | 'export' | 'toggle-theme';

/** Invoke channels: name → [arguments tuple, result]. */
export interface InvokeMap {
  'app:info': { args: []; result: AppInfo };
  /** The renderer is ready for pushed events; the host flushes what it queued. */
  'app:ready': { args: []; result: void };
  'tasks:list': { args: []; result: readonly TaskInfo[] };
  'comparison:start': { args: [request: ComparisonRequest]; result: ComparisonMeta };
  'comparison:cancel': { args: [comparisonId: string]; result: void };
  'run:cancel': { args: [runId: string]; result: void };
  'history:list': { args: []; result: readonly ComparisonListItem[] };
  /** One page of the history list, served from the history index (cost independent of the count stored). */
  'history:page': { args: [query: HistoryQuery]; result: HistoryPage };
  /** Comparisons that history:list cannot show because their meta.json is damaged; history:delete removes them. */
  'history:damaged': { args: []; result: readonly DamagedComparison[] };
  'history:open': { args: [comparisonId: string]; result: StoredComparison };
  'history:delete': { args: [comparisonId: string]; result: void };
  /** The comparison against an earlier one of the same task (shared/comparison-diff.ts); another task: an error saying so. */
  'history:diff': { args: [baselineId: string, comparisonId: string]; result: ComparisonDiff };
  'report:export': { args: [comparisonId: string, format: ReportFormat]; result: ExportResult };
  /** The comparison's trace (the otlp report's body) sent to an OTLP HTTP endpoint; errors say what to fix. */
  'report:send-otlp': { args: [comparisonId: string, target: OtlpTargetInput]; result: OtlpSendResult };
  'provider:models': { args: [check: ProviderCheck]; result: ConnectionResult };
  'provider:test': { args: [check: ProviderCheck]; result: ConnectionResult };
  /**
   * Store a key for a provider preset; it is never sent back to the renderer. A preset's key is bound to the
   * preset's base URL; the custom provider's to `baseUrl` (required for it).
   */
  'keys:set': { args: [providerName: string, key: string, baseUrl: string | null]; result: void };
  'keys:status': { args: []; result: Readonly<Record<string, KeyStatus>> };
  /** The user named the environment variable that holds the custom provider's key at `baseUrl` (this session only). */
  'keys:use-env': { args: [name: string, baseUrl: string]; result: KeyEnvStatus };
  /**
   * The user's answer to a run waiting for approval (an approval-requested event without its approval-resolved).
   * 'allow-comparison' allows that tool for the rest of the comparison, in every run.
   */
  'approval:answer': { args: [runId: string, approvalId: string, decision: ApprovalAnswer]; result: void };
  /** The person's answer to an MCP server's form (an elicitation-requested event without its elicitation). */
  'elicitation:answer': { args: [runId: string, elicitationId: string, reply: ElicitationReply]; result: void };
  /** Desktop: the folder dialog. The handle it returns is the only way the page can name a folder there. */
  'workspace:choose': { args: []; result: ChosenFolder | null };
  /** The price table, USD per 1M tokens; runs record the price of their model when they start. */
  'prices:get': { args: []; result: PricesView };
  'prices:set': { args: [price: PriceInput]; result: PricesView };
  'prices:remove': { args: [model: string]; result: PricesView };
  /** Back to the default table; the user's file is kept as prices.json.bak. */
  'prices:reset': { args: []; result: PricesView };
  /** Stored suite runs (`parallax suite run`), newest first; read-only in the app. */
  /** What an agent column's program will see, before any run (engine/agent/agent-launch.ts); throws why it cannot run. */
  'agents:view': { args: [agent: AgentCommand]; result: AgentView };
  'suites:list': { args: []; result: readonly SuiteRecord[] };
  'suites:open': { args: [suiteId: string]; result: SuiteView };
  /** A suite run's report (Markdown, JSON or HTML), saved with a dialog (desktop) or downloaded (web host). */
  'suites:export': { args: [suiteId: string, format: ReportFormat]; result: ExportResult };
}

/** Event channels: name → payload. */
export interface EventMap {
  /** A batch of step events (about one per animation frame), possibly from several runs. */
  'run:events': readonly StepEvent[];
  'menu:command': MenuCommand;
}

export type InvokeChannel = keyof InvokeMap;
export type EventChannel = keyof EventMap;
export type InvokeArgs<C extends InvokeChannel> = InvokeMap[C]['args'];
export type InvokeResult<C extends InvokeChannel> = InvokeMap[C]['result'];

export const INVOKE_CHANNELS = [
  'app:info',
  'app:ready',
  'tasks:list',
  'comparison:start',
  'comparison:cancel',
  'run:cancel',
  'history:list',
  'history:page',
  'history:damaged',
  'history:open',
  'history:delete',
  'history:diff',
  'report:export',
  'report:send-otlp',
  'provider:models',
  'provider:test',
  'keys:set',
  'keys:status',
  'keys:use-env',
  'workspace:choose',
  'approval:answer',
  'elicitation:answer',
  'prices:get',
  'prices:set',
  'prices:remove',
  'prices:reset',
  'suites:list',
  'suites:open',
  'suites:export',
  'agents:view',
] as const satisfies readonly InvokeChannel[];

export const EVENT_CHANNELS = ['run:events', 'menu:command'] as const satisfies readonly EventChannel[];

/** A host implements every invoke channel. Used by the Electron main process and the web host alike. */
export type InvokeHandlers = { [C in InvokeChannel]: (...args: InvokeArgs<C>) => Promise<InvokeResult<C>> };
