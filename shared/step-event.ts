/**
 * The one wire format. A StepEvent is produced by the engine inside a worker process and carried unchanged
 * to the host, the JSONL history, the renderer and every report. Events are plain JSON.
 *
 * Every event has `runId`, `seq` (0, 1, 2, … gap-free per run) and `t` (ms since the run started).
 * Totals are never stored apart from the steps: `run-finished.totals` is computed from the events
 * by `computeTotals` (shared/summary.ts), and readers may recompute it.
 */
import type { ElicitField } from './mcp-elicitation.js';
import type { PromptComposition } from './prompt-composition.js';
import type { ModeId, RunSettings, ProviderInfo, TaskRef } from './run-spec.js';
import type { ColumnRef } from './variants.js';
import type { McpToolRecord } from './mcp-tools.js';

/**
 * Where a step's usage came from: the provider's own figures ('reported'), or counted by Parallax with the
 * tokenizer from the exact request sent and the reply received because the provider sent none ('estimated').
 */
export type UsageSource = 'reported' | 'estimated';

/** Token usage exactly as the provider reported it (or estimated, see UsageSource). Optional fields are absent when not reported. */
export interface Usage {
  readonly prompt: number;
  readonly completion: number;
  /** Prompt tokens served from the provider's cache (OpenAI cached_tokens, DeepSeek prompt_cache_hit_tokens). */
  readonly cached?: number;
  /** Reasoning tokens inside `completion` (completion_tokens_details.reasoning_tokens). */
  readonly reasoning?: number;
  /** The provider's own total_tokens, when sent (xAI counts reasoning outside completion, so it can exceed prompt + completion). */
  readonly total?: number;
  /** Prompt tokens written to the provider's cache (priced at the cache-write rate), when reported. */
  readonly cacheWrite?: number;
  /** Of cacheWrite, the tokens written with a 1-hour lifetime (Anthropic cache_creation.ephemeral_1h_input_tokens), priced at that rate. */
  readonly cacheWrite1h?: number;
  /** Searches the provider ran itself during the request (Anthropic server_tool_use.web_search_requests), priced per search. */
  readonly webSearches?: number;
  /** Cost in USD as reported by the provider itself (OpenRouter `usage.cost`), preferred over the price table. */
  readonly cost?: number;
}

/** Prices per 1M tokens in USD for one model, from the user's dated price table, as they were when the run started. */
export interface ModelPrice {
  readonly model: string;
  readonly input: number;
  readonly cachedInput: number | null;
  readonly cacheWrite: number | null;
  readonly output: number;
  /** Rate of a cache write with a 1-hour lifetime, per 1M tokens; absent or null: the cache-write rate. */
  readonly cacheWrite1h?: number | null;
  /** USD per 1,000 searches the provider runs itself (server-side web search); absent or null: not priced. */
  readonly webSearch?: number | null;
  /** The price table's date (YYYY-MM-DD): shown wherever a cost derived from it appears. */
  readonly tableDate: string;
}

export interface ToolCallRequest {
  readonly id: string;
  readonly name: string;
  /** The arguments string exactly as the model produced it (it may not be valid JSON). */
  readonly arguments: string;
  /** The reply hit its token limit inside this call: its arguments are unfinished, so it was not run. */
  readonly cut?: true;
}

/** The schema of one tool as it was sent to the model. */
export interface ToolExposure {
  readonly name: string;
  readonly description: string;
  readonly parameters: Record<string, unknown>;
}

/**
 * 'no-policy': the simulated model replied that it knows no policy for the task (a free-text task): not an answer.
 * 'refused': the provider ended the reply with a refusal or its content filter (finish_reason content_filter,
 * a `refusal` delta, Anthropic stop_reason refusal): what it wrote is not an answer.
 * 'truncated': the final reply was cut short (finish_reason length, Anthropic max_tokens or
 * model_context_window_exceeded): its fragment is not an answer.
 * 'empty': the final reply held no text and no tool call (Gemini sometimes ends so with finish_reason stop).
 */
