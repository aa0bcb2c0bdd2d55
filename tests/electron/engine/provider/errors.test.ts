import { describe, expect, it } from 'vitest';
import {
  classifyStatus,
  detailOf,
  errorCodesOf,
  retryAfterOf,
  socketCause,
} from '../../../../electron/engine/provider/errors.js';
import { JsonCompleteness } from '../../../../electron/engine/provider/json-completeness.js';
import { mergeReasoningDetails, mergeValue } from '../../../../electron/engine/provider/merge.js';

const P = { name: 'custom', baseUrl: 'http://127.0.0.1:9/v1', model: 'm1', simulated: false };

describe('detailOf', () => {
  it('reads OpenAI error objects, Gemini JSON arrays, FastAPI detail, plain text and HTML pages', () => {
    expect(detailOf('{"error":{"message":"Bad key","code":"invalid_api_key"}}', '?')).toBe('Bad key [invalid_api_key]');
    expect(detailOf('[{"error":{"code":400,"message":"API key not valid.","status":"INVALID_ARGUMENT"}}]', '?')).toBe(
      'API key not valid.',
    );
    expect(detailOf('{"detail":"Not Found"}', '?')).toBe('Not Found');
    expect(detailOf('{"object":"error","message":"boom"}', '?')).toBe('boom');
    expect(detailOf('upstream connect error', '?')).toBe('upstream connect error');
    expect(detailOf('<!DOCTYPE html><html><head><title>502 Bad Gateway</title></head></html>', '?')).toBe(
      'an HTML page titled "502 Bad Gateway"',
    );
    expect(detailOf('', 'no body')).toBe('no body');
    expect(detailOf('x'.repeat(400), '?')).toHaveLength(301);
  });
});

