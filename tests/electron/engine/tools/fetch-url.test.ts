import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FetchResult } from '../../../../electron/engine/tools/fetch-url.js';
import { findTool, invokeTool } from '../../../../electron/engine/tools/index.js';
import { openRunToolState, runToolState } from '../../../../electron/engine/tools/run-state.js';
import { ToolError } from '../../../../electron/engine/tools/tool.js';
import { contextFor } from './helpers.js';

const PAGE = `<!doctype html><html><head><title>Example &amp; Domain</title>
<style>body { color: red }</style><script>var secret = "do not show";</script></head>
<body><h1>Example   Domain</h1><p>This domain is for use in <a href="/x">examples</a>.</p>
<!-- a comment --><p>Caf&eacute;&nbsp;&#233; &#x4F60;&#x597D; &lt;tag&gt;</p></body></html>`;

let server: Server;
let base: string;
const ctx = (limits?: Parameters<typeof contextFor>[1], signal?: AbortSignal) =>
  contextFor(process.cwd(), limits, signal);
const fetchUrl = (url: string, limits?: Parameters<typeof contextFor>[1], signal?: AbortSignal) =>
  invokeTool(findTool('fetch_url')!, { url }, ctx(limits, signal)) as Promise<FetchResult>;
const failure = async (
  url: string,
  limits?: Parameters<typeof contextFor>[1],
  signal?: AbortSignal,
): Promise<string> => {
  const error = await fetchUrl(url, limits, signal).then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ToolError);
  return (error as Error).message;
};

beforeAll(async () => {
  server = createServer((req, res) => {
    switch (req.url) {
      case '/page':
        res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(PAGE);
        break;
      case '/missing':
        res.writeHead(404, { 'content-type': 'text/html' }).end('<title>Not Found</title><p>No such page</p>');
        break;
      case '/moved':
        res.writeHead(302, { location: '/page' }).end();
        break;
      case '/json':
        res.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}');
        break;
      case '/image':
        res.writeHead(200, { 'content-type': 'image/png' }).end(Buffer.alloc(300));
        break;
      case '/big':
        res.writeHead(200, { 'content-type': 'text/plain' });
        res.end('z'.repeat(10_000));
        break;
      case '/latin1':
        res
          .writeHead(200, { 'content-type': 'text/plain; charset=iso-8859-1' })
          .end(Buffer.from([0x63, 0x61, 0x66, 0xe9]));
        break;
      case '/slow':
        res.writeHead(200, { 'content-type': 'text/html' });
        res.write('<title>never finished</title>');
        break; // never ends: the timeout or the cancel must stop it
      default:
        res.writeHead(500).end();
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  // This server stands in for the run's own fixture page: the one local origin fetch_url may reach.
  openRunToolState(process.cwd(), { localOrigins: [base] });
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

describe('fetch_url', () => {
  it('returns status, content type, title and readable text without scripts or styles', async () => {
    const result = await fetchUrl(`${base}/page`);
    expect(result).toEqual({
      status: 200,
      contentType: 'text/html; charset=utf-8',
      title: 'Example & Domain',
      text: 'Example Domain\nThis domain is for use in examples.\nCafé é 你好 <tag>',
    });
  });

  it('returns a 404 as a status, not an error, and follows redirects', async () => {
    expect(await fetchUrl(`${base}/missing`)).toMatchObject({ status: 404, title: 'Not Found', text: 'No such page' });
    expect(await fetchUrl(`${base}/moved`)).toMatchObject({ status: 200, title: 'Example & Domain' });
  });

  it('returns text bodies as they are and describes binary ones', async () => {
    expect(await fetchUrl(`${base}/json`)).toEqual({
      status: 200,
      contentType: 'application/json',
      title: '',
      text: '{"ok":true}',
    });
    expect((await fetchUrl(`${base}/image`)).text).toBe('[binary content (image/png), 300 bytes, not shown]');
    expect((await fetchUrl(`${base}/latin1`)).text).toBe('café');
  });

  it('caps the download and the text with visible markers', async () => {
    const cut = await fetchUrl(`${base}/big`, { fetchMaxBytes: 4096 });
    expect(cut.text.startsWith('z'.repeat(4096) + '\n[page truncated: only the first 4 KB were read]')).toBe(true);
    const short = await fetchUrl(`${base}/big`, { fetchTextChars: 100 });
    expect(short.text).toBe(`${'z'.repeat(100)}\n[text truncated: first 100 of 10000 characters shown]`);
  });

  it('refuses non-http schemes and malformed URLs with what to do instead', async () => {
    expect(await failure('file:///etc/passwd')).toMatch(
      /only downloads http:\/\/ and https:\/\/ URLs, not file:.*read_file/,
    );
    expect(await failure('data:text/plain,hi')).toContain('not data:');
    expect(await failure('example.com')).toContain('is not a valid URL');
  });

  it('reports an unreachable port clearly', async () => {
    const probe = createServer();
    await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
    const port = (probe.address() as AddressInfo).port;
    await new Promise((resolve) => probe.close(resolve));
    runToolState({ workspace: process.cwd() }).localOrigins.add(`http://127.0.0.1:${port}`);
    expect(await failure(`http://127.0.0.1:${port}/`)).toMatch(/could not reach .*connection refused/);
  });

  it('times out on a body that never ends, and honours cancellation', async () => {
    expect(await failure(`${base}/slow`, { fetchTimeoutMs: 200 })).toContain('timed out after 0.2 s');
    const controller = new AbortController();
    const pending = failure(`${base}/slow`, undefined, controller.signal);
    setTimeout(() => controller.abort(), 50);
    expect(await pending).toContain('cancelled');
  });
});
