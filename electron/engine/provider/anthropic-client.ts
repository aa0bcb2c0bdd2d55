/**
 * One step through Anthropic's native Messages API, behind the same streamChat the loop calls. The official SDK
 * builds and sends the request (x-api-key, anthropic-version, base URL, header-wait timeout; no retries of its
 * own: the loop's are recorded); the body is read here with eventsource-parser, as for chat completions, so
 * every event is seen (ping, an `error` event mid-stream) and silence is bounded. What the server sent is
 * recorded: usage as anthropic-stream.ts folds it, stop_reason beside the mapped finish reason, the request id.
 */
import Anthropic, {
  APIConnectionError,
  APIConnectionTimeoutError,
  APIError,
  APIUserAbortError,
} from '@anthropic-ai/sdk';
import { createParser, type EventSourceMessage } from 'eventsource-parser';
import { ANTHROPIC_VERSION } from '../../../shared/providers.js';
import { SIM_POLICY_HEADER } from '../../../shared/run-spec.js';
import type { ChatClient, ChatReply, StreamRequest } from './chat-client.js';
import {
  classifyError,
  classifyStatus,
  detailOf,
  ModelRequestError,
  networkMessage,
  RequestCancelledError,
  socketCause,
  where,
} from './errors.js';
import { ReplyLimitError } from './reply-limits.js';
import { toMessagesBody } from './anthropic-messages.js';
import { ERROR_STATUS, MessagesAccumulator } from './anthropic-stream.js';
import { errorObjectOf } from './stream-accumulator.js';
import { withBounds, type Bounds } from './request-bounds.js';
import { estimateUsage } from './usage.js';
import { MAX_REPLY_CHARS, type ReadState } from './wire-reader.js';

/** max_tokens is required by the Messages API; the loop has no setting for it, so every mode gets the same. */
export const ANTHROPIC_MAX_TOKENS = 8192;

const sdks = new WeakMap<ChatClient, Anthropic>();

/** The SDK's base URL: the preset's ends in /v1 like every other provider's, and the SDK adds /v1/messages itself. */
export function sdkBaseUrl(baseUrl: string): string {
  return baseUrl.replace(/\/+$/, '').replace(/\/v1$/, '');
}

function sdkOf(client: ChatClient): Anthropic {
  let sdk = sdks.get(client);
  if (!sdk) {
    sdk = new Anthropic({
      baseURL: sdkBaseUrl(client.provider.baseUrl),
      // Given explicitly, so the SDK reads no variable or credentials file of its own; local servers ignore it.
      apiKey: client.apiKey ?? 'no-key',
      maxRetries: 0,
      timeout: client.options.timeoutMs,
      // The documented wire: the key as x-api-key under the pinned API version (this SDK release would send it
      // as a bearer token under a newer version); its own Authorization header is removed.
      defaultHeaders: {
        'anthropic-version': ANTHROPIC_VERSION,
        'x-api-key': client.apiKey ?? 'no-key',
        authorization: null,
        ...client.options.headers,
      },
      fetch: client.fetch,
    });
    sdks.set(client, sdk);
  }
  return sdk;
}

/** tool_choice as the Messages API writes it: "required" is its "any". */
function messagesToolChoice(c: NonNullable<StreamRequest['toolChoice']>): Record<string, string> {
  if (typeof c !== 'string') return { type: 'tool', name: c.name };
  return { type: c === 'required' ? 'any' : c };
}