export type RunStatus =
  | 'answered'
  | 'no-policy'
  | 'refused'
  | 'truncated'
  | 'empty'
  | 'max-steps'
  | 'cancelled'
  | 'error'
  | 'crashed';

export interface Validation {
  readonly ok: boolean;
  /** What was expected and what was found, in one sentence. */
  readonly detail: string;
}

/**
 * Model requests and tokens include those of MCP sampling (sampling events: answered by the run's model, billed
 * like its steps), so the totals are what the provider counted; `steps` counts the loop's steps only.
 */
export interface RunTotals {
  readonly steps: number;
  readonly requests: number;
  readonly prompt: number;
  readonly completion: number;
  readonly cached: number;
  readonly reasoning: number;
  readonly total: number;
  readonly toolCalls: number;
  /** The run's own time: from its start to its last event, minus the time it waited for the user's approval. */
  readonly wallMs: number;
  /** Time the run waited for the user to allow or deny tool calls (read as 0 in totals stored before approvals existed). */
  readonly approvalWaitMs: number;
  /**
   * Its worker's start-up (run-started.workerStart.ms), apart from wallMs, which starts after it; 0 when not
   * measured (`parallax run`, runs recorded before it was): a process never starts in 0 ms. The engine's totals
   * carry 0 (a worker's events have no workerStart); the host writes the measured figure on run-finished.
   */
  readonly startupMs: HostAdded<number>;
}

/** How a run's worker started, measured by the host from the worker's messages (host/worker-start.ts). */
export interface WorkerStartRecord {
  /**
   * ms the worker spent starting: process spawn to engine loaded, plus its preparation for this run's spec to
   * ready. A warm-pool worker's idle time between the two is not start-up and is left out.
   */
  readonly ms: number;
  /** The part of `ms` spent before Run: a warm-pool worker loaded ahead (0 for a worker started by Run). */
  readonly beforeRunMs: number;
  /** Taken from the warm pool. */
  readonly pooled: boolean;
}

export interface CodeError {
  readonly line: number | null;
  readonly column: number | null;
  readonly message: string;
}

export type LimitHit = 'time' | 'memory' | 'output' | 'tool-calls' | null;

export interface InnerToolCall {
  readonly name: string;
  readonly args: unknown;
  readonly durationMs: number;
  /** ms from the program's start to this call's start (absent in events recorded before it existed). */
  readonly startMs?: number;
  /** Size in bytes (UTF-8 of its JSON form) of what the tool returned to the program. */
  readonly resultBytes: number;
  readonly error: string | null;
}

export interface SearchHit {
  readonly name: string;
  readonly score: number;
  readonly signature: string;
}

/** How run_shell commands were contained in a run: an OS sandbox, or none (then the reason says why). */
export interface ShellSandboxRecord {
  readonly kind: 'bubblewrap' | 'seatbelt' | 'none';
  readonly reason: string;
}

/** Most characters of one string an event records; a longer one is cut, with a marker and its full length. */
export const RECORDED_STRING_CHARS = 65_536;
/** Characters of all strings in one event recorded in full; past this, each further string keeps its start only. */
export const RECORDED_EVENT_CHARS = 1_048_576;

/** A string (or a list or object inside tool arguments) the event recorded cut short, and its full size. */
export interface ClippedField {
  /** Where in the event, e.g. "code", "toolCalls.0.arguments", "toolCalls.3.args.content". */
  readonly path: string;
  /** Full length: characters for a string, items for a list, keys for an object. */
  readonly length: number;
}

/**
 * A field the host adds to a worker's event as it accepts it, from what only the host knows: how the worker's
 * process started (the host spawned it and timed it), and what each request carried by part (the tokenizer is
 * loaded once, in the host). There are three: run-started.workerStart, model-response.promptComposition and
 * run-finished.totals.startupMs. One step adds them, `RunSession.accept` (electron/host/run-session.ts), and it
 * replaces whatever a worker sent in them, so a worker can never set them; the engine's StepEventInput leaves
 * out the two top-level ones (HostAddedField). `parallax run`, whose engine runs in the CLI's own process,
 * adds promptComposition with the same tracker (electron/cli/commands/run.ts). Events the host makes whole
 * (a run cancelled before it started, the ending of a worker that died) are complete as made.
 */
