/**
 * One model request per step, streamed, with visible retries. The openai SDK builds and sends the request
 * (auth, headers, base URL, the header-wait timeout) and turns error statuses into APIErrors; the body is read
 * by wire-reader.ts, because the SDK's stream parser hides what a measurement must see ([DONE], keep-alive
 * comments, a body that is not SSE at all) and cannot bound the silence between chunks. Error bodies are
 * captured raw by a fetch wrapper, since the SDK's own parse loses JSON-array bodies (Gemini). Providers of the
 * Anthropic protocol go through anthropic-client.ts behind the same streamChat.
 */
import { SIM_POLICY_HEADER } from '../../../shared/run-spec.js';
import OpenAI from 'openai';
import type { ChatCompletionMessageParam, ChatCompletionTool } from 'openai/resources/chat/completions';
import type { PromptCacheSetting, ProviderInfo } from '../../../shared/run-spec.js';
import { protocolOfInfo, type ProviderProtocol } from '../../../shared/providers.js';
import type { ToolCallRequest, ToolExposure, Usage, UsageSource } from '../../../shared/step-event.js';
import { classifyError, RequestCancelledError } from './errors.js';
import { withBounds } from './request-bounds.js';
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
  /** Anthropic Messages API: what to mark with cache_control (setting promptCache); absent: nothing. */
  readonly promptCache?: PromptCacheSetting;
  /** Called when a request's response headers arrive: the request is out and the server is at work. */
  readonly onResponse?: () => void;
}

/** The SDK client of one run, its settings, and what the run learned about the provider. */
export interface ChatClient {
  /** The wire protocol of the provider (its preset's; custom providers speak OpenAI chat completions). */
  readonly protocol: ProviderProtocol;
  /** The openai SDK client (chat-completions providers). */
  readonly sdk: OpenAI;
  /** The key, for the Anthropic SDK client made on the first request (anthropic-client.ts); never logged. */
  readonly apiKey: string | null;
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
  /** fetch that keeps the raw body of an error response in lastErrorBody (both SDKs send through it). */
  readonly fetch: typeof fetch;
}

export function createChatClient(provider: ProviderInfo, apiKey: string | null, opts: ClientOptions): ChatClient {
  const client: ChatClient = {
    protocol: protocolOfInfo(provider),
    apiKey,
    provider,
    options: opts,
    streamOptions: opts.streamOptions,
    stop: opts.stop ?? true,
    lastErrorBody: null,
    redact: (text) => (apiKey && apiKey.length >= 4 ? text.split(apiKey).join('***') : text),
    sdk: undefined as unknown as OpenAI,
    fetch: async (input, init) => {
      const res = await fetch(input, init);
      opts.onResponse?.();
      if (res.ok) return res;
      const text = await res.text().catch(() => '');
      client.lastErrorBody = text;
      return new Response(text, { status: res.status, statusText: res.statusText, headers: res.headers });
    },
  };
  (client as { sdk: OpenAI }).sdk = new OpenAI({
    baseURL: provider.baseUrl,
    // The SDK insists on a key; local servers (Ollama, vLLM, the simulated model) ignore it.
    apiKey: apiKey ?? 'no-key',
    maxRetries: 0,
    timeout: opts.timeoutMs,
    defaultHeaders: opts.headers,
    fetch: client.fetch,
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
  /** A cap on the reply's tokens (an MCP server's sampling request names one); the loop's steps send none. */
  readonly maxTokens?: number;
  /** tool_choice, when a mode's step asks for one (modes/mode.ts StepRequest); never sent otherwise. */
  readonly toolChoice?: ToolChoice;
}

/** Which tool the model must call: any it likes, at least one, none, or the one named. */
export type ToolChoice = 'auto' | 'required' | 'none' | { readonly name: string };

/** tool_choice as chat completions writes it. */
const chatToolChoice = (c: ToolChoice) =>
  typeof c === 'string' ? c : { type: 'function' as const, function: { name: c.name } };

export interface ChatReply extends AccumulatedReply {
  /** The simulated model said it has no policy for this task (SIM_POLICY_HEADER): its reply is not an answer. */
  readonly noPolicy: boolean;
  /** The provider's usage, or the tokenizer's estimate when it sent none (see usageSource). */
  readonly usage: Usage;
  readonly usageSource: UsageSource;
  /** performance.now() when the reply's last byte was read (an estimate's counting comes after it). */
  readonly receivedAt: number;
  /** performance.now() when the first output (text, reasoning, a tool call) arrived; null when the reply carried none. */
  readonly firstOutputAt: number | null;
  /** The provider's own stop reason, when finishReason is a mapping of it (Anthropic stop_reason). */
  readonly stopReason?: string;
  /** The provider's request id (Anthropic request-id header). */
  readonly requestId?: string;
}

/** Send one streamed request and fold its reply. Throws ModelRequestError / RequestCancelledError. */
export async function streamChat(client: ChatClient, req: StreamRequest, signal: AbortSignal): Promise<ChatReply> {
  if (client.protocol === 'anthropic')
    return (await import('./anthropic-client.js')).streamMessages(client, req, signal);
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
    ...(req.toolChoice !== undefined && tools.length ? { tool_choice: chatToolChoice(req.toolChoice) } : {}),
    ...(req.maxTokens !== undefined ? { max_tokens: req.maxTokens } : {}),
    stream: true as const,
    ...(client.streamOptions ? { stream_options: { include_usage: true } } : {}),
  };

  const state: ReadState = { dataEvents: 0, comments: 0, sawDone: false };
  const acc = new StreamAccumulator(new Set(req.tools.map((t) => t.name)));
  let noPolicy = false;
  client.lastErrorBody = null;
  await withBounds(
    provider,
    options,
    signal,
    state,
    async ({ signal: aborted, onData, interrupted }) => {
      const response = await client.sdk.chat.completions.create(body, { signal: aborted }).asResponse();
      noPolicy = provider.simulated && response.headers.get(SIM_POLICY_HEADER) === 'none';
      onData();
      await readReply(response, acc, { provider, onData, interrupted, state });
    },
    (err) => classifyError(err, provider, client.lastErrorBody),
    client.redact,
  );

  const receivedAt = performance.now();
  const firstOutputAt = acc.firstOutputAt;
  const reply = acc.result();
  if (reply.usage)
    return { ...reply, noPolicy, usage: reply.usage, usageSource: 'reported', receivedAt, firstOutputAt };
  // The provider reported nothing: count the exact request sent and the reply received.
  const usage = await estimateUsage({
    messages: body.messages as never,
    tools: body.tools ?? [],
    text: reply.text || reply.refusal,
    reasoningText: reply.reasoningText,
    toolCalls: reply.toolCalls,
  });
  return { ...reply, noPolicy, usage, usageSource: 'estimated', receivedAt, firstOutputAt };
}

/**
 * A tool's output as it goes back into the history: a `tool` message for the call id (Anthropic's client turns
 * it into a tool_result block, `is_error` when the call failed), or a `function` message for a legacy function_call.
 */
export function toolResultMessage(
  client: ChatClient,
  reply: ChatReply,
  call: ToolCallRequest,
  output: string,
  failed: boolean,
): ChatMessage {
  if (reply.legacyFunctionCall) return { role: 'function', name: call.name, content: output };
  // OpenAI-compatible servers may refuse fields they do not know, so is_error is kept for the Messages API only.
  if (client.protocol === 'anthropic' && failed)
    return { role: 'tool', tool_call_id: call.id, content: output, is_error: true } as ChatMessage;
  return { role: 'tool', tool_call_id: call.id, content: output };
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