export async function streamMessages(client: ChatClient, req: StreamRequest, signal: AbortSignal): Promise<ChatReply> {
  const { provider, options } = client;
  // A mode that reads actions from text may ask the server to stop at a marker (chat completions' `stop`).
  const stopRaw = (req as { stop?: unknown }).stop;
  const stop = (Array.isArray(stopRaw) ? stopRaw : [stopRaw]).filter(
    (x): x is string => typeof x === 'string' && x.trim() !== '',
  );
  const body = {
    model: req.model,
    max_tokens: req.maxTokens ?? ANTHROPIC_MAX_TOKENS,
    ...toMessagesBody(req.messages, req.tools, options.promptCache ?? 'off'),
    ...(req.temperature !== null ? { temperature: req.temperature } : {}),
    ...(stop.length ? { stop_sequences: stop } : {}),
    ...(req.toolChoice !== undefined && req.tools.length ? { tool_choice: messagesToolChoice(req.toolChoice) } : {}),
    stream: true as const,
  };
  const state: ReadState = { dataEvents: 0, comments: 0, sawDone: false };
  const acc = new MessagesAccumulator();
  let noPolicy = false;
  let requestId: string | undefined;
  client.lastErrorBody = null;
  await withBounds(
    provider,
    options,
    signal,
    state,
    async (bounds) => {
      const response = await sdkOf(client)
        .messages.create(body as never, { signal: bounds.signal })
        .asResponse();
      requestId = response.headers.get('request-id') ?? undefined;
      noPolicy = provider.simulated && response.headers.get(SIM_POLICY_HEADER) === 'none';
      bounds.onData();
      await readMessages(response, acc, client, bounds, state);
    },
    (err) => classifyAnthropicError(err, client),
    client.redact,
  );

  const receivedAt = performance.now();
  const { stopReason, started: _started, stopped: _stopped, ...reply } = acc.result();
  const base = {
    ...reply,
    noPolicy,
    receivedAt,
    firstOutputAt: acc.firstOutputAt,
    ...(stopReason !== null ? { stopReason } : {}),
    ...(requestId ? { requestId } : {}),
  };
  if (reply.usage) return { ...base, usage: reply.usage, usageSource: 'reported' };
  // A Messages-compatible server that counts nothing: the tokenizer counts what was sent and received.
  const usage = await estimateUsage({
    messages: req.messages as never,
    tools: body.tools ?? [],
    text: reply.text,
    reasoningText: reply.reasoningText,
    toolCalls: reply.toolCalls,
  });
  return { ...base, usage, usageSource: 'estimated' };
}

function streamError(client: ChatClient, what: string): ModelRequestError {
  return new ModelRequestError(`${where(client.provider)} ${what}`, null, true, null, 'stream');
}

/**
 * An `error` event (or error body) of the Messages API as the error of the status it stands for: Anthropic's
 * error type decides; a gateway's error object (LiteLLM's `{"error": {message, type, code: "429"}}`) is read by
 * its code, a status as text.
 */
function errorEvent(data: unknown, client: ChatClient, headers?: Headers | null): ModelRequestError {
  const raw = (data as { error?: unknown } | null)?.error;
  const err = errorObjectOf(raw ?? data);
  const type = err.codes?.type ?? null;
  const known = type !== null && ERROR_STATUS[type] !== undefined;
  const status = known ? ERROR_STATUS[type]! : (err.code ?? 500);
  const label = known ? type : err.code !== null ? String(err.code) : (type ?? 'api_error');
  const message =
    raw === undefined && typeof (data as { message?: unknown } | null)?.message !== 'string'
      ? JSON.stringify(data)
      : err.message;
  if (status >= 500 || status === 429)
    return new ModelRequestError(
      `${where(client.provider)} reported an error inside the stream (${label}): ${message}`,
      status,
      true,
      null,
      status === 429 ? 'rate-limit' : 'server',
    );
  return classifyStatus(
    status,
    `${message} [${label}]`,
    client.provider,
    headers,
    known ? { type } : (err.codes ?? {}),
  );
}

