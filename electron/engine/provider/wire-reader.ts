/**
 * Reads a 200 reply body to the end and judges it. An SSE stream is parsed with eventsource-parser (the
 * spec-compliant parser OpenRouter's docs recommend: comments, CR/LF variants, multi-line data); a body that
 * starts with `{` or `[` is a non-streamed JSON completion from a server that ignored `stream`, and is
 * accepted as such. Everything else is an error with a plain message, retried like a 5xx: a stream cut before
 * its finish reason and [DONE], an empty stream or an empty reply ([DONE] and nothing else), a body that is not SSE (an HTML page, garbage), data that is
 * not JSON, and errors the provider sent inside the stream. Silence between data events is bounded by the idle
 * timeout (keep-alive comments do not count); the whole request by its deadline (see chat-client.ts).
 */
import { createParser, type EventSourceMessage, type ParseError } from 'eventsource-parser';
import type { ProviderInfo } from '../../../shared/run-spec.js';
import { classifyStatus, ModelRequestError, where } from './errors.js';
import { streamErrorOf, type RawChunk, type StreamAccumulator } from './stream-accumulator.js';

/** A reply larger than this is refused (a hostile or broken server cannot fill the worker's memory). */
export const MAX_REPLY_CHARS = 32 * 1024 * 1024;

export interface ReadState {
  /** Data events received (including [DONE]). */
  dataEvents: number;
  /** SSE comments received (keep-alive). */
  comments: number;
  sawDone: boolean;
}

export interface ReadOptions {
  readonly provider: ProviderInfo;
  /** Called on every data event (and, for a JSON body, on every piece of it): resets the idle timer. */
  readonly onData: () => void;
  /** Rejects when the request is interrupted (idle timeout, deadline, cancel); raced against every read. */
  readonly interrupted: Promise<never>;
  readonly state: ReadState;
}

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;
const sample = (s: string) => JSON.stringify(s.length > 120 ? `${s.slice(0, 120)}…` : s);

function streamError(provider: ProviderInfo, what: string): ModelRequestError {
  return new ModelRequestError(`${where(provider)} ${what}`, null, true, null, 'stream');
}

