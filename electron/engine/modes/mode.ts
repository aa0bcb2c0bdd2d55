/**
 * A mode decides what the model is offered and how its tool calls are carried out. The loop (loop.ts) is the
 * same for every mode: ask, record, run the calls, repeat.
 */
import type { ModeId, RunSettings } from '../../../shared/run-spec.js';
import type { McpContentRecord, StepEventInput, ToolExposure } from '../../../shared/step-event.js';
import type { ApprovalGate } from '../approval/approval-gate.js';
import type { ToolDefinition, ToolReporter } from '../tools/tool.js';
import type { TextReply } from './text/parse-reply.js';
import type { ObservedReply } from './text/text-prompt.js';

export interface CallContext {
  readonly step: number;
  readonly callId: string;
  readonly signal: AbortSignal;
  /** Record extra events for this call (code-run, tool-search, tool-progress). */
  emit(event: StepEventInput): void;
  /** Keep an MCP result's content blocks for this call's tool-finished. */
  keepContent?(blocks: readonly McpContentRecord[]): void;
}

/** Progress recorded as tool-progress events, and content kept for tool-finished, for one model call. */
export function reporterOf(ctx: CallContext, inProgram = false): ToolReporter {
  return {
    step: ctx.step,
    callId: ctx.callId,
    inProgram,
    progress: (name, p) => ctx.emit({ type: 'tool-progress', step: ctx.step, callId: ctx.callId, name, ...p, inProgram }),
    ...(ctx.keepContent && !inProgram ? { content: ctx.keepContent } : {}),
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
   * system prompt lists `tools()`), the reply is parsed, and the results go back as one user message.
   */
  readonly text?: TextProtocol;
  /** Release resources (sandbox runtimes, …) at the end of the run. */
  dispose?(): void;
}

export interface ModeOptions {
  readonly workspace: string;
  readonly settings: RunSettings;
  /** The built-in task of the run, if any: a task may bring tools of its own (tasks/task-tools.ts). */
  readonly taskId?: string | null;
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
