/**
 * Replies that must not be recorded as answers: broken streams, stalls, and error statuses as providers send
 * them, each with what the run should say. The source of each shape is noted beside it.
 */
import { jsonReply, sse, type ReplayReply } from './replay-server.js';
import { answerDeltas, chunk, created, usageChunk } from './wire-shapes.js';

/** A reply that must end the step as an error (or a retry), with what the user should read. */
export interface FailureShape {
  readonly name: string;
  readonly source: string;
  readonly replies: readonly ReplayReply[];
  /** The run's error should match this. */
  readonly error: RegExp;
  /** Whether the failure is retried (with a good reply queued after it, the run then answers). */
  readonly retried: boolean;
}

export const okText = (id = 'chatcmpl-ok', m = 'm'): ReplayReply => ({
  body: sse([
    ...answerDeltas(id, m),
    chunk(id, m, {}, 'stop'),
    usageChunk(id, m, { prompt_tokens: 120, completion_tokens: 15, total_tokens: 135 }),
  ]),
});
const partial = (id = 'chatcmpl-cut', m = 'm') => [
  chunk(id, m, { role: 'assistant', content: null }),
  chunk(id, m, {
    tool_calls: [
      { index: 0, id: 'call_cut', type: 'function', function: { name: 'read_file', arguments: '{"path": "a.t' } },
    ],
  }),
];

export const FAILURE_SHAPES: readonly FailureShape[] = [
  {
    name: 'cut-mid-arguments',
    source: 'connection closed mid-stream (no finish_reason, no [DONE])',
    replies: [{ body: sse(partial(), { done: false }) }, okText()],
    error: /ended before the reply was complete|stream ended/i,
    retried: true,
  },
  {
    name: 'empty-stream',
    source: '200 text/event-stream with an empty body',
    replies: [{ body: [] }, okText()],
    error: /empty/i,
    retried: true,
  },
  {
    name: 'html-200',
    source: 'a proxy or portal answering 200 with an HTML page',
    replies: [
      {
        headers: { 'content-type': 'text/html; charset=utf-8' },
        body: ['<!DOCTYPE html>\n<html><head><title>Gateway</title></head><body>Sign in to continue</body></html>\n'],
      },
      okText(),
    ],
    error: /HTML|not an event stream|not a stream/i,
    retried: true,
  },
  {
    name: 'garbage-200',
    source: 'a 200 body that is neither SSE nor JSON',
    replies: [
      {
        headers: { 'content-type': 'text/plain' },
        body: ['upstream connect error or disconnect/reset before headers. reset reason: overflow\n'],
      },
      okText(),
    ],
    error: /not an event stream|not a stream|unreadable/i,
    retried: true,
  },
  {
    name: 'data-not-json',
    source: 'SSE data events that are not JSON',
    replies: [
      { body: ['data: {"choices":[{"index":0,"delta":{"content":"Hi"}}]}\n\n', 'data: <html>oops</html>\n\n'] },
      okText(),
    ],
    error: /not JSON/i,
    retried: true,
  },
  {
    name: 'in-stream-error',
    source: 'openai-python/coder fixtures: data: {"error": {...}} inside a 200 stream',
    replies: [
      {
        body: sse(
          [
            ...partial().slice(0, 1),
            {
              error: {
                message: 'The server had an error while processing your request. Sorry about that!',
                type: 'server_error',
              },
            },
          ],
          { done: false },
        ),
      },
      okText(),
    ],
    error: /error inside the stream|server had an error/i,
    retried: true,
  },
  {
    name: 'openrouter-finish-error',
    source: 'OpenRouter: finish_reason "error" with an error object (streaming docs, Handling Errors During Streaming)',
    replies: [
      {
        body: sse([
          {
            id: 'gen-err',
            object: 'chat.completion.chunk',
            created,
            model: 'x',
            provider: 'Together',
            error: { code: 'server_error', message: 'Provider disconnected' },
            choices: [{ index: 0, delta: { content: '' }, finish_reason: 'error' }],
          },
        ]),
      },
      okText(),
    ],
    error: /Provider disconnected/,
    retried: true,
  },
  {
    name: 'vllm-error-object',
    source: 'vLLM: {"object":"error","message":…} in the stream (block/goose#8031)',
    replies: [
      {
        body: sse(
          [
            {
              object: 'error',
              message: 'Input validation error: inputs tokens + max_new_tokens must be <= 32768',
              type: 'BadRequestError',
              code: 400,
            },
          ],
          { done: false },
        ),
      },
    ],
    error: /Input validation error/,
    retried: false,
  },
];

/** A reply that stalls, trickles or drips, for the timeout tests (time-bound). */
export const STALL_SHAPES = {
  stall: { body: [], end: 'hang' } satisfies ReplayReply,
  stallAfterChunks: { body: sse(partial(), { done: false }), end: 'hang' } satisfies ReplayReply,
  trickle: {
    body: [': OPENROUTER PROCESSING\n\n'],
    trickle: { everyMs: 100, comment: 'OPENROUTER PROCESSING' },
  } satisfies ReplayReply,
  drip: {
    body: sse(partial().slice(0, 1), { done: false }),
    drip: { everyMs: 150, data: JSON.stringify(chunk('chatcmpl-drip', 'm', { content: '.' })) },
  } satisfies ReplayReply,
};

