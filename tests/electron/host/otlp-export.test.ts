/**
 * Sending a comparison's trace to an OTLP HTTP endpoint: a loopback receiver decodes what arrived and checks it
 * against the stored events (otlp-checks.ts); the CLI sends after `parallax compare` and from `parallax report`;
 * a refused connection, a 4xx and a timeout give clear errors, never the header values, and lose nothing.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { StoredComparison } from '../../../shared/ipc-contract.js';
import { sendOtlp } from '../../../electron/host/otlp-export.js';
import { otlpHeaders, otlpTracesUrl, parseOtlpHeader } from '../../../electron/host/otlp-target.js';
import { HistoryStore } from '../../../electron/host/history-store.js';
import { readSpans, startOtlpReceiver, type OtlpReceiver } from '../../helpers/otlp-receiver.js';
import { cliEnv, liveComparison, parallax } from './reports/live-comparison.js';
import { checkTrace } from './reports/otlp-checks.js';

const SECRET = 'pk-lf-s3cret-value';
const DIR = fileURLToPath(new URL('../../fixtures/reports/stored/', import.meta.url));
const load = (name: string): StoredComparison =>
  JSON.parse(readFileSync(`${DIR}${name}.stored.json`, 'utf8')) as StoredComparison;

let receiver: OtlpReceiver;
beforeEach(async () => {
  receiver = await startOtlpReceiver();
});
afterEach(async () => {
  await receiver.close();
});

describe('the OTLP endpoint and headers as given', () => {
  it('adds /v1/traces to a base URL and keeps a full traces URL', () => {
    expect(otlpTracesUrl('http://127.0.0.1:4318')).toBe('http://127.0.0.1:4318/v1/traces');
    expect(otlpTracesUrl('http://127.0.0.1:4318/v1/')).toBe('http://127.0.0.1:4318/v1/traces');
    expect(otlpTracesUrl('https://cloud.langfuse.com/api/public/otel')).toBe(
      'https://cloud.langfuse.com/api/public/otel/v1/traces',
    );
    expect(otlpTracesUrl('http://localhost:6006/v1/traces')).toBe('http://localhost:6006/v1/traces');
  });

  it('refuses what is not an OTLP HTTP URL, or a header without a name, saying what to give', () => {
    expect(() => otlpTracesUrl('localhost:4318')).toThrow(/http:\/\/ or https:\/\//);
    expect(() => otlpTracesUrl('not a url')).toThrow(/is not a URL.*e\.g\. http:\/\/127\.0\.0\.1:4318/);
    expect(() => otlpTracesUrl(`https://user:${SECRET}@example.com`)).toThrow(/in a header/);
    expect(() => parseOtlpHeader(`=${SECRET}`)).toThrow(/name=value/);
    expect(() => parseOtlpHeader(`bad name=${SECRET}`)).toThrow(/not a valid header name/);
    try {
      parseOtlpHeader(`bad name=${SECRET}`);
    } catch (err) {
      expect((err as Error).message).not.toContain(SECRET);
    }
    expect(otlpHeaders(['Authorization=Basic a=b', 'x-team = core'])).toEqual({
      Authorization: 'Basic a=b',
      'x-team': 'core',
    });
    expect(() => parseOtlpHeader(`Authorization=${SECRET}\nx`)).toThrow(/"Authorization" has a line break/);
  });

  it('refuses a header value HTTP cannot carry without quoting it', async () => {
    const err = await sendOtlp(load('four-modes'), {
      endpoint: receiver.url,
      headers: { Authorization: `Bearer ${SECRET}€` },
    }).catch((e: Error) => e);
    expect((err as Error).message).toMatch(/The OTLP header "Authorization" has a value HTTP cannot carry/);
    expect((err as Error).message).not.toContain(SECRET);
    expect(receiver.requests).toHaveLength(0);
  });
});

describe('sendOtlp', () => {
  it('posts the trace as OTLP/JSON with the headers; what the receiver decodes matches the stored comparison', async () => {
    const stored = load('two-trials');
    const sent = await sendOtlp(stored, {
      endpoint: receiver.url,
      headers: { Authorization: `Bearer ${SECRET}`, 'Content-Type': 'text/plain' },
    });
    expect(receiver.requests).toHaveLength(1);
    const req = receiver.requests[0];
    expect(req.method).toBe('POST');
    expect(req.path).toBe('/v1/traces');
    expect(req.headers['content-type']).toBe('application/json');
    expect(req.headers.authorization).toBe(`Bearer ${SECRET}`);
    const { spans } = readSpans(req.body);
    expect(sent).toMatchObject({ url: `${receiver.url}/v1/traces`, spans: spans.length, status: 200, rejected: null });
    checkTrace(stored, spans);
  });

  it('says what a receiver rejected (OTLP partial success)', async () => {
    receiver.answer = {
      status: 200,
      body: JSON.stringify({ partialSuccess: { rejectedSpans: '2', errorMessage: 'too old' } }),
    };
    const sent = await sendOtlp(load('four-modes'), { endpoint: receiver.url });
    expect(sent.rejected).toBe('The receiver rejected 2 spans: too old.');
  });

  it("a 4xx says the status, the receiver's words and what to check, never the header value", async () => {
    receiver.answer = { status: 401, body: '{"message":"invalid credentials"}' };
    const err = await sendOtlp(load('four-modes'), {
      endpoint: receiver.url,
      headers: { Authorization: `Bearer ${SECRET}` },
    }).catch((e: Error) => e);
    expect((err as Error).message).toMatch(
      /answered 401 \(\{"message":"invalid credentials"\}\)\. The receiver refused the credentials: check the headers/,
    );
    expect((err as Error).message).not.toContain(SECRET);
    // For a web host's page, which names the URL, the reply is not read back: only the status and what to check.
    const quiet = await sendOtlp(load('four-modes'), { endpoint: receiver.url }, { quoteReply: false }).catch(
      (e: Error) => e,
    );
    expect((quiet as Error).message).toMatch(/answered 401\. The receiver refused the credentials/);
    expect((quiet as Error).message).not.toContain('invalid credentials');
  });

  it('a refused connection and a receiver that never answers give clear errors', async () => {
    receiver.answer = 'hang';
    const slow = await sendOtlp(load('four-modes'), { endpoint: receiver.url, timeoutMs: 300 }).catch((e: Error) => e);
    expect((slow as Error).message).toMatch(
      /did not answer within 300 ms\. Check the URL and that the collector is up/,
    );
    const url = receiver.url;
    await receiver.close();
    receiver = await startOtlpReceiver(); // for afterEach; the old port is closed now
    const refused = await sendOtlp(load('four-modes'), { endpoint: url }).catch((e: Error) => e);
    expect((refused as Error).message).toMatch(
      /Could not reach the OTLP endpoint .*connection was refused.*collector is running/,
    );
  });
});

describe('the CLI sends a finished comparison', () => {
  it('`compare --otlp-endpoint` sends after the comparison; `report --otlp-endpoint` sends the same trace again', async () => {
    const header = `Authorization=Basic ${SECRET}`;
    const live = await liveComparison([
      '--task',
      'log-stats',
      '--modes',
      'react,code',
      '--otlp-endpoint',
      receiver.url,
      '--otlp-header',
      header,
      '--otlp-header',
      'x-team=bench',
    ]);
    expect(receiver.requests).toHaveLength(1);
    const first = receiver.requests[0];
    expect(first.headers.authorization).toBe(`Basic ${SECRET}`);
    expect(first.headers['x-team']).toBe('bench');
    const { spans } = readSpans(first.body);
    const figures = checkTrace(live.stored, spans);
    expect(figures.input).toBeGreaterThan(0);
    // Every chat span of a live run carries the prompt composition, summing to its input tokens.
    for (const chat of spans.filter((s) => s.attrs['gen_ai.operation.name'] === 'chat')) {
      const parts = ['system', 'tools', 'task', 'assistant', 'toolResults', 'other'].reduce(
        (n, p) => n + Number(chat.attrs[`parallax.prompt.${p}_tokens`]),
        0,
      );
      expect(parts).toBe(chat.attrs['gen_ai.usage.input_tokens']);
    }
    const again = await parallax(
      ['report', live.id, '--otlp-endpoint', `${receiver.url}/v1/traces`, '--otlp-header', header],
      cliEnv(live.dataDir),
    );
    expect(again.code, again.stderr).toBe(0);
    expect(again.stdout).toBe('');
    expect(again.stderr).toMatch(
      new RegExp(`Sent comparison ${live.id} to ${receiver.url}/v1/traces: ${spans.length} spans`),
    );
    expect(again.stderr).not.toContain(SECRET);
    expect(receiver.requests[1].body).toEqual(first.body);
  });

  it('a failed send exits 1 with the reason and the command to send again; the comparison stays stored', async () => {
    receiver.answer = { status: 404, body: 'not here' };
    const dir = (
      await liveComparison(['--task', 'calc', '--modes', 'react', '--otlp-endpoint', `${receiver.url}/wrong/v1/traces`])
    ).dataDir;
    const res = await parallax(['report', 'latest', '--otlp-endpoint', `${receiver.url}/wrong`], cliEnv(dir));
    expect(res.code).toBe(1);
    expect(res.stderr).toMatch(/answered 404 \(not here\)\. Nothing takes traces at that path/);
    expect(res.stderr).toMatch(
      /The comparison is stored; send it again with `parallax report \S+ --otlp-endpoint URL`/,
    );
    expect((await new HistoryStore(dir).list()).length).toBe(1);
    const bad = await parallax(['report', 'latest', '--otlp-header', 'a=b'], cliEnv(dir));
    expect(bad.code).not.toBe(0);
    expect(bad.stderr).toMatch(/--otlp-header needs --otlp-endpoint URL/);
  });
});