type HostAdded<T> = T;

/** The top-level host-added fields (see HostAdded): a worker's event never carries them. */
export type HostAddedField = 'workerStart' | 'promptComposition';

interface Base {
  readonly runId: string;
  readonly seq: number;
  readonly t: number;
  /** Fields cut to keep the event small (absent when nothing was cut, and in events recorded before). */
  readonly clipped?: readonly ClippedField[];
}

export interface RunStartedEvent extends Base {
  readonly type: 'run-started';
  readonly mode: ModeId;
  readonly task: TaskRef;
  readonly provider: ProviderInfo;
  readonly settings: RunSettings;
  readonly systemPrompt: string;
  /** Tools sent on the first request (a mode may add tools later; each model-request lists its own). */
  readonly tools: readonly ToolExposure[];
  /** Wall-clock epoch ms when the run started; `t` of every event is relative to it. */
  readonly startedAt: number;
  readonly comparisonId?: string;
  /** The model's price when the run started, or null/absent when the price table has none ("no price"). */
  readonly price?: ModelPrice | null;
  /** How run_shell was contained in this run (absent in runs recorded before it was recorded). */
  readonly shellSandbox?: ShellSandboxRecord;
  /** How its worker started, measured by the host (absent: no worker measured, as in `parallax run`). */
  readonly workerStart?: HostAdded<WorkerStartRecord>;
  /** Its column when the comparison ran variants (shared/variants.ts); absent: the column of its mode. */
  readonly variant?: ColumnRef;
  /** The run's MCP tools with their servers, titles and annotations (absent: no MCP tools, or recorded before). */
  readonly mcpTools?: readonly McpToolRecord[];
}

export interface ModelRequestEvent extends Base {
  readonly type: 'model-request';
  readonly step: number;
  /** 1 for the first try, 2+ for retries of the same step. */
  readonly attempt: number;
  readonly messageCount: number;
  readonly toolNames: readonly string[];
  /** Tools offered for the first time in this run (ReAct + tool search adds the tools it found), in full. */
  readonly addedTools?: readonly ToolExposure[];
  /**
   * Messages the mode added to the history just before this request (its prepareStep hook), as sent; absent
   * when it added none (every mode before such hooks), so older records read the same.
   */
  readonly addedMessages?: readonly { readonly role: string; readonly content: string }[];
  /**
   * Tool results the history knob cleared from this request on (shared/history-setting.ts): each call's id, its
   * step, and the placeholder sent in its place from now on. Absent when it cleared none (history 'full').
   */
  readonly clearedResults?: readonly ClearedResult[];
  /**
   * The kind of step the mode made this (its prepareStep's phase, shared/step-phase.ts), e.g. 'planning'; absent
   * for an ordinary step, so records from modes that declare none read the same.
   */
  readonly phase?: string;
}

/** One tool result the history knob stopped re-sending, and the placeholder sent instead. */
export interface ClearedResult {
  readonly callId: string;
  readonly step: number;
  readonly text: string;
}

export interface ModelRetryEvent extends Base {
  readonly type: 'model-retry';
  readonly step: number;
  readonly attempt: number;
  readonly status: number | null;
  readonly message: string;
  readonly delayMs: number;
}

/**
 * A reply in the text ReAct format as the engine read it (a mode whose tools are in the prompt, shared/modes.ts
 * `toolsInPrompt`). Its actions are the step's `toolCalls` (the arguments are the Action Input as written).
 */
export interface ParsedReply {
  /** The Thought(s) before the action(s) or the final answer; null when the model wrote none. */
  readonly thought: string | null;
  readonly finalAnswer: string | null;
  /** Why the reply could not be read; sent back to the model as the observation, and no tool ran. */
  readonly parseError: string | null;
  /**
   * Characters of `text` that went back into the history: anything from a line starting "Observation:" on is
   * the model's own guess at a result, never a tool result, and is dropped.
   */
  readonly kept: number;
}