/** Error statuses as providers send them, each with what the run should say. */
export interface StatusShape {
  readonly name: string;
  readonly source: string;
  readonly replies: readonly ReplayReply[];
  /** The run ends with this error, or (when `answers`) retries and answers. */
  readonly error: RegExp;
  readonly answers: boolean;
  /** Text the message must not contain (misleading hints). */
  readonly not?: RegExp;
}

const TOOLS_HINT = /supports? tool calling/i;
export const STATUS_SHAPES: readonly StatusShape[] = [
  {
    name: '401 key',
    source: 'OpenAI error object (invalid_api_key)',
    replies: [
      jsonReply(401, {
        error: {
          message:
            'Incorrect API key provided: sk-repla***-key. You can find your API key at https://platform.openai.com/account/api-keys.',
          type: 'invalid_request_error',
          param: null,
          code: 'invalid_api_key',
        },
      }),
    ],
    error: /API key/i,
    answers: false,
    not: TOOLS_HINT,
  },
  {
    name: '400 Gemini key (JSON array body)',
    source: 'Gemini OpenAI endpoint: a JSON array of error objects',
    replies: [
      jsonReply(400, [
        {
          error: { code: 400, message: 'API key not valid. Please pass a valid API key.', status: 'INVALID_ARGUMENT' },
        },
      ]),
    ],
    error: /API key not valid/,
    answers: false,
    not: TOOLS_HINT,
  },
  {
    name: '402 credits',
    source: 'OpenRouter errors docs (402 insufficient credits)',
    replies: [
      jsonReply(402, {
        error: { code: 402, message: 'Insufficient credits. Add more using https://openrouter.ai/settings/credits' },
      }),
    ],
    error: /credits/i,
    answers: false,
    not: TOOLS_HINT,
  },
  {
    name: '429 insufficient_quota',
    source: 'OpenAI: out of quota is a 429 with code insufficient_quota',
    replies: [
      jsonReply(429, {
        error: {
          message: 'You exceeded your current quota, please check your plan and billing details.',
          type: 'insufficient_quota',
          param: null,
          code: 'insufficient_quota',
        },
      }),
    ],
    error: /quota|billing/i,
    answers: false,
  },
  {
    name: '403 access',
    source: 'OpenRouter errors docs (403 moderation / no access)',
    replies: [
      jsonReply(403, {
        error: { code: 403, message: 'Your chosen model requires moderation and your input was flagged' },
      }),
    ],
    error: /403/,
    answers: false,
    not: TOOLS_HINT,
  },
  {
    name: '404 model',
    source: 'OpenAI model_not_found',
    replies: [
      jsonReply(404, {
        error: {
          message: 'The model `gpt-9` does not exist or you do not have access to it.',
          type: 'invalid_request_error',
          param: null,
          code: 'model_not_found',
        },
      }),
    ],
    error: /model/i,
    answers: false,
  },
  {
    name: '400 tools unsupported',
    source: 'Ollama: "<model> does not support tools"',
    replies: [
      jsonReply(400, {
        error: {
          message: 'registry.ollama.ai/library/gemma:2b does not support tools',
          type: 'api_error',
          param: null,
          code: null,
        },
      }),
    ],
    error: /does not support tools/,
    answers: false,
  },
  {
    name: '400 unrelated',
    source: 'OpenAI invalid parameter',
    replies: [
      jsonReply(400, {
        error: {
          message: "Invalid value for 'temperature': must be between 0 and 2.",
          type: 'invalid_request_error',
          param: 'temperature',
          code: 'invalid_value',
        },
      }),
    ],
    error: /temperature/,
    answers: false,
    not: TOOLS_HINT,
  },
  {
    name: '400 stream_options refused',
    source: 'older Azure OpenAI deployments: "Unrecognized request argument supplied: stream_options"',
    replies: [
      jsonReply(400, {
        error: { code: 'BadRequest', message: 'Unrecognized request argument supplied: stream_options' },
      }),
      okText(),
    ],
    error: /./,
    answers: true,
  },
  {
    name: '429 then ok',
    source: 'rate limit with Retry-After',
    replies: [
      jsonReply(
        429,
        { error: { message: 'Rate limit reached for requests', type: 'requests', code: 'rate_limit_exceeded' } },
        { 'retry-after': '0' },
      ),
      okText(),
    ],
    error: /./,
    answers: true,
  },
  {
    name: '503 plain text then ok',
    source: 'a proxy answering 503 with a plain-text body',
    replies: [
      {
        status: 503,
        headers: { 'content-type': 'text/plain' },
        body: ['upstream connect error or disconnect/reset before headers'],
      },
      okText(),
    ],
    error: /./,
    answers: true,
  },
];
