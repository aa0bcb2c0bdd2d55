/**
 * One model request per step, streamed, with visible retries. The openai SDK builds and sends the request
 * (auth, headers, base URL, the header-wait timeout) and turns error statuses into APIErrors; the body is read
 * by wire-reader.ts, because the SDK's stream parser hides what a measurement must see ([DONE], keep-alive
 * comments, a body that is not SSE at all) and cannot bound the silence between chunks. Error bodies are
 * captured raw by a fetch wrapper, since the SDK's own parse loses JSON-array bodies (Gemini).
 */
import { SIM_POLICY_HEADER } from '../../../shared/run-spec.js';
import OpenAI from 'openai';
import type { ChatCompletionMessageParam, ChatCompletionTool } from 'openai/resources/chat/completions';
import type { ProviderInfo } from '../../../shared/run-spec.js';
import type { ToolExposure, Usage, UsageSource } from '../../../shared/step-event.js';
import { classifyError, ModelRequestError, RequestCancelledError, where } from './errors.js';
import { StreamAccumulator, type AccumulatedReply } from './stream-accumulator.js';
import { estimateUsage } from './usage.js';
import { readReply, type ReadState } from './wire-reader.js';

export { ModelRequestError, RequestCancelledError, classifyError } from './errors.js';

export type ChatMessage = ChatCompletionMessageParam;

export interface ClientOptions {
  /** Longest wait for the response headers, ms. */
  readonly timeoutMs: number;
  /** Longest silence between two data events of a streamed reply, ms (keep-alive comments do not count). */
  readonly idleTimeoutMs: number;
  /** Longest time one request may take from sending to its last byte, ms. */
  readonly deadlineMs: number;
  /** Send stream_options.include_usage (turned off for the rest of the run if the provider refuses it). */
  readonly streamOptions: boolean;
  /** Send stop sequences when a request asks for them (turned off for the rest of the run if the provider refuses them). */
  readonly stop?: boolean;
  /** Extra headers, e.g. the simulated model's run id and fault list. */
  readonly headers?: Record<string, string>;
}

/** The SDK client of one run, its settings, and what the run learned about the provider. */
export interface ChatClient {
  readonly sdk: OpenAI;
  readonly provider: ProviderInfo;
  readonly options: ClientOptions;
  /** Whether stream_options is still sent (cleared once the provider refused it). */
  streamOptions: boolean;
  /** Whether stop sequences are still sent (cleared once the provider refused them). */
  stop: boolean;
  /** Raw body of the last error response (requests of one run are sequential). */
  lastErrorBody: string | null;
  /** Remove the API key from any text that could reach events, logs or the screen. */
  redact(text: string): string;
}

export function createChatClient(provider: ProviderInfo, apiKey: string | null, opts: ClientOptions): ChatClient {
  const client: ChatClient = {
    provider,
    options: opts,
    streamOptions: opts.streamOptions,
    stop: opts.stop ?? true,
    lastErrorBody: null,
    redact: (text) => (apiKey && apiKey.length >= 4 ? text.split(apiKey).join('***') : text),
    sdk: undefined as unknown as OpenAI,
  };
  const captureErrors: typeof fetch = async (input, init) => {
    const res = await fetch(input, init);
    if (res.ok) return res;
    const text = await res.text().catch(() => '');
    client.lastErrorBody = text;
    return new Response(text, { status: res.status, statusText: res.statusText, headers: res.headers });
  };
  (client as { sdk: OpenAI }).sdk = new OpenAI({
    baseURL: provider.baseUrl,
    // The SDK insists on a key; local servers (Ollama, vLLM, the simulated model) ignore it.
    apiKey: apiKey ?? 'no-key',
    maxRetries: 0,
    timeout: opts.timeoutMs,
    defaultHeaders: opts.headers,
    fetch: captureErrors,
  });
  return client;
}

export interface StreamRequest {
  readonly model: string;
  readonly messages: readonly ChatMessage[];
  readonly tools: readonly ToolExposure[];
  readonly temperature: number | null;
  /** Stop sequences (text ReAct stops before "Observation:"); sent only when given. */
  readonly stop?: readonly string[];
}

export interface ChatReply extends AccumulatedReply {
  /** The simulated model said it has no policy for this task (SIM_POLICY_HEADER): its reply is not an answer. */
  readonly noPolicy: boolean;
  /** The provider's usage, or the tokenizer's estimate when it sent none (see usageSource). */
  readonly usage: Usage;
  readonly usageSource: UsageSource;
  /** performance.now() when the reply's last byte was read (an estimate's counting comes after it). */
  readonly receivedAt: number;
}