export interface ModelResponseEvent extends Base {
  readonly type: 'model-response';
  readonly step: number;
  /** null when the provider sent no usage and it could not be estimated either. */
  readonly usage: Usage | null;
  /** Absent in events recorded before it existed: read as 'reported' when usage is present. */
  readonly usageSource?: UsageSource;
  /** ms from the request being sent (model-request's `t`) to the reply's last byte. */
  readonly latencyMs: number;
  /**
   * ms from the request being sent to the first output of the reply (text, reasoning or a tool call): the wait
   * for the first token. Absent in events recorded before it existed and when the reply carried no output.
   */
  readonly firstTokenMs?: number;
  readonly finishReason: string | null;
  /** The stop reason exactly as the provider sent it, when it differs from finishReason (Anthropic `stop_reason`). */
  readonly stopReason?: string;
  /** The provider's id of the request (Anthropic `request-id` header), when sent: what its support asks for. */
  readonly requestId?: string;
  readonly text: string;
  readonly reasoningText?: string;
  /** The model's refusal text (OpenAI `delta.refusal`), when it sent one. */
  readonly refusal?: string;
  /** The provider's own words on why it stopped the reply, when it gave any (Anthropic stop_details, Azure's filter results). */
  readonly stopDetails?: string;
  readonly toolCalls: readonly ToolCallRequest[];
  /** Present for a text ReAct reply: its Thought, Final Answer or parse error (its actions are `toolCalls`). */
  readonly parsed?: ParsedReply;
  /**
   * What the request carried, by part (shared/prompt-composition.ts), summing to usage.prompt, counted by the
   * host's tokenizer from the run's earlier events; absent without usage and in runs recorded before it existed.
   */
  readonly promptComposition?: HostAdded<PromptComposition>;
}

export interface ToolStartedEvent extends Base {
  readonly type: 'tool-started';
  readonly step: number;
  readonly callId: string;
  readonly name: string;
  /** Parsed arguments, or the raw string when they were not valid JSON. */
  readonly args: unknown;
  /**
   * The generic tool the model called to reach this one (`call_tool`, toolSearch 'call-tool'): `name` and `args`
   * are then the forwarded tool's, as the tool ran them. Absent for a direct call.
   */
  readonly forwardedBy?: string;
}

export interface ToolFinishedEvent extends Base {
  readonly type: 'tool-finished';
  readonly step: number;
  readonly callId: string;
  readonly name: string;
  /** The text as it was returned to the model (after truncation). */
  readonly output: string;
  /** Length in characters of the output before truncation. */
  readonly rawSize: number;
  readonly truncated: boolean;
  readonly durationMs: number;
  readonly error: string | null;
  /** As on tool-started: the call reached this tool through the named forwarder. */
  readonly forwardedBy?: string;
  /**
   * The repeat guard (repeatGuard 'on') did not run the call: it is identical to this earlier call, and `output`
   * is the note sent instead. Absent for every call that ran.
   */
  readonly repeatOf?: { readonly step: number; readonly callId: string };
  /**
   * True when the run was cancelled while this call ran: it was stopped, and its output never went back to
   * the model. Absent otherwise (and in events recorded before it existed).
   */
  readonly cancelled?: true;
  /** What an MCP tool's result held, block by block, with the server's content annotations (absent for other tools). */
  readonly mcpContent?: readonly McpContentRecord[];
}

/** One content block of an MCP result as recorded: its kind, MIME type, size, and its audience and priority. */
export interface McpContentRecord {
  /** text, image, audio, resource, resource_link. */
  readonly type: string;
  readonly mimeType?: string;
  /** Decoded bytes of binary data, characters of text. */
  readonly size?: number;
  readonly uri?: string;
  /** Who the server meant the block for (MCP annotations.audience). */
  readonly audience?: readonly ('user' | 'assistant')[];
  /** 0 (least) to 1 (most important), as the server said. */
  readonly priority?: number;
  readonly lastModified?: string;
}

