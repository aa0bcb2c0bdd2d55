/**
 * A mode decides what the model is offered and how its tool calls are carried out. The loop (loop.ts) is the
 * same for every mode: ask, record, run the calls, repeat; a mode changes a step through its hooks
 * (prepareStep: the request and its phase, from the step, the history and the steps done; readReply: the reply
 * read into a turn, which says whether the run stops).
 * A mode is one ModeDefinition (defineMode): its adapter, its system prompt per tool profile, its tool offer.
 */
import type { ModeId, RunSettings } from '../../../shared/run-spec.js';
import type { McpContentRecord, StepEventInput, ToolCallRequest, ToolExposure } from '../../../shared/step-event.js';
import type { ToolsetId } from '../../../shared/toolsets.js';
import type { ApprovalGate } from '../approval/approval-gate.js';
import type { TaskTools } from '../run-task.js';
import type { ChatClient, ChatMessage, ChatReply, ToolChoice } from '../provider/chat-client.js';
import { invokeTool, toolResultText, type ToolDefinition } from '../tools/index.js';
import type { ToolImage, ToolReporter } from '../tools/tool.js';
import type { TextReply } from './text/parse-reply.js';
import type { ObservedReply } from './text/text-prompt.js';
import type { ToolOffer } from './offers.js';
import type { Toolset } from './toolsets.js';
import type { Turn } from './turns.js';

export interface CallContext {
  readonly step: number;
  readonly callId: string;
  readonly signal: AbortSignal;
  /** Record extra events for this call (code-run, tool-search, tool-progress). */
  emit(event: StepEventInput): void;
  /** Keep an MCP result's content blocks for this call's tool-finished. */
  keepContent?(blocks: readonly McpContentRecord[]): void;
  /** Present when the run's model reads images: a direct call's images go to it as image parts. */
  keepImages?(images: readonly ToolImage[]): void;
  /** Why a call's images are only described (the model reads none). */
  readonly noImages?: string;
}

/** Progress recorded as tool-progress events, and content kept for tool-finished, for one model call. */
export function reporterOf(ctx: CallContext, inProgram = false): ToolReporter {
  return {
    step: ctx.step,
    callId: ctx.callId,
    inProgram,
    progress: (name, p) =>
      ctx.emit({ type: 'tool-progress', step: ctx.step, callId: ctx.callId, name, ...p, inProgram }),
    ...(ctx.keepContent && !inProgram ? { content: ctx.keepContent } : {}),
    ...(ctx.keepImages && !inProgram
      ? { images: ctx.keepImages }
      : {
          noImages: inProgram
            ? "a program's tool results reach the model only as the text it prints"
            : (ctx.noImages ?? "this call's images are not sent"),
        }),
  };
}

export interface ModeAdapter {
  readonly id: ModeId;
  readonly systemPrompt: string;
  /** Tools offered on the next request; read before every step, so a mode may add tools as the run goes. */
  tools(): readonly ToolExposure[];
  /**
   * Carry out one tool call whose arguments parsed as a JSON object. Returns the text for the `tool`
   * message (the loop truncates it). A thrown error becomes a tool message; it never ends the run.
   */
  handleCall(name: string, args: Record<string, unknown>, ctx: CallContext): Promise<string>;
  /**
   * Extra guidance when the model calls a tool this mode does not offer (yet), e.g. that a hidden tool is
   * found with search_tools. Appended to the loop's "does not exist" message; null when there is none.
   */
  unknownToolHint?(name: string): string | null;
  /**
   * A generic forwarder's call (ReAct + tool search's `call_tool`) resolved to the tool it names, before the
   * approval gate and the events, so the forwarded tool is checked, limited and recorded as itself; an error
   * for the model when the name or arguments are not usable. null: not a forwarder call.
   */
  forward?(name: string, args: Record<string, unknown>, step: number): Forwarded | null;
  /**
   * Present when the mode calls tools in plain text (text ReAct): the request carries no tools parameter (the
   * system prompt lists `tools()`), the reply is parsed, and the results go back as one user message. Its
   * hooks come from it (turns.ts textHooks); the loop itself never asks.
   */
  readonly text?: TextProtocol;
  /**
   * Hook, once per step before its request, given the step, the history so far and the steps done (vercel/ai's
   * prepareStep): the tools sent (default: `tools()`), a tool choice, stop sequences, messages the mode adds to
   * the history before the request, and the step's phase. Absent: native tool calling.
   */
  prepareStep?(context: StepContext): StepRequest;
  /**
   * Hook, on each reply: the turn the loop acts on — the message that goes back, the calls, what answers them,
   * and whether the run stops (a non-null answer). Absent: native tool calling (turns.ts nativeTurn).
   */
  readReply?(reply: ChatReply, step: number, client: ChatClient): Turn;
  /** Release resources (sandbox runtimes, …) at the end of the run. */
  dispose?(): void;
}