const seconds = (ms: number) => `${Math.round(ms / 100) / 10} s`;

/** Send one streamed request and fold its reply. Throws ModelRequestError / RequestCancelledError. */
export async function streamChat(client: ChatClient, req: StreamRequest, signal: AbortSignal): Promise<ChatReply> {
  const { provider, options } = client;
  const tools: ChatCompletionTool[] = req.tools.map((t) => ({
    type: 'function',
    function: { name: t.name, description: t.description, parameters: t.parameters },
  }));
  const body = {
    model: req.model,
    messages: req.messages as ChatMessage[],
    ...(tools.length ? { tools } : {}),
    ...(req.temperature !== null ? { temperature: req.temperature } : {}),
    ...(req.stop?.length ? { stop: [...req.stop] } : {}),
    stream: true as const,
    ...(client.streamOptions ? { stream_options: { include_usage: true } } : {}),
  };

  const ctl = new AbortController();
  let reason: 'idle' | 'deadline' | 'cancel' | null = null;
  let rejectInterrupt: (e: Error) => void = () => undefined;
  const interrupted = new Promise<never>((_, reject) => (rejectInterrupt = reject));
  interrupted.catch(() => undefined);
  const state: ReadState = { dataEvents: 0, comments: 0, sawDone: false };
  const interrupt = (why: 'idle' | 'deadline' | 'cancel') => {
    if (reason) return;
    reason = why;
    ctl.abort();
    rejectInterrupt(new Error(why));
  };
  const onCancel = () => interrupt('cancel');
  if (signal.aborted) throw new RequestCancelledError();
  signal.addEventListener('abort', onCancel, { once: true });
  const deadline = setTimeout(() => interrupt('deadline'), options.deadlineMs);
  let idle: NodeJS.Timeout | undefined;
  const armIdle = () => {
    clearTimeout(idle);
    idle = setTimeout(() => interrupt('idle'), options.idleTimeoutMs);
  };

  const acc = new StreamAccumulator(new Set(req.tools.map((t) => t.name)));
  let noPolicy = false;
  try {
    client.lastErrorBody = null;
    const response = await client.sdk.chat.completions.create(body, { signal: ctl.signal }).asResponse();
    noPolicy = provider.simulated && response.headers.get(SIM_POLICY_HEADER) === 'none';
    armIdle();
    await readReply(response, acc, { provider, onData: armIdle, interrupted, state });
  } catch (err) {
    if (reason === 'cancel' || signal.aborted) throw new RequestCancelledError();
    const chunks = `${state.dataEvents} chunk${state.dataEvents === 1 ? '' : 's'}`;
    if (reason === 'idle')
      throw new ModelRequestError(
        `No data from ${where(provider)} for ${seconds(options.idleTimeoutMs)} after ${chunks}${state.comments ? ` (${state.comments} keep-alive comment${state.comments === 1 ? '' : 's'} only)` : ''}; the stream was abandoned. Raise "stream idle timeout" if the model thinks long before it answers.`,
        null, true, null, 'timeout',
      );
    if (reason === 'deadline')
      throw new ModelRequestError(
        `The request to ${where(provider)} passed its ${seconds(options.deadlineMs)} deadline ${state.dataEvents ? `after ${chunks}` : 'before any data'}; it was abandoned. Raise "request deadline" for long replies.`,
        null, false, null, 'timeout',
      );
    const e = classifyError(err, provider, client.lastErrorBody);
    if (e instanceof ModelRequestError) throw new ModelRequestError(client.redact(e.message), e.status, e.retryable, e.retryAfterS, e.kind);
    throw e;
  } finally {
    clearTimeout(deadline);
    clearTimeout(idle);
    signal.removeEventListener('abort', onCancel);
  }

  const receivedAt = performance.now();
  const reply = acc.result();
  if (reply.usage) return { ...reply, noPolicy, usage: reply.usage, usageSource: 'reported', receivedAt };
  // The provider reported nothing: count the exact request sent and the reply received.
  const usage = await estimateUsage({
    messages: body.messages as never, tools: body.tools ?? [], text: reply.text || reply.refusal, reasoningText: reply.reasoningText, toolCalls: reply.toolCalls,
  });
  return { ...reply, noPolicy, usage, usageSource: 'estimated', receivedAt };
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