/**
 * A tool reported how far it got while it runs (an MCP progress notification). Recorded as it arrives (at most
 * a few per second per call); `callId` is the model's call (for a call inside a program, the run_code call).
 */
export interface ToolProgressEvent extends Base {
  readonly type: 'tool-progress';
  readonly step: number;
  readonly callId: string;
  /** The tool that reports (inside a program, the inner tool). */
  readonly name: string;
  readonly progress: number;
  readonly total?: number;
  readonly message?: string;
  readonly inProgram: boolean;
}

/**
 * An MCP server asked the client to sample (sampling/createMessage) while one of its tools ran: answered by the
 * run's own model and provider, and counted in the run's tokens (computeTotals) as its own kind of request.
 */
export interface SamplingEvent extends Base {
  readonly type: 'sampling';
  readonly step: number;
  /** The call during which the server asked. */
  readonly callId: string;
  readonly server: string;
  /** The messages the server sent, as text (binary parts described), and its system prompt. */
  readonly messages: readonly { readonly role: string; readonly text: string }[];
  readonly systemPrompt?: string;
  readonly maxTokens: number;
  /** null: the request was refused or failed (see error) and no tokens were spent, or the provider reported none. */
  readonly usage: Usage | null;
  readonly usageSource?: UsageSource;
  readonly latencyMs: number;
  readonly text: string;
  readonly finishReason: string | null;
  readonly error: string | null;
}

/**
 * The `history: summarize:K` knob summarised older steps before the request of `step`: a request of its own to
 * the run's model (no tools), counted in the run's totals (computeTotals) like sampling, never as a step. From
 * this request on, `fromStep`–`toStep` (and any earlier summary) go as one message holding `text`.
 */
export interface HistorySummaryEvent extends Base {
  readonly type: 'history-summary';
  /** The step whose request first carries the summary. */
  readonly step: number;
  readonly fromStep: number;
  readonly toStep: number;
  /** Messages the summary replaced, and the prompt tokens they held (the same count as the composition's). */
  readonly replacedMessages: number;
  readonly replacedTokens: number;
  /** The message sent in their place (the summary with its lead line); '' when the request failed. */
  readonly text: string;
  readonly usage: Usage | null;
  readonly usageSource?: UsageSource;
  readonly latencyMs: number;
  /** Why there is no summary (the history then goes on whole); null when the model wrote one. */
  readonly error: string | null;
}

/**
 * An MCP server asked the person for values (elicitation/create, form mode) while one of its tools ran: what it
 * asked, the fields read from its schema (shared/mcp-elicitation.ts), and the answer that went back. `reason`
 * says why Parallax answered itself (nobody could answer, a limit, the wait ran out); absent when a person did.
 */
export interface ElicitationEvent extends Base {
  readonly type: 'elicitation';
  readonly step: number;
  readonly callId: string;
  readonly server: string;
  readonly message: string;
  readonly fields: readonly ElicitField[];
  readonly action: 'accept' | 'decline' | 'cancel';
  readonly content?: Readonly<Record<string, string | number | boolean | readonly string[]>>;
  readonly reason?: string;
  /** How long the call waited for the answer (kept out of its timeout). */
  readonly waitedMs: number;
  /** The elicitation-requested event this answers (absent when nobody was asked). */
  readonly elicitationId?: string;
}

/**
 * A server's form waits for the person (the app's card, a terminal prompt): only this call waits. The matching
 * `elicitation` event (same elicitationId) closes it with the answer, a cancel, or the wait running out.
 */
export interface ElicitationRequestedEvent extends Base {
  readonly type: 'elicitation-requested';
  readonly step: number;
  readonly callId: string;
  /** Unique within the run; the host's answer names it. */
  readonly elicitationId: string;
  readonly server: string;
  readonly message: string;
  readonly fields: readonly ElicitField[];
  /** How long the person has before the request is cancelled and the call goes on. */
  readonly timeoutMs: number;
}

