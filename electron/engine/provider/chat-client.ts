/**
 * One model request per step, streamed, with visible retries. The SDK's own retries are off so that every
 * attempt is an event; usage is taken from the provider's final chunk exactly as sent.
 */
import OpenAI, { APIConnectionError, APIConnectionTimeoutError, APIError, APIUserAbortError } from 'openai';
import type { ChatCompletionMessageParam, ChatCompletionTool } from 'openai/resources/chat/completions';
import type { ProviderInfo } from '../../../shared/run-spec.js';
import type { ToolExposure } from '../../../shared/step-event.js';
import { StreamAccumulator, type AccumulatedReply, type RawChunk } from './stream-accumulator.js';

export type ChatMessage = ChatCompletionMessageParam;

export interface ClientOptions {
  readonly timeoutMs: number;
  /** Extra headers, e.g. the simulated model's run id and fault list. */
  readonly headers?: Record<string, string>;
}

export function createChatClient(provider: ProviderInfo, apiKey: string | null, opts: ClientOptions): OpenAI {
  return new OpenAI({
    baseURL: provider.baseUrl,
    // The SDK insists on a key; local servers (Ollama, vLLM, the simulated model) ignore it.
    apiKey: apiKey ?? 'no-key',
    maxRetries: 0,
    timeout: opts.timeoutMs,
    defaultHeaders: opts.headers,
  });
}

/** A failed request, classified: retryable ones are tried again; the others end the run with `message`. */
export class ModelRequestError extends Error {
  constructor(
    message: string,
    readonly status: number | null,
    readonly retryable: boolean,
    /** Seconds the provider asked us to wait (Retry-After), if it did. */
    readonly retryAfterS: number | null = null,
  ) {
    super(message);
    this.name = 'ModelRequestError';
  }
}

export class RequestCancelledError extends Error {
  constructor() {
    super('The run was cancelled.');
    this.name = 'RequestCancelledError';
  }
}

/** Seconds to wait from `retry-after-ms` (OpenAI) or `retry-after` (seconds; HTTP dates are ignored). */
function retryAfterOf(headers: Headers | undefined): number | null {
  const ms = Number(headers?.get('retry-after-ms') ?? NaN);
  if (Number.isFinite(ms) && ms >= 0) return ms / 1000;
  const s = Number(headers?.get('retry-after') ?? NaN);
  return Number.isFinite(s) && s >= 0 ? s : null;
}

/** The innermost useful reason of a connection failure: fetch wraps the socket error ("fetch failed"). */
function connectionCause(err: Error): string {
  let e: unknown = err;
  let text = err.message;
  for (let depth = 0; e instanceof Error && depth < 5; depth++, e = e.cause) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code) return `${code}: ${e.message}`;
    if (e !== err) text = e.message;
  }
  return text;
}

/** Turn any error from the SDK into a message that says what to fix. */
export function classifyError(err: unknown, provider: ProviderInfo): ModelRequestError | RequestCancelledError {
  if (err instanceof APIUserAbortError) return new RequestCancelledError();
  const where = `${provider.name} at ${provider.baseUrl}`;
  if (err instanceof APIConnectionTimeoutError)
    return new ModelRequestError(`The request to ${where} timed out. The provider may be overloaded; try again or raise the request timeout.`, null, true);
  if (err instanceof APIConnectionError)
    return new ModelRequestError(`Could not reach ${where} (${connectionCause(err)}). Check the base URL and that the server is running.`, null, true);
  if (err instanceof APIError) {
    const status = err.status ?? null;
    const detail = err.message.replace(/^\d{3}\s*/, '');
    if (status === 401)
      return new ModelRequestError(`${where} rejected the API key (401: ${detail}). Check the key you set for ${provider.name}.`, 401, false);
    if (status === 403)
      return new ModelRequestError(`${where} refused access (403: ${detail}). The key may lack access to model "${provider.model}".`, 403, false);
    if (status === 404)
      return new ModelRequestError(`${where} answered 404 (${detail}). Check that the base URL ends with /v1 (or the provider's API path) and that model "${provider.model}" exists.`, 404, false);
    if (status === 429)
      return new ModelRequestError(`${where} is rate limiting (429: ${detail}).`, 429, true, retryAfterOf(err.headers));
    if (status !== null && status >= 500)
      return new ModelRequestError(`${where} had a server error (${status}: ${detail}).`, status, true, retryAfterOf(err.headers));
    return new ModelRequestError(`${where} refused the request (${status ?? 'no status'}: ${detail}). Check the model name and that it supports tool calling.`, status, false);
  }
  if (err instanceof Error && err.name === 'AbortError') return new RequestCancelledError();
  return new ModelRequestError(`The request to ${where} failed: ${err instanceof Error ? err.message : String(err)}`, null, false);
}

export interface StreamRequest {
  readonly model: string;
  readonly messages: readonly ChatMessage[];
  readonly tools: readonly ToolExposure[];
  readonly temperature: number | null;
}

/** Send one streamed request and fold its chunks. Throws ModelRequestError / RequestCancelledError. */
export async function streamChat(client: OpenAI, provider: ProviderInfo, req: StreamRequest, signal: AbortSignal): Promise<AccumulatedReply> {
  const tools: ChatCompletionTool[] = req.tools.map((t) => ({
    type: 'function',
    function: { name: t.name, description: t.description, parameters: t.parameters },
  }));
  try {
    const stream = await client.chat.completions.create(
      {
        model: req.model,
        messages: req.messages as ChatMessage[],
        ...(tools.length ? { tools } : {}),
        ...(req.temperature !== null ? { temperature: req.temperature } : {}),
        stream: true,
        stream_options: { include_usage: true },
      },
      { signal },
    );
    const acc = new StreamAccumulator();
    for await (const chunk of stream) acc.push(chunk as unknown as RawChunk);
    return acc.result();
  } catch (err) {
    if (signal.aborted) throw new RequestCancelledError();
    throw classifyError(err, provider);
  }
}

/** Wait `ms`, or reject with RequestCancelledError as soon as the signal aborts. */
export function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(new RequestCancelledError());
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(new RequestCancelledError());
    };
    signal.addEventListener('abort', onAbort, { once: true });
  });
}

/** Backoff before retry `attempt` (2, 3, …): the provider's Retry-After if given (capped), else exponential. */
export function backoffMs(attempt: number, retryAfterS: number | null): number {
  if (retryAfterS !== null) return Math.min(retryAfterS * 1000, 30_000);
  return Math.min(500 * 2 ** (attempt - 2), 8000);
}
