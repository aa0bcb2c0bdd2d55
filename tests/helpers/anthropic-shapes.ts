/**
 * Messages API streams in the shapes Anthropic documents (docs.anthropic.com, "Streaming messages": the event
 * order, ping, text_delta, input_json_delta fragments, thinking and signature deltas, message_delta with
 * stop_reason and usage, an `error` event mid-stream) and the SDK's own SSE fixtures show (usage with
 * cache_creation detail, service_tier, output_tokens_details, cumulative counts in message_delta, JSON padded with
 * spaces inside data lines). Written anew from those facts; ids and counts are this file's own.
 */
import type { ReplayReply } from './replay-server.js';

/** One SSE event as the API sends it: `event: <type>` then `data: <json>` (optionally padded, as in the SDK's fixtures). */
export function event(data: Record<string, unknown>, pad = ''): string {
  return `event: ${String(data.type)}\ndata: ${JSON.stringify(data)}${pad}\n\n`;
}

export function messageStart(usage: Record<string, unknown>, id = 'msg_01replay'): Record<string, unknown> {
  return {
    type: 'message_start',
    message: {
      id,
      type: 'message',
      role: 'assistant',
      model: 'claude-sonnet-4-5',
      content: [],
      stop_reason: null,
      stop_sequence: null,
      usage,
    },
  };
}

const SSE = { 'content-type': 'text/event-stream; charset=utf-8', 'request-id': 'req_011replay' };

export function streamReply(events: readonly string[], headers: Record<string, string> = {}): ReplayReply {
  return { headers: { ...SSE, ...headers }, body: events };
}

/** Fragments of one tool input, split mid-token: inside a key, inside a string value, between a colon and its value. */
export const READ_FILE_FRAGMENTS = ['', '{"pa', 'th": "no', 'tes/to', 'do.t', 'xt"', '}'];

/** Step 1: text, a ping, then a tool_use whose input arrives in fragments; writes the prefix to the cache. */
export const TOOL_USE_STREAM = streamReply([
  event(
    messageStart({
      input_tokens: 21,
      cache_creation_input_tokens: 1173,
      cache_read_input_tokens: 0,
      cache_creation: { ephemeral_5m_input_tokens: 1173, ephemeral_1h_input_tokens: 0 },
      output_tokens: 1,
      service_tier: 'standard',
    }),
  ),
  event({ type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } }),
  event({ type: 'ping' }),
  event({ type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: 'Let me read' } }),
  event({ type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: ' the notes.' } }),
  event({ type: 'content_block_stop', index: 0 }, '   '),
  event({
    type: 'content_block_start',
    index: 1,
    content_block: { type: 'tool_use', id: 'toolu_01A', name: 'read_file', input: {} },
  }),
  ...READ_FILE_FRAGMENTS.map((partial_json) =>
    event({ type: 'content_block_delta', index: 1, delta: { type: 'input_json_delta', partial_json } }),
  ),
  event({ type: 'content_block_stop', index: 1 }),
  event({
    type: 'message_delta',
    delta: { stop_reason: 'tool_use', stop_sequence: null },
    usage: { output_tokens: 89 },
  }),
  event({ type: 'message_stop' }, ' '),
]);

/** Step 2: thinking with its signature, then the answer; message_delta repeats every count, cumulative. */
export const THINKING_ANSWER_STREAM = streamReply([
  event(
    messageStart(
      { input_tokens: 35, cache_creation_input_tokens: 66, cache_read_input_tokens: 1173, output_tokens: 2 },
      'msg_01replay2',
    ),
  ),
  event({ type: 'content_block_start', index: 0, content_block: { type: 'thinking', thinking: '', signature: '' } }),
  event({
    type: 'content_block_delta',
    index: 0,
    delta: { type: 'thinking_delta', thinking: 'The file lists three items.' },
  }),
  event({ type: 'content_block_delta', index: 0, delta: { type: 'signature_delta', signature: 'EqQBCgIYAhIMsig==' } }),
  event({ type: 'content_block_stop', index: 0 }),
  event({ type: 'content_block_start', index: 1, content_block: { type: 'text', text: '' } }),
  event({ type: 'content_block_delta', index: 1, delta: { type: 'text_delta', text: 'The notes hold 3 items.' } }),
  event({ type: 'content_block_stop', index: 1 }),
  event({ type: 'ping' }),
  event({
    type: 'message_delta',
    delta: { stop_reason: 'end_turn', stop_sequence: null },
    usage: {
      input_tokens: 35,
      cache_creation_input_tokens: 66,
      cache_read_input_tokens: 1173,
      output_tokens: 41,
      output_tokens_details: { thinking_tokens: 17 },
    },
  }),
  event({ type: 'message_stop' }),
]);

/** Anthropic's documented mid-stream failure: an `error` event after the stream has begun. */
export const OVERLOADED_MID_STREAM = streamReply([
  event(messageStart({ input_tokens: 10, output_tokens: 1 })),
  event({ type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } }),
  event({ type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: 'Partial' } }),
  event({ type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' } }),
]);

/** An error response body as the API sends it. */
export function errorBody(type: string, message: string): Record<string, unknown> {
  return { type: 'error', error: { type, message }, request_id: 'req_011error' };
}
