/**
 * The slice of the OpenAI chat-completions request the simulated model reads, and the reply a policy makes.
 * Shapes follow the wire protocol (snake_case), because policies read requests exactly as received.
 */
export interface WireToolCall {
  readonly id: string;
  readonly type: 'function';
  readonly function: { readonly name: string; readonly arguments: string };
}

export interface WireContentPart {
  readonly type: string;
  readonly text?: string;
}

export interface WireMessage {
  readonly role: 'system' | 'developer' | 'user' | 'assistant' | 'tool';
  readonly content?: string | readonly WireContentPart[] | null;
  readonly name?: string;
  readonly tool_calls?: readonly WireToolCall[];
  readonly tool_call_id?: string;
}

export interface WireTool {
  readonly type: 'function';
  readonly function: { readonly name: string; readonly description?: string; readonly parameters?: unknown };
}

/** One tool call a policy wants to make; the server assigns its id. */
export interface PlannedCall {
  readonly name: string;
  /** The arguments string as sent (normally JSON; a fault may make it invalid on purpose). */
  readonly arguments: string;
}

/** A policy's reply: either a final text, or tool calls (optionally with a short note in `text`). */
export type SimReply =
  | { readonly kind: 'text'; readonly text: string }
  | { readonly kind: 'tools'; readonly text: string; readonly calls: readonly PlannedCall[] };

export { textOf } from '../engine/tokens/message-text.js';

export function answer(text: string): SimReply {
  return { kind: 'text', text };
}

export function callTools(calls: readonly { name: string; args: Record<string, unknown> }[], text = ''): SimReply {
  return { kind: 'tools', text, calls: calls.map((c) => ({ name: c.name, arguments: JSON.stringify(c.args) })) };
}