export interface CodeRunEvent extends Base {
  readonly type: 'code-run';
  readonly step: number;
  readonly callId: string;
  readonly code: string;
  readonly output: string;
  readonly error: CodeError | null;
  readonly toolCalls: readonly InnerToolCall[];
  /** Bytes the tools returned inside the program vs bytes printed back to the model. */
  readonly toolBytes: number;
  readonly printedBytes: number;
  readonly durationMs: number;
  readonly limitHit: LimitHit;
  /** codeState 'persist' only: what the sandbox keeps for the run's next program, after this one. */
  readonly state?: CodeState;
}

/** One variable a kept sandbox holds: its name, its type there, and the length of its JSON (null: none). */
export interface StoredVariable {
  readonly name: string;
  readonly type: string;
  readonly bytes: number | null;
}

/** The cost of codeState 'persist', as each program leaves it. */
export interface CodeState {
  readonly variables: readonly StoredVariable[];
  /** The sandbox's memory after the program: QuickJS's heap in use, or the Python child's resident size. */
  readonly memoryBytes: number | null;
  /** A limit stopped this program and the sandbox dropped what earlier programs had stored. */
  readonly lost: boolean;
}

export interface ToolSearchEvent extends Base {
  readonly type: 'tool-search';
  readonly step: number;
  readonly callId: string;
  readonly query: string;
  readonly hits: readonly SearchHit[];
}

/**
 * A tool call the approval policy sets to 'ask' is waiting for the user: only this run pauses. `callId` is the
 * model's call (for a call inside a program, the run_code call that made it).
 */
export interface ApprovalRequestedEvent extends Base {
  readonly type: 'approval-requested';
  readonly step: number;
  readonly callId: string;
  /** Unique within the run; the host's answer names it. */
  readonly approvalId: string;
  /** run_shell, write_file, fetch_url, or an MCP tool's name (its policy is the `mcp` entry). */
  readonly tool: string;
  /** An MCP tool's server, by its configured name (absent for the built-in tools). */
  readonly server?: string;
  /** The call's arguments as the user is shown them. */
  readonly args: unknown;
  /** The call was made inside a run_code program (Code Mode, Hybrid). */
  readonly inProgram: boolean;
}

/**
 * The user's answer (or the run's cancel while it waited). `waitedMs` is kept out of the run's own time:
 * computeTotals subtracts it from wallMs and reports it as approvalWaitMs.
 */
export type ApprovalDecision = 'allow' | 'deny' | 'allow-comparison' | 'cancelled';

export interface ApprovalResolvedEvent extends Base {
  readonly type: 'approval-resolved';
  readonly step: number;
  readonly callId: string;
  readonly approvalId: string;
  /** run_shell, write_file, fetch_url, or an MCP tool's name (its policy is the `mcp` entry). */
  readonly tool: string;
  readonly decision: ApprovalDecision;
  readonly waitedMs: number;
}

export interface RunWarningEvent extends Base {
  readonly type: 'run-warning';
  readonly message: string;
}

export interface RunFinishedEvent extends Base {
  readonly type: 'run-finished';
  readonly status: RunStatus;
  readonly answer: string;
  /** For error / crashed / cancelled: what happened and what to do. */
  readonly error?: string;
  readonly validation: Validation | null;
  readonly totals: RunTotals;
}

export type StepEvent =
  | RunStartedEvent
  | ModelRequestEvent
  | ModelRetryEvent
  | ModelResponseEvent
  | ToolStartedEvent
  | ToolFinishedEvent
  | CodeRunEvent
  | ToolSearchEvent
  | ApprovalRequestedEvent
  | ApprovalResolvedEvent
  | RunWarningEvent
  | ToolProgressEvent
  | SamplingEvent
  | HistorySummaryEvent
  | ElicitationEvent
  | ElicitationRequestedEvent
  | RunFinishedEvent;

/** An event before the emitter stamps runId, seq and t; without the fields only the host adds (HostAdded). */
export type StepEventInput = StepEvent extends infer E
  ? E extends StepEvent
    ? Omit<E, 'runId' | 'seq' | 't' | HostAddedField>
    : never
  : never;
