/**
 * Builds the simulated model's responses in the exact OpenAI shapes (chat.completion and its stream chunks), and
 * sends JSON bodies and errors (in Anthropic's shape too, for the Messages API).
 */
import type { ServerResponse } from 'node:http';
import type { PlannedCall } from './types.js';

export const SIM_MODEL_ID = 'sim';
/** Lets clients recognise simulated replies and label their figures "simulated". */
export const SIM_FINGERPRINT = 'parallax-simulated';

export interface WireUsage {
  readonly prompt_tokens: number;
  readonly completion_tokens: number;
  readonly total_tokens: number;
}

export interface BuiltReply {
  readonly id: string;
  readonly created: number;
  readonly text: string;
  /** Calls with the ids the server gave them. */
  readonly calls: readonly (PlannedCall & { readonly id: string })[];
  readonly usage: WireUsage;
  /** The model's thinking, sent as `reasoning_content` (the tutorial profile's provider thinks; thinking.ts). */
  readonly reasoning?: string;
}

const finishReason = (r: BuiltReply): 'tool_calls' | 'stop' => (r.calls.length > 0 ? 'tool_calls' : 'stop');

export function completionBody(r: BuiltReply): Record<string, unknown> {
  const message: Record<string, unknown> = {
    role: 'assistant',
    content: r.text === '' && r.calls.length > 0 ? null : r.text,
    refusal: null,
  };
  if (r.reasoning) message.reasoning_content = r.reasoning;
  if (r.calls.length > 0) {
    message.tool_calls = r.calls.map((c) => ({
      id: c.id,
      type: 'function',
      function: { name: c.name, arguments: c.arguments },
    }));
  }
  return {
    id: r.id,
    object: 'chat.completion',
    created: r.created,
    model: SIM_MODEL_ID,
    system_fingerprint: SIM_FINGERPRINT,
    choices: [{ index: 0, message, logprobs: null, finish_reason: finishReason(r) }],
    usage: r.usage,
  };
}

/** Splits text into pieces of about `size` characters without breaking a surrogate pair. */
export function pieces(text: string, size: number): string[] {
  const chars = Array.from(text);
  const out: string[] = [];
  for (let i = 0; i < chars.length; i += size) out.push(chars.slice(i, i + size).join(''));
  return out;
}

const TEXT_PIECE = 16;
const ARGS_PIECE = 24;

/** Every chunk of a streamed reply, in order; the caller writes each as `data: <json>` and then `[DONE]`. */
export function streamChunks(r: BuiltReply, includeUsage: boolean): Record<string, unknown>[] {
  const base = {
    id: r.id,
    object: 'chat.completion.chunk',
    created: r.created,
    model: SIM_MODEL_ID,
    system_fingerprint: SIM_FINGERPRINT,
  };
  const chunk = (delta: Record<string, unknown>, finish: string | null = null): Record<string, unknown> => ({
    ...base,
    choices: [{ index: 0, delta, logprobs: null, finish_reason: finish }],
    ...(includeUsage ? { usage: null } : {}),
  });
  const out = [chunk({ role: 'assistant', content: '', refusal: null })];
  for (const piece of pieces(r.reasoning ?? '', TEXT_PIECE)) out.push(chunk({ reasoning_content: piece }));
  for (const piece of pieces(r.text, TEXT_PIECE)) out.push(chunk({ content: piece }));
  r.calls.forEach((c, index) => {
    out.push(chunk({ tool_calls: [{ index, id: c.id, type: 'function', function: { name: c.name, arguments: '' } }] }));
    for (const piece of pieces(c.arguments, ARGS_PIECE))
      out.push(chunk({ tool_calls: [{ index, function: { arguments: piece } }] }));
  });
  out.push(chunk({}, finishReason(r)));
  if (includeUsage) out.push({ ...base, choices: [], usage: r.usage });
  return out;
}

/** A request the server cannot answer as sent: answered 400 with this message (what to fix), param and code. */
export class BadRequest extends Error {
  constructor(
    message: string,
    readonly param: string | null = null,
    readonly code: string | null = null,
  ) {
    super(message);
  }
}

export function errorBody(
  message: string,
  type: string,
  code: string | null,
  param: string | null = null,
): Record<string, unknown> {
  return { error: { message, type, param, code } };
}

/** One model of GET /v1/models: the simulated model's names (shared/sim-models.ts). */
export function modelObject(id: string = SIM_MODEL_ID): Record<string, unknown> {
  return { id, object: 'model', created: 0, owned_by: SIM_FINGERPRINT };
}

/** An error body in Anthropic's shape, from the OpenAI-style type the server's shared paths use. */
export function messagesErrorBody(message: string, type: string): Record<string, unknown> {
  const anthropicType = type === 'server_error' ? 'api_error' : type;
  return { type: 'error', error: { type: anthropicType, message } };
}

/** A JSON reply, marked simulated like every reply of the server. */
export function sendJson(res: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  res.writeHead(status, {
    'content-type': 'application/json; charset=utf-8',
    'content-length': Buffer.byteLength(text),
    'x-parallax-simulated': 'true',
  });
  res.end(text);
}