/** What prepareStep is told before a step: which step, the history as it stands, and the steps done so far. */
export interface StepContext {
  /** 1 for the first step. */
  readonly step: number;
  /** The history the request will send (system prompt, task, every turn so far), before this step's added messages. */
  readonly messages: readonly ChatMessage[];
  /** The steps done so far in this run, in order: a mode may decide by what earlier steps did. */
  readonly steps: readonly StepRecord[];
}

/** One step done, as prepareStep sees it: what the model replied and called, and what the calls returned. */
export interface StepRecord {
  readonly step: number;
  /** The phase the mode gave it (StepRequest.phase); absent: an ordinary step. */
  readonly phase?: string;
  /** The reply's text. */
  readonly text: string;
  readonly toolCalls: readonly ToolCallRequest[];
  /** The text each call sent back, in the order of toolCalls (empty when it made none). */
  readonly outputs: readonly string[];
  /** The answer the mode read in the reply (a harness may have sent it back as wrong); null: the run went on. */
  readonly answer: string | null;
}

/** What a mode's prepareStep asks of one step's request. Every field is optional: absent, the native default. */
export interface StepRequest {
  /**
   * The kind of step this is, e.g. 'planning' (a lowercase word, shared/step-phase.ts): recorded on the step's
   * model-request, and every surface shows the step as "Step 1 · planning". Absent: an ordinary step.
   */
  readonly phase?: string;
  /** The tools sent as the request's tools parameter; absent: `tools()`. Calls may still name any of `tools()`. */
  readonly tools?: readonly ToolExposure[];
  /** Sent as tool_choice (Messages API: its tool_choice); absent: not sent, the provider's own default. */
  readonly toolChoice?: ToolChoice;
  /** Sent as `stop` where the provider accepts it. */
  readonly stop?: readonly string[];
  /** Messages added to the history before this step's request (recorded in its model-request as addedMessages). */
  readonly messages?: readonly ChatMessage[];
}

/**
 * One mode, in one place: its adapter, its system prompt for each tool profile, and what it offers of a
 * profile tool by tool (`parallax tools`). The registry (index.ts) lists each definition once.
 */
export interface ModeDefinition<Id extends ModeId = ModeId> {
  readonly id: Id;
  /** The system prompt (or, for a mode that adds to it, its opening) for each tool profile. */
  readonly prompts: Readonly<Record<ToolsetId, string>>;
  create(opts: ModeOptions): ModeAdapter;
  /** What the mode offers of a profile, tool by tool: as a schema, a prompt line or a function, visible or found by search. */
  offers(toolset: Toolset, returnTypes: boolean): ToolOffer[];
  /** The mode's own tools, which no profile lists (run_code, search_tools, call_tool). */
  ownTools(settings: Pick<RunSettings, 'toolSearch'>): readonly string[];
}

/** A mode's definition, its id kept as a literal so the registry can check that every mode has one. */
export const defineMode = <Id extends ModeId>(definition: ModeDefinition<Id>): ModeDefinition<Id> => definition;

/**
 * A direct call of one of the run's tools (ReAct, ReAct (text), Hybrid's direct tools, ReAct + tool search):
 * the tool's result as the text of its tool message. `lookup` finds the tool the mode offers by that name.
 */
export function directCalls(opts: ModeOptions, lookup: (name: string) => ToolDefinition | undefined, modeName = '') {
  return async (name: string, args: Record<string, unknown>, ctx: CallContext): Promise<string> => {
    const tool = lookup(name);
    // The loop only passes names from tools(), so this is a programming error, not a model error.
    if (!tool) throw new Error(`Tool "${name}" is not registered${modeName ? ` in ${modeName} mode` : ''}.`);
    const value = await invokeTool(tool, args, {
      workspace: opts.workspace,
      settings: opts.settings,
      signal: ctx.signal,
      report: reporterOf(ctx),
    });
    // A tool that shows its result its own way (a task set's, as its harness shows it) writes the text itself.
    return tool.resultText ? tool.resultText(value) : toolResultText(value);
  };
}

export interface ModeOptions {
  readonly workspace: string;
  readonly settings: RunSettings;
  /** Tools the run's built-in task brings and how they are offered (engine/run-task.ts). */
  readonly task?: TaskTools | null;
  /** Tools of the run's MCP servers (engine/mcp/), offered after the profile's and the task's. */
  readonly mcpTools?: readonly ToolDefinition[];
  /** The approval policy, for tool calls made inside programs (the loop checks direct calls itself). */
  readonly approvals?: ApprovalGate;
}

export type Forwarded =
  | { readonly ok: true; readonly name: string; readonly args: Record<string, unknown> }
  | { readonly ok: false; readonly error: string };

/** How a text ReAct mode reads the model's reply and answers it. */
export interface TextProtocol {
  /** Sent as `stop` where the provider accepts it. */
  readonly stop: readonly string[];
  parse(text: string): TextReply;
  /** The user message after a reply: the parse error, or the actions' outputs in order. */
  observation(reply: ObservedReply, outputs: readonly string[]): string;
}
