/**
 * Round three on the Messages API (tests/helpers/wire-shapes-3.ts has the chat-completions shapes and the types):
 * a final reply stopped by max_tokens or by model_context_window_exceeded, and LiteLLM's /v1/messages writing a
 * failure as a plain `data: {"error": …}` line, with no `event: error` and no `type`.
 */
import type { ReplayReply } from './replay-server.js';
import { event, messageStart, streamReply } from './anthropic-shapes.js';
import { ANSWER } from './wire-shapes.js';
import { FAMILIES, answerText, readCall, type Family } from './wire-shapes-2.js';
import type { Shape3 } from './wire-shapes-3.js';

/** The family's read of a.txt as one Messages API turn: a tool_use whose input streams in pieces, or text. */
export function callTurn(f: Family, id: string): ReplayReply {
  const c = readCall(f);
  const half = Math.floor(c.arguments.length / 2);
  const body =
    f === 'react-text'
      ? [
          event({ type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } }),
          event({ type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: c.text } }),
          event({ type: 'content_block_stop', index: 0 }),
        ]
      : [
          event({
            type: 'content_block_start',
            index: 0,
            content_block: { type: 'tool_use', id: 'toolu_01T1x1fJ34qAmk2tNTrN7Up6', name: c.name, input: {} },
          }),
          event({
            type: 'content_block_delta',
            index: 0,
            delta: { type: 'input_json_delta', partial_json: c.arguments.slice(0, half) },
          }),
          event({
            type: 'content_block_delta',
            index: 0,
            delta: { type: 'input_json_delta', partial_json: c.arguments.slice(half) },
          }),
          event({ type: 'content_block_stop', index: 0 }),
        ];
  return streamReply([
    event(messageStart({ input_tokens: 410, output_tokens: 1 }, id)),
    ...body,
    event({
      type: 'message_delta',
      delta: { stop_reason: f === 'react-text' ? 'end_turn' : 'tool_use', stop_sequence: null },
      usage: { output_tokens: 42 },
    }),
    event({ type: 'message_stop' }),
  ]);
}

/** A text turn ending with `stop`, after `text`. */
export function textTurn(id: string, text: string, stop: string, input = 480, output = 20): ReplayReply {
  return streamReply([
    event(messageStart({ input_tokens: input, output_tokens: 1 }, id)),
    event({ type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } }),
    event({ type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text } }),
    event({ type: 'content_block_stop', index: 0 }),
    event({
      type: 'message_delta',
      delta: { stop_reason: stop, stop_sequence: null },
      usage: { output_tokens: output },
    }),
    event({ type: 'message_stop' }),
  ]);
}

// Anthropic: stop_reason "max_tokens" on the final text (docs.anthropic.com "Handling stop reasons": max_tokens
// means the reply was truncated at the max_tokens limit).
const maxTokens: Shape3 = {
  name: 'anthropic-final-max-tokens',
  source: 'Anthropic docs: Handling stop reasons (max_tokens)',
  protocol: 'anthropic',
  families: FAMILIES,
  build(f) {
    const cut = answerText(f).slice(0, answerText(f).length - 15);
    return {
      replies: [callTurn(f, 'msg_01maxA'), textTurn('msg_01maxB', cut, 'max_tokens', 520, 8192)],
      expect: {
        status: 'truncated',
        requests: 2,
        answer: '',
        error: /token limit before it was finished \(stop_reason "max_tokens"\)/,
        text: { 2: cut },
        usage: { 2: { prompt: 520, completion: 8192 } },
      },
    };
  },
};

// Anthropic: stop_reason "model_context_window_exceeded" (docs.anthropic.com "Handling stop reasons": the reply
// stopped because it reached the model's context window limit; sent with the context-management beta and newer models).
const windowExceeded: Shape3 = {
  name: 'anthropic-final-context-window-exceeded',
  source: 'Anthropic docs: Handling stop reasons (model_context_window_exceeded)',
  protocol: 'anthropic',
  families: FAMILIES,
  build(f) {
    const cut = answerText(f).slice(0, 30);
    return {
      replies: [callTurn(f, 'msg_01winA'), textTurn('msg_01winB', cut, 'model_context_window_exceeded', 199_000, 990)],
      expect: {
        status: 'truncated',
        requests: 2,
        answer: '',
        error: /filled the model's context window \(stop_reason "model_context_window_exceeded"\).*larger window/,
        text: { 2: cut },
      },
    };
  },
};

/**
 * LiteLLM's /v1/messages stream failing after it began: its generator catches the provider's exception and writes
 * `data: {"error": ProxyException.to_dict()}` — message, type, param and the status as text in `code`, no event
 * line (litellm/proxy/anthropic_endpoints/endpoints.py, async_data_generator_anthropic; BerriAI/litellm#41826).
 */
function litellmFailure(code: string, message: string): ReplayReply {
  return streamReply([
    event(messageStart({ input_tokens: 410, output_tokens: 1 }, 'msg_01litellm')),
    event({ type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } }),
    event({ type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: 'Let me' } }),
    `data: ${JSON.stringify({ error: { message, type: 'None', param: 'None', code } })}\n\n`,
  ]);
}

const litellm429: Shape3 = {
  name: 'litellm-messages-data-error-429',
  source: 'litellm proxy anthropic_endpoints/endpoints.py (async_data_generator_anthropic); BerriAI/litellm#41826',
  protocol: 'anthropic',
  families: FAMILIES,
  build(f) {
    const words =
      'litellm.RateLimitError: AnthropicException - {"type":"error","error":{"type":"rate_limit_error","message":"This request would exceed the rate limit for your organization of 80,000 input tokens per minute."}}';
    return {
      replies: [
        litellmFailure('429', words),
        callTurn(f, 'msg_01llA'),
        textTurn('msg_01llB', answerText(f), 'end_turn'),
      ],
      expect: {
        status: 'answered',
        requests: 3,
        answer: ANSWER,
        retries: [
          /reported an error inside the stream \(429\): litellm\.RateLimitError: .*80,000 input tokens per minute/,
        ],
      },
    };
  },
};

const litellm400: Shape3 = {
  name: 'litellm-messages-data-error-400',
  source: 'litellm proxy anthropic_endpoints/endpoints.py (async_data_generator_anthropic); BerriAI/litellm#41826',
  protocol: 'anthropic',
  families: FAMILIES,
  build() {
    const words = 'litellm.BadRequestError: AnthropicException - prompt is too long: 210345 tokens > 200000 maximum';
    return {
      replies: [litellmFailure('400', words)],
      expect: {
        status: 'error',
        requests: 1,
        answer: '',
        retries: [],
        error: /no longer fits model "replay"'s context window \(400: litellm\.BadRequestError: .*prompt is too long/,
      },
    };
  },
};

export const WIRE_SHAPES_3_ANTHROPIC: readonly Shape3[] = [maxTokens, windowExceeded, litellm429, litellm400];