async function readMessages(
  response: Response,
  acc: MessagesAccumulator,
  client: ChatClient,
  bounds: Bounds,
  state: ReadState,
): Promise<void> {
  if (!response.body)
    throw streamError(
      client,
      `answered ${response.status} with no body. Try again; if it persists, check the base URL.`,
    );
  const contentType = response.headers.get('content-type') ?? '';
  const reader = response.body.getReader();
  const decoder = new TextDecoder();
  let failure: ModelRequestError | null = null;
  let total = 0;
  let json = '';
  const isJson = /json/i.test(contentType);
  const parser = createParser({
    onEvent: (ev: EventSourceMessage) => {
      if (failure) return;
      state.dataEvents++;
      bounds.onData();
      let data: Record<string, unknown>;
      try {
        data = JSON.parse(ev.data) as Record<string, unknown>;
      } catch {
        failure = streamError(
          client,
          `sent an event that is not JSON (${ev.event ?? 'message'}): ${JSON.stringify(ev.data.slice(0, 120))}. It will be tried again.`,
        );
        return;
      }
      // An `error` event, or an error object in a plain data line (LiteLLM's /v1/messages writes `data: {"error": …}`
      // with no event name and no type): the provider's words, never a stream without message_start.
      if (
        ev.event === 'error' ||
        data?.type === 'error' ||
        (data?.type === undefined && data?.error !== undefined && data?.error !== null)
      ) {
        failure = errorEvent(data, client);
        return;
      }
      acc.push(data);
    },
    onComment: () => void state.comments++,
    maxBufferSize: MAX_REPLY_CHARS,
  });
  try {
    for (;;) {
      const { value, done } = await Promise.race([reader.read(), bounds.interrupted]);
      if (done) break;
      total += value.byteLength;
      if (total > MAX_REPLY_CHARS)
        throw streamError(client, `sent a reply larger than ${MAX_REPLY_CHARS / 1024 / 1024} MB; it was abandoned.`);
      const text = decoder.decode(value, { stream: true });
      if (isJson) json += text;
      else parser.feed(text);
      if (failure) throw failure;
      if (acc.stopped) break;
    }
    if (failure) throw failure;
  } finally {
    reader.cancel().catch(() => undefined);
  }
  if (isJson) {
    let msg: Record<string, unknown>;
    try {
      msg = JSON.parse(json + decoder.decode()) as Record<string, unknown>;
    } catch {
      throw streamError(client, `answered ${response.status} with unreadable JSON. It will be tried again.`);
    }
    if (msg.type === 'error' || (msg.type === undefined && msg.error !== undefined && msg.error !== null))
      throw errorEvent(msg, client, response.headers);
    if (msg.type !== 'message')
      throw streamError(client, `answered ${response.status} with JSON that is not a message. Check the base URL.`);
    acc.pushMessage(msg);
    return;
  }
  const r = acc.result();
  if (!r.started)
    throw streamError(
      client,
      `answered ${response.status} with ${state.dataEvents ? 'a stream without message_start' : 'an empty stream'} (${contentType || 'no content type'}). Check the base URL; it will be tried again.`,
    );
  if (!r.stopped)
    throw streamError(
      client,
      `stream ended before message_stop after ${state.dataEvents} event${state.dataEvents === 1 ? '' : 's'}${r.toolCalls.length ? `, with ${r.toolCalls.length} tool call${r.toolCalls.length === 1 ? '' : 's'} possibly cut short` : ''}. Nothing of it was used; it will be tried again.`,
    );
}

/** The Anthropic SDK's errors as ModelRequestErrors by cause (the same words as chat completions'). */
export function classifyAnthropicError(err: unknown, client: ChatClient): ModelRequestError | RequestCancelledError {
  const { provider } = client;
  if (err instanceof ModelRequestError || err instanceof RequestCancelledError) return err;
  if (err instanceof APIUserAbortError) return new RequestCancelledError();
  if (err instanceof ReplyLimitError) return classifyError(err, provider);
  if (err instanceof APIConnectionTimeoutError)
    return new ModelRequestError(
      `${where(provider)} sent no response headers within the request timeout. The provider may be overloaded; try again or raise "request timeout".`,
      null,
      true,
      null,
      'timeout',
    );
  if (err instanceof APIConnectionError) {
    const cause = socketCause(err);
    if (cause) return networkMessage(cause.code, cause.text, provider);
    return new ModelRequestError(
      `Could not reach ${where(provider)} (${err.message}). Check the base URL and that the server is running.`,
      null,
      true,
      null,
      'network',
    );
  }
  if (err instanceof APIError && typeof err.status === 'number') {
    const body = client.lastErrorBody;
    let parsed: unknown = null;
    try {
      parsed = JSON.parse(body ?? '');
    } catch {
      parsed = null;
    }
    const e = (parsed as { error?: { type?: unknown; message?: unknown } } | null)?.error;
    const detail =
      e && typeof e.message === 'string'
        ? `${e.message}${typeof e.type === 'string' ? ` [${e.type}]` : ''}`
        : detailOf(body, err.message.replace(/^\d{3}\s*/, '') || 'no body');
    return classifyStatus(err.status, detail, provider, err.headers as Headers | undefined);
  }
  if (err instanceof Error && err.name === 'AbortError') return new RequestCancelledError();
  const cause = socketCause(err);
  if (cause) return networkMessage(cause.code, cause.text, provider);
  return new ModelRequestError(
    `The request to ${where(provider)} failed: ${err instanceof Error ? err.message : String(err)}`,
    null,
    false,
  );
}
