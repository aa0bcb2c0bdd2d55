/**
 * The loop's per-step hooks as the modes fill them (mode.ts: prepareStep, readReply): native tool calling by
 * default, and the text protocol of text ReAct. A reply becomes a Turn: the message that goes back, the calls to
 * run, whether the run stops (its answer), and the messages that answer the calls.
 */
import type { ParsedReply, StepEventInput, ToolCallRequest } from '../../../shared/step-event.js';
import { toolResultMessage, type ChatClient, type ChatMessage, type ChatReply } from '../provider/chat-client.js';
import type { ModeAdapter, StepRequest, TextProtocol } from './mode.js';
import type { ToolImage } from '../tools/tool.js';
import { resendContent } from '../provider/reply-content.js';

/** A tool call's output as it goes back, and whether the tool failed (the Messages API marks it is_error). */
export interface CallOutput {
  readonly text: string;
  readonly failed: boolean;
  /** Images the call returned, for a model that reads them (the loop sends them after the tool messages). */
  readonly images?: readonly ToolImage[];
}

/** One reply as the loop acts on it: the calls to run, or the answer that ends the run, and what goes back. */
export interface Turn {
  /** The assistant message as it goes back into the history. */
  readonly message: ChatMessage;
  readonly calls: readonly ToolCallRequest[];
  /** The stop condition: the final answer when this reply ends the run; null when the loop goes on. */
  readonly answer: string | null;
  readonly parsed?: ParsedReply;
  /** The messages that answer the reply, from the calls' outputs in order. */
  results(outputs: readonly CallOutput[]): ChatMessage[];
}

/** Native tool calling: the reply verbatim, one tool message per call id, no calls = the answer. */
export function nativeTurn(reply: ChatReply, _step: number, client: ChatClient): Turn {
  const calls = reply.toolCalls.map(({ id, name, arguments: args, cut }) => ({
    id,
    name,
    arguments: args,
    ...(cut ? { cut } : {}),
  }));
  return {
    message: reply.message as unknown as ChatMessage,
    calls,
    answer: calls.length === 0 ? reply.text || reply.refusal : null,
    results: (outputs) =>
      calls.map((call, i) => toolResultMessage(client, reply, call, outputs[i]!.text, outputs[i]!.failed)),
  };
}

/**
 * Text ReAct: the reply's text up to any observation the model wrote itself goes back; its actions are the
 * calls; a Final Answer without actions ends the run; a parse error goes back as the observation.
 */
export function textTurn(protocol: TextProtocol, reply: ChatReply, step: number): Turn {
  const read = protocol.parse(reply.text);
  const calls = read.actions.map((a, i) => ({ id: `text_${step}_${i + 1}`, name: a.name, arguments: a.input }));
  const parsed: ParsedReply = {
    thought: read.thought,
    finalAnswer: read.finalAnswer,
    parseError: read.parseError,
    kept: read.kept,
  };
  // What goes back: the text up to any observation the model wrote itself, with its thinking as it was sent
  // (<think> blocks, thinking parts); never an empty message, which providers refuse — a reply that opened with
  // "Observation:" goes back whole, the observation then telling the model not to do that.
  const kept = reply.text.slice(0, read.kept);
  const said = kept.trim() ? kept : reply.text;
  return {
    message: {
      role: 'assistant',
      content: resendContent(reply.message.content, reply.thinkTags ?? '', said),
    } as ChatMessage,
    calls,
    parsed,
    answer: calls.length === 0 && read.parseError === null ? read.finalAnswer : null,
    results: (outputs) => [
      {
        role: 'user',
        content: protocol.observation(
          { parsed, actions: calls },
          outputs.map((o) => o.text),
        ),
      },
    ],
  };
}

/** The hooks of a mode that calls tools in plain text: no tools parameter (the prompt lists them), its stop sequences, its parser. */
export function textHooks(protocol: TextProtocol): Pick<ModeAdapter, 'text' | 'prepareStep' | 'readReply'> {
  const request: StepRequest = { tools: [], stop: protocol.stop };
  return { text: protocol, prepareStep: () => request, readReply: (reply, step) => textTurn(protocol, reply, step) };
}

/** A reply as its model-response event: what the provider reported, read into `turn` (the loop's and the agent proxy's one shape). */
export function responseEvent(
  reply: ChatReply,
  step: number,
  sentAt: number,
  turn: Turn,
): Extract<StepEventInput, { type: 'model-response' }> {
  return {
    type: 'model-response',
    step,
    usage: reply.usage,
    usageSource: reply.usageSource,
    latencyMs: Math.round(reply.receivedAt - sentAt),
    ...(reply.firstOutputAt !== null ? { firstTokenMs: Math.round(Math.max(0, reply.firstOutputAt - sentAt)) } : {}),
    finishReason: reply.finishReason,
    ...(reply.stopReason !== undefined ? { stopReason: reply.stopReason } : {}),
    ...(reply.requestId !== undefined ? { requestId: reply.requestId } : {}),
    text: reply.text,
    ...(reply.reasoningText ? { reasoningText: reply.reasoningText } : {}),
    ...(reply.refusal ? { refusal: reply.refusal } : {}),
    ...(reply.stopDetails ? { stopDetails: reply.stopDetails } : {}),
    toolCalls: turn.calls,
    ...(turn.parsed ? { parsed: turn.parsed } : {}),
  };
}