describe('classifyStatus', () => {
  const c = (status: number, detail: string) => classifyStatus(status, detail, P);
  it('decides by status and error code before words: a Groq rate limit linking to its billing page is a rate limit', () => {
    // Bodies as Groq sends them (HomeMind#29, continuedev/continue#10218, HunorLaczko/ha-groq-cloud-api#27).
    const g429 =
      '{"error":{"message":"Rate limit reached for model `llama-3.3-70b-versatile` in organization `org_01kes94v04f9ramd2n1vj4gjnc` service tier `on_demand` on tokens per minute (TPM): Limit 12000, Used 2542, Requested 9855. Please try again in 1.984999999s. Need more tokens? Upgrade to Dev Tier today at https://console.groq.com/settings/billing","type":"tokens","code":"rate_limit_exceeded"}}';
    const e429 = classifyStatus(429, detailOf(g429, '?'), P, new Headers({ 'retry-after': '2' }), errorCodesOf(g429));
    expect(e429).toMatchObject({ kind: 'rate-limit', retryable: true, retryAfterS: 2 });
    expect(e429.message).toMatch(/is rate limiting \(429: Rate limit reached for model/);
    const g413 =
      '{"error":{"message":"Request too large for model `moonshotai/kimi-k2-instruct` in organization `org_01` service tier `on_demand` on tokens per minute (TPM): Limit 10000, Requested 15088, please reduce your message size and try again. Need more tokens? Upgrade to Dev Tier today at https://console.groq.com/settings/billing","type":"tokens","code":"rate_limit_exceeded"}}';
    const e413 = classifyStatus(413, detailOf(g413, '?'), P, null, errorCodesOf(g413));
    expect(e413).toMatchObject({ kind: 'rate-limit', retryable: false });
    expect(e413.message).toMatch(/larger than the account's tokens-per-minute limit.*Waiting does not help/);
    expect(e413.message).not.toMatch(/out of credits|context window/);
    // The code says an empty account, whatever the status and words.
    const quota =
      '{"error":{"message":"You exceeded your current quota, please check your plan and billing details.","type":"insufficient_quota","param":null,"code":"insufficient_quota"}}';
    expect(classifyStatus(429, detailOf(quota, '?'), P, null, errorCodesOf(quota))).toMatchObject({
      kind: 'credits',
      retryable: false,
    });
    // Without a code, a 429 is a rate limit unless its words say the account is empty; "billing" alone does not.
    expect(c(429, 'Slow down. Plans: https://example.com/billing')).toMatchObject({
      kind: 'rate-limit',
      retryable: true,
    });
    expect(c(429, 'Your credit balance is too low to access the API')).toMatchObject({ kind: 'credits' });
    // A 413 that is not about a per-minute limit is still a request too long for the model.
    expect(c(413, 'Request Entity Too Large')).toMatchObject({ kind: 'context' });
  });

  it('gives each cause its own advice and retry decision', () => {
    expect(c(401, 'nope')).toMatchObject({ kind: 'key', retryable: false });
    expect(c(402, 'Insufficient credits')).toMatchObject({ kind: 'credits', retryable: false });
    expect(c(429, 'You exceeded your current quota')).toMatchObject({ kind: 'credits', retryable: false });
    expect(c(429, 'Rate limit reached')).toMatchObject({ kind: 'rate-limit', retryable: true });
    expect(c(403, 'flagged')).toMatchObject({ kind: 'access', retryable: false });
    expect(c(404, 'The model `m1` does not exist')).toMatchObject({ kind: 'model' });
    expect(c(404, 'Not Found').message).toMatch(/ends with \/v1/);
    expect(c(400, 'registry.ollama.ai/library/gemma:2b does not support tools')).toMatchObject({ kind: 'tools' });
    expect(c(404, 'No endpoints found that support tool use')).toMatchObject({ kind: 'model' });
    expect(c(400, 'No endpoints found that support tool use')).toMatchObject({ kind: 'tools' });
    expect(
      c(400, '"auto" tool choice requires --enable-auto-tool-choice and --tool-call-parser to be set'),
    ).toMatchObject({ kind: 'tools' });
    expect(c(400, 'Unrecognized request argument supplied: stream_options')).toMatchObject({ kind: 'stream-options' });
    expect(c(400, "Unsupported parameter: 'stop' is not supported with this model.")).toMatchObject({
      kind: 'stop',
      retryable: false,
    });
    expect(c(400, 'stop sequences are not supported for this model')).toMatchObject({ kind: 'stop' });
    expect(c(400, 'registry.ollama.ai/library/gemma:2b does not support tools').message).toMatch(
      /or the ReAct \(text\) mode, which needs no tool calling/,
    );
    expect(c(400, "This model's maximum context length is 8192 tokens")).toMatchObject({ kind: 'context' });
    expect(c(503, 'overloaded')).toMatchObject({ kind: 'server', retryable: true });
    expect(c(408, 'timeout')).toMatchObject({ kind: 'timeout', retryable: true });
  });

  it('adds no tool-calling hint to unrelated 400s, even those that mention a tool message', () => {
    for (const detail of [
      "Invalid value for 'temperature'",
      "Invalid 'messages[3]': tool_call_id not found in the previous assistant message",
      'Please stop sending requests this fast',
    ]) {
      const e = c(400, detail);
      expect(e.kind).toBe('bad-request');
      expect(e.message).not.toMatch(/tool calling/);
    }
  });
});

describe('retryAfterOf and socketCause', () => {
  it('reads retry-after-ms, seconds and HTTP dates', () => {
    expect(retryAfterOf(new Headers({ 'retry-after-ms': '1500' }))).toBe(1.5);
    expect(retryAfterOf(new Headers({ 'retry-after': '7' }))).toBe(7);
    const inTen = new Date(Date.now() + 10_000).toUTCString();
    expect(retryAfterOf(new Headers({ 'retry-after': inTen }))).toBeGreaterThan(8);
    expect(retryAfterOf(new Headers({}))).toBeNull();
  });

  it("finds the socket code under fetch's wrappers", () => {
    const inner = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:9'), { code: 'ECONNREFUSED' });
    expect(socketCause(new Error('fetch failed', { cause: inner }))).toEqual({
      code: 'ECONNREFUSED',
      text: 'connect ECONNREFUSED 127.0.0.1:9',
    });
    expect(socketCause(new Error('plain'))).toBeNull();
  });
});

describe('JsonCompleteness', () => {
  it('tells when an object closes, ignoring braces inside strings and escaped quotes', () => {
    const j = new JsonCompleteness();
    for (const piece of ['{"a": "}{', '\\"', '", "b": [1, {"c"', ': 2}]', '}']) {
      expect(j.complete).toBe(false);
      j.feed(piece);
    }
    expect(j.complete).toBe(true);
  });
});

describe('merge', () => {
  it('joins delta strings and arrays at the top level only', () => {
    expect(mergeValue('ab', 'cd', true)).toBe('abcd');
    expect(mergeValue([1], [2], true)).toEqual([1, 2]);
    expect(mergeValue({ sig: 'x', n: { a: 1 } }, { sig: 'x', n: { b: 2 } }, true)).toEqual({
      sig: 'x',
      n: { a: 1, b: 2 },
    });
    expect(mergeValue('x', 'y', false)).toBe('y');
    expect(mergeValue('keep', null, true)).toBe('keep');
  });

  it('joins reasoning detail pieces of the same index and type; other details stay apart', () => {
    const list: Record<string, unknown>[] = [];
    mergeReasoningDetails(list, [{ type: 'reasoning.text', text: 'a', index: 0 }]);
    mergeReasoningDetails(list, [
      { type: 'reasoning.text', text: 'b', index: 0 },
      { type: 'reasoning.summary', summary: 's', index: 0 },
    ]);
    mergeReasoningDetails(list, [
      { type: 'reasoning.text', signature: 'SIG', index: 0 },
      { type: 'reasoning.encrypted', data: 'E' },
    ]);
    expect(list).toEqual([
      { type: 'reasoning.text', text: 'ab', index: 0, signature: 'SIG' },
      { type: 'reasoning.summary', summary: 's', index: 0 },
      { type: 'reasoning.encrypted', data: 'E' },
    ]);
  });
});