/** Read `response` into `acc`; resolves when the reply is complete, throws ModelRequestError otherwise. */
export async function readReply(response: Response, acc: StreamAccumulator, opts: ReadOptions): Promise<void> {
  const { provider, state } = opts;
  const contentType = response.headers.get('content-type') ?? 'no content type';
  if (!response.body)
    throw streamError(
      provider,
      `answered ${response.status} with no body. Try again; if it persists, check the base URL.`,
    );
  const reader = response.body.getReader();
  const decoder = new TextDecoder();
  let mode = 'sniff' as 'sniff' | 'sse' | 'json';
  let head = '';
  let json = '';
  let total = 0;
  let failure: ModelRequestError | null = null;

  const onEvent = (ev: EventSourceMessage) => {
    if (failure || state.sawDone) return;
    state.dataEvents++;
    opts.onData();
    if (ev.data === '[DONE]') {
      state.sawDone = true;
      return;
    }
    let chunk: RawChunk;
    try {
      chunk = JSON.parse(ev.data) as RawChunk;
    } catch {
      failure = streamError(
        provider,
        `sent a data event that is not JSON after ${plural(state.dataEvents - 1, 'chunk')}: ${sample(ev.data)}. The stream is unreadable; it will be tried again.`,
      );
      return;
    }
    if (typeof chunk !== 'object' || chunk === null) {
      failure = streamError(provider, `sent a data event that is not a JSON object: ${sample(ev.data)}.`);
      return;
    }
    const err = ev.event === 'error' ? { message: ev.data, code: null } : streamErrorOf(chunk);
    if (err) {
      failure =
        err.code !== null && err.code < 500 && err.code !== 429 && err.code !== 408
          ? classifyStatus(err.code, err.message, provider, null, err.codes)
          : new ModelRequestError(
              `${where(provider)} reported an error inside the stream${err.code ? ` (${err.code})` : ''}: ${err.message}`,
              err.code,
              true,
              null,
              err.code === 429 ? 'rate-limit' : 'server',
            );
      return;
    }
    acc.push(chunk);
  };
  const parser = createParser({
    onEvent,
    onComment: () => void state.comments++,
    onError: (e: ParseError) => {
      if (failure) return;
      if (e.type === 'max-buffer-size-exceeded')
        failure = streamError(provider, `sent an event larger than ${MAX_REPLY_CHARS} characters.`);
      // A line that is no SSE field before any data event: the body is not an event stream at all.
      else if (e.type === 'unknown-field' && state.dataEvents === 0)
        failure = streamError(
          provider,
          `answered ${response.status} with something that is not an event stream (${contentType}): ${sample(head.trim() || e.line || '')}. Check the base URL; it will be tried again.`,
        );
    },
    maxBufferSize: MAX_REPLY_CHARS,
  });

  const feed = (text: string) => {
    if (mode === 'sniff') {
      head += text;
      const first = head.replace(/^\uFEFF/, '').trimStart()[0];
      if (first === undefined) return;
      mode = first === '{' || first === '[' ? 'json' : 'sse';
      text = head;
    }
    if (mode === 'json') {
      json += text;
      opts.onData();
    } else parser.feed(text);
  };

  try {
    for (;;) {
      const { value, done } = await Promise.race([reader.read(), opts.interrupted]);
      if (done) break;
      total += value.byteLength;
      if (total > MAX_REPLY_CHARS)
        throw streamError(provider, `sent a reply larger than ${MAX_REPLY_CHARS / 1024 / 1024} MB; it was abandoned.`);
      feed(decoder.decode(value, { stream: true }));
      if (failure) throw failure;
      if (state.sawDone) break;
    }
    feed(decoder.decode());
    if (mode === 'sse') parser.reset({ consume: true });
    if (failure) throw failure;
  } finally {
    reader.cancel().catch(() => undefined);
  }

  if (mode === 'json') return readJson(json, acc, provider, response.status, contentType);
  if (mode === 'sniff' || state.dataEvents === 0)
    throw streamError(
      provider,
      `answered ${response.status} with an empty ${mode === 'sniff' && total === 0 ? 'body' : 'stream'}${state.comments ? ` (only ${plural(state.comments, 'keep-alive comment')})` : ''}: no reply at all. It will be tried again.`,
    );
  const r = acc.result();
  // [DONE] with nothing before it, or chunks that say nothing at all: no reply, whatever the status said.
  const empty =
    r.chunks === 0 ||
    (r.finishReason === null &&
      !r.text &&
      !r.refusal &&
      !r.reasoningText &&
      r.toolCalls.length === 0 &&
      r.usage === null);
  if (empty && state.sawDone)
    throw streamError(
      provider,
      `sent an empty reply: ${r.chunks === 0 ? 'no chunk' : `${plural(r.chunks, 'chunk')} with no text, no tool call and no finish reason`} before [DONE]. It will be tried again.`,
    );
  if (!state.sawDone && r.finishReason === null)
    throw streamError(
      provider,
      `stream ended before the reply was complete: no finish reason and no [DONE] after ${plural(state.dataEvents, 'chunk')}${r.toolCalls.length ? `, with ${plural(r.toolCalls.length, 'tool call')} possibly cut short` : ''}. Nothing of it was used; it will be tried again.`,
    );
}

function readJson(
  text: string,
  acc: StreamAccumulator,
  provider: ProviderInfo,
  status: number,
  contentType: string,
): void {
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    throw streamError(
      provider,
      `answered ${status} with unreadable JSON (${contentType}): ${sample(text.trim())}. It will be tried again.`,
    );
  }
  const obj = (Array.isArray(body) ? body[0] : body) as RawChunk | undefined;
  const err = obj && typeof obj === 'object' ? streamErrorOf(obj) : null;
  if (err) {
    throw err.code !== null && err.code < 500 && err.code !== 429
      ? classifyStatus(err.code, err.message, provider, null, err.codes)
      : new ModelRequestError(
          `${where(provider)} reported an error in its 200 reply: ${err.message}`,
          err.code,
          true,
          null,
          'server',
        );
  }
  if (!obj || typeof obj !== 'object' || !Array.isArray(obj.choices) || obj.choices.length === 0)
    throw streamError(
      provider,
      `answered ${status} with JSON that is not a chat completion: ${sample(text.trim())}. Check the base URL.`,
    );
  acc.pushCompletion(obj);
}
