/**
 * Failed model requests, by cause, each with a message that says what happened and what to do. Retryable
 * causes (rate limits, server errors, broken or stalled streams, network) are tried again by the loop; the
 * others end the run. No hint is added where it does not apply (a 402 is not a tool-calling problem).
 */
import { APIConnectionError, APIConnectionTimeoutError, APIError, APIUserAbortError } from 'openai';
import type { ProviderInfo } from '../../../shared/run-spec.js';
import { ReplyLimitError } from './reply-limits.js';

export type ErrorKind =
  | 'key'
  | 'credits'
  | 'access'
  | 'model'
  | 'tools'
  | 'stream-options'
  | 'stop'
  | 'context'
  | 'bad-request'
  | 'rate-limit'
  | 'server'
  | 'timeout'
  | 'stream'
  | 'network'
  | 'tls';

/** A failed request, classified: retryable ones are tried again; the others end the run with `message`. */
export class ModelRequestError extends Error {
  constructor(
    message: string,
    readonly status: number | null,
    readonly retryable: boolean,
    /** Seconds the provider asked us to wait (Retry-After), if it did. */
    readonly retryAfterS: number | null = null,
    readonly kind: ErrorKind = retryable ? 'server' : 'bad-request',
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

export const where = (p: ProviderInfo) => `${p.name} at ${p.baseUrl}`;

/** Seconds to wait from `retry-after-ms` (OpenAI), or `retry-after` in seconds or as an HTTP date. */
export function retryAfterOf(headers: Headers | undefined | null): number | null {
  const ms = Number(headers?.get('retry-after-ms') ?? NaN);
  if (Number.isFinite(ms) && ms >= 0) return ms / 1000;
  const raw = headers?.get('retry-after');
  if (!raw) return null;
  const s = Number(raw);
  if (Number.isFinite(s) && s >= 0) return s;
  const date = Date.parse(raw);
  return Number.isFinite(date) ? Math.max(0, (date - Date.now()) / 1000) : null;
}

/**
 * The readable part of an error body: the `message` of an OpenAI-style error object, of the first element of
 * a JSON array (Gemini), a FastAPI `detail`, or the plain text itself (HTML pages reduced to their title).
 */
export function detailOf(body: string | null | undefined, fallback: string): string {
  const text = (body ?? '').trim();
  if (!text) return fallback;
  try {
    let v: unknown = JSON.parse(text);
    if (Array.isArray(v)) v = v[0];
    const o = v as { error?: unknown; message?: unknown; detail?: unknown };
    const e = o?.error;
    if (typeof e === 'string') return e;
    if (e && typeof e === 'object' && typeof (e as { message?: unknown }).message === 'string') {
      const err = e as { message: string; code?: unknown; type?: unknown };
      const code = typeof err.code === 'string' && !err.message.includes(err.code) ? ` [${err.code}]` : '';
      return `${err.message}${code}`;
    }
    if (typeof o?.message === 'string') return o.message;
    if (typeof o?.detail === 'string') return o.detail;
    return text.slice(0, 300);
  } catch {
    const title = /<title>([^<]*)<\/title>/i.exec(text)?.[1]?.trim();
    if (/^<(!doctype|html)/i.test(text)) return `an HTML page${title ? ` titled "${title}"` : ''}`;
    return text.length > 300 ? `${text.slice(0, 300)}…` : text;
  }
}

/** The machine-readable parts of an error: its `code` and `type` as the provider named them, when it did. */
export interface ErrorCodes {
  readonly code?: string | null;
  readonly type?: string | null;
}

const codeText = (v: unknown): string | null =>
  typeof v === 'string' && v.trim() !== '' ? v.trim().toLowerCase() : null;

/** `error.code` and `error.type` of an error body (an OpenAI-style object, or the first of a JSON array). */
export function errorCodesOf(body: string | null | undefined): ErrorCodes {
  try {
    let v: unknown = JSON.parse(body ?? '');
    if (Array.isArray(v)) v = v[0];
    const e = (v as { error?: unknown } | null)?.error;
    if (!e || typeof e !== 'object') return {};
    const o = e as { code?: unknown; type?: unknown; status?: unknown };
    return { code: codeText(o.code) ?? codeText(o.status), type: codeText(o.type) };
  } catch {
    return {};
  }
}

/** A 400 that says the model (or server) does not do tool calling: Ollama, OpenRouter, vLLM, Groq wordings. */
const TOOLS_REFUSED = [
  /\b(does not|doesn't|do not|not) support(s)?( the)? (tools|tool[ _-]?(use|call(s|ing)?|choice)|function[ _-]?call(s|ing)?)\b/i,
  /\b(tools|tool[ _-]?(use|call(s|ing)?|choice)|function[ _-]?call(s|ing)?) (is |are )?(not supported|unsupported|not enabled|disabled)\b/i,
  /\bno endpoints found that support tool/i,
  /tool[ _-]choice requires|enable-auto-tool-choice|tool-call-parser/i,
];
/** A 400 about the `stop` parameter (OpenAI's reasoning models: "Unsupported parameter: 'stop' …"). */
const STOP_REFUSED = /(['"`]stop['"`]|\bstop sequences?\b|\bparameter:? stop\b|\bstop (parameter|is not supported))/i;
const KEY_REFUSED =
  /api[ _-]?key (not valid|invalid|is invalid)|invalid[ _-]api[ _-]key|incorrect api key|invalid authentication|unauthori[sz]ed/i;
const CONTEXT =
  /context[ _-]?(length|window)|maximum context|context_length_exceeded|too many tokens|prompt is too long|reduce the length/i;
const QUOTA =
  /insufficient[ _-]quota|exceeded your current quota|billing|insufficient (credits|balance)|out of credits/i;
/** Words that mean an empty account even on a 429 (a rate limit's message may link to a billing page: Groq's does). */
const QUOTA_SPENT =
  /insufficient[ _-]quota|exceeded your current quota|insufficient (credits|balance)|out of credits|credit balance is too low/i;
/** A limit on tokens per minute (Groq's 413: the request alone is larger than the account's per-minute allowance). */
const PER_MINUTE = /tokens per minute|\(TPM\)/i;

/**
 * The message and cause for an HTTP error status (or an error code sent inside a stream). The status and the
 * error's own code decide first; its words only where those leave the cause open (a 400 that names a parameter).
 */
export function classifyStatus(
  status: number,
  detail: string,
  provider: ProviderInfo,
  headers?: Headers | null,
  codes: ErrorCodes = {},
): ModelRequestError {
  const at = where(provider);
  const model = `model "${provider.model}"`;
  const code = codes.code ?? null;
  const type = codes.type ?? null;
  if (code === 'insufficient_quota' || type === 'insufficient_quota' || status === 402)
    return new ModelRequestError(
      `${at} says the account is out of credits or quota (${status}: ${detail}). Add credits or check billing with ${provider.name}, then run again.`,
      status,
      false,
      null,
      'credits',
    );
  if (status === 429) {
    if (!code && QUOTA_SPENT.test(detail))
      return new ModelRequestError(
        `${at} says the account is out of credits or quota (${status}: ${detail}). Add credits or check billing with ${provider.name}, then run again.`,
        status,
        false,
        null,
        'credits',
      );
    return new ModelRequestError(
      `${at} is rate limiting (429: ${detail}).`,
      status,
      true,
      retryAfterOf(headers),
      'rate-limit',
    );
  }
  if (status === 413 && (code === 'rate_limit_exceeded' || type === 'tokens' || PER_MINUTE.test(detail)))
    return new ModelRequestError(
      `${at} refused the request as larger than the account's tokens-per-minute limit for ${model} (413: ${detail}). Waiting does not help: lower "max steps" or "truncate tool results", pick a model with a higher limit, or raise the account's tier with ${provider.name}.`,
      status,
      false,
      null,
      'rate-limit',
    );
  if (/stream_options|include_usage/i.test(detail) && (status === 400 || status === 422))
    return new ModelRequestError(
      `${at} does not accept stream_options (${status}: ${detail}).`,
      status,
      false,
      null,
      'stream-options',
    );
  if (STOP_REFUSED.test(detail) && (status === 400 || status === 422))
    return new ModelRequestError(
      `${at} does not accept stop sequences (${status}: ${detail}).`,
      status,
      false,
      null,
      'stop',
    );
  if (status === 401 || (status === 400 && KEY_REFUSED.test(detail)) || (status === 403 && KEY_REFUSED.test(detail)))
    return new ModelRequestError(
      `${at} rejected the API key (${status}: ${detail}). Check the key you set for ${provider.name}.`,
      status,
      false,
      null,
      'key',
    );
  if (status >= 400 && status < 500 && QUOTA.test(detail))
    return new ModelRequestError(
      `${at} says the account is out of credits or quota (${status}: ${detail}). Add credits or check billing with ${provider.name}, then run again.`,
      status,
      false,
      null,
      'credits',
    );
  if (status === 403)
    return new ModelRequestError(
      `${at} refused access (403: ${detail}). The key may lack access to ${model}, or the provider blocked this request.`,
      status,
      false,
      null,
      'access',
    );
  if (status === 404)
    return /model/i.test(detail)
      ? new ModelRequestError(
          `${at} does not know ${model} (404: ${detail}). Check the model name; GET ${provider.baseUrl}/models lists the models it serves.`,
          status,
          false,
          null,
          'model',
        )
      : new ModelRequestError(
          `${at} answered 404 (${detail}). Check that the base URL ends with /v1 (or the provider's API path).`,
          status,
          false,
          null,
          'model',
        );
  if (status === 408)
    return new ModelRequestError(
      `${at} timed out the request (408: ${detail}).`,
      status,
      true,
      retryAfterOf(headers),
      'timeout',
    );
  if (status >= 500)
    return new ModelRequestError(
      `${at} had a server error (${status}: ${detail}).`,
      status,
      true,
      retryAfterOf(headers),
      'server',
    );
  if (CONTEXT.test(detail) || status === 413)
    return new ModelRequestError(
      `The conversation no longer fits ${model}'s context window (${status}: ${detail}). Lower "max steps" or "truncate tool results", or use a model with a larger window.`,
      status,
      false,
      null,
      'context',
    );
  if (TOOLS_REFUSED.some((r) => r.test(detail)))
    return new ModelRequestError(
      `${at}: ${model} does not accept tool calling (${status}: ${detail}). Pick a model that supports it, or the ReAct (text) mode, which needs no tool calling.`,
      status,
      false,
      null,
      'tools',
    );
  return new ModelRequestError(`${at} refused the request (${status}: ${detail}).`, status, false, null, 'bad-request');
}

const TLS = /CERT|SELF_SIGNED|UNABLE_TO_VERIFY|ERR_TLS|ERR_SSL/;

/** What a socket error code means for the user, and whether trying again can help. */
export function networkMessage(code: string, text: string, provider: ProviderInfo): ModelRequestError {
  const at = where(provider);
  let host = provider.baseUrl;
  try {
    host = new URL(provider.baseUrl).host;
  } catch {
    /* keep the URL as given */
  }
  if (code === 'ECONNREFUSED')
    return new ModelRequestError(
      `Nothing is listening at ${host} (ECONNREFUSED). Check the base URL and that the server is running.`,
      null,
      true,
      null,
      'network',
    );
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN')
    return new ModelRequestError(
      `The host name of ${at} does not resolve (${code}). Check the base URL and the network.`,
      null,
      true,
      null,
      'network',
    );
  if (TLS.test(code))
    return new ModelRequestError(
      `The TLS certificate of ${at} is not trusted (${code}: ${text}). Check the base URL (http vs https) or the server's certificate.`,
      null,
      false,
      null,
      'tls',
    );
  return new ModelRequestError(
    `The connection to ${at} failed (${code}: ${text}). Check the network and that the server is up.`,
    null,
    true,
    null,
    'network',
  );
}

/** The innermost socket error code in a cause chain (fetch wraps it in "fetch failed" / "terminated"). */
export function socketCause(err: unknown): { code: string; text: string } | null {
  let e: unknown = err;
  for (let depth = 0; e instanceof Error && depth < 6; depth++, e = e.cause) {
    const code = (e as NodeJS.ErrnoException).code;
    if (typeof code === 'string' && code) return { code, text: e.message };
  }
  return null;
}

/**
 * Turn any error from the SDK into a ModelRequestError that says what to fix. `body` is the raw error body as
 * received (the SDK's own parse loses JSON-array bodies).
 */
export function classifyError(
  err: unknown,
  provider: ProviderInfo,
  body: string | null = null,
): ModelRequestError | RequestCancelledError {
  if (err instanceof ModelRequestError || err instanceof RequestCancelledError) return err;
  if (err instanceof APIUserAbortError) return new RequestCancelledError();
  const at = where(provider);
  // Not retried: the same model asked again tends to run away the same way.
  if (err instanceof ReplyLimitError)
    return new ModelRequestError(`${at} ${err.message}`, null, false, null, 'bad-request');
  if (err instanceof APIConnectionTimeoutError)
    return new ModelRequestError(
      `${at} sent no response headers within the request timeout. The provider may be overloaded; try again or raise "request timeout".`,
      null,
      true,
      null,
      'timeout',
    );
  if (err instanceof APIConnectionError) {
    const cause = socketCause(err);
    if (cause) return networkMessage(cause.code, cause.text, provider);
    return new ModelRequestError(
      `Could not reach ${at} (${err.message}). Check the base URL and that the server is running.`,
      null,
      true,
      null,
      'network',
    );
  }
  if (err instanceof APIError && typeof err.status === 'number') {
    const detail = detailOf(body, err.message.replace(/^\d{3}\s*/, '') || 'no body');
    return classifyStatus(err.status, detail, provider, err.headers, errorCodesOf(body));
  }
  if (err instanceof Error && err.name === 'AbortError') return new RequestCancelledError();
  const cause = socketCause(err);
  if (cause) return networkMessage(cause.code, cause.text, provider);
  return new ModelRequestError(
    `The request to ${at} failed: ${err instanceof Error ? err.message : String(err)}`,
    null,
    false,
  );
}
