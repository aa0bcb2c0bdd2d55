/**
 * web_search against loopback servers that answer as the real services document: SearXNG's JSON API, Brave's
 * web search (highlights as <strong>, a bad token as 422 SUBSCRIPTION_TOKEN_INVALID) and Tavily's search (a
 * POST with a Bearer key, errors as {detail: {error}}). Then what a hostile result or backend can try: links
 * to private addresses, a redirect to a local service, a flood, a body that is not JSON.
 */
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findTool, invokeTool } from '../../../../electron/engine/tools/index.js';
import {
  hitsOf,
  searchTargetOf,
  searchWith,
  type SearchTarget,
} from '../../../../electron/engine/tools/search-backends.js';
import { openRunToolState } from '../../../../electron/engine/tools/run-state.js';
import { webSearch } from '../../../../electron/engine/tools/web-search.js';
import { contextFor, tempWorkspace, type TempWorkspace } from './helpers.js';

interface Seen {
  readonly method: string;
  readonly url: URL;
  readonly headers: IncomingMessage['headers'];
  readonly body: string;
}

let server: Server;
let origin: string;
const seen: Seen[] = [];
let internal: Server;
let internalHits = 0;
let internalPort = 0;
let ws: TempWorkspace;

const BRAVE_BODY = {
  type: 'search',
  query: { original: 'lighthouse', more_results_available: true },
  web: {
    type: 'search',
    results: [
      {
        title: 'Lighthouse &amp; <strong>keepers</strong>',
        url: 'https://example.org/lighthouse',
        is_source_local: false,
        description: 'The <strong>lighthouse</strong> was first lit long ago.',
        profile: { name: 'Example', url: 'https://example.org/' },
        meta_url: { scheme: 'https', netloc: 'example.org', hostname: 'example.org', path: '› lighthouse' },
        type: 'search_result',
        subtype: 'generic',
      },
      { title: 'Not a web link', url: 'javascript:alert(1)', description: 'x' },
    ],
  },
};

const TAVILY_BODY = {
  query: 'lighthouse',
  follow_up_questions: null,
  answer: null,
  images: [],
  results: [
    {
      title: 'Lighthouse history',
      url: 'https://example.net/history',
      content: 'A tower of granite.',
      score: 0.93,
      raw_content: null,
    },
  ],
  response_time: 0.71,
};

const SEARXNG_BODY = {
  query: 'lighthouse',
  number_of_results: 0,
  results: [
    {
      url: 'https://example.com/a',
      title: 'A',
      content: 'x'.repeat(1000),
      engine: 'duckduckgo',
      parsed_url: ['https', 'example.com'],
      engines: ['duckduckgo'],
      positions: [1],
      score: 1,
      category: 'general',
    },
    { url: 'ftp://example.com/b', title: 'B', content: 'dropped: not http' },
    { url: 'http://169.254.169.254/latest/meta-data/', title: 'Metadata', content: 'a hostile result' },
  ],
  answers: [],
  corrections: [],
  infoboxes: [],
  suggestions: [],
  unresponsive_engines: [],
};

beforeAll(async () => {
  internal = createServer((_req, res) => {
    internalHits++;
    res.end('secret');
  });
  await new Promise<void>((r) => internal.listen(0, '127.0.0.1', r));
  internalPort = (internal.address() as AddressInfo).port;
  server = createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => {
      const url = new URL(req.url ?? '/', 'http://x');
      seen.push({ method: req.method ?? '', url, headers: req.headers, body });
      const json = (status: number, value: unknown) =>
        res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(value));
      const route = url.pathname;
      if (route === '/ok/search') return json(200, SEARXNG_BODY);
      if (route === '/no-json/search')
        return res.writeHead(403, { 'content-type': 'text/html' }).end('<h1>403 Forbidden</h1>');
      if (route === '/html/search')
        return res.writeHead(200, { 'content-type': 'text/html' }).end('<html>results</html>');
      if (route === '/flood/search')
        return res
          .writeHead(200, { 'content-type': 'application/json' })
          .end(`{"results":[${'{"url":"https://a.b/","title":"t","content":"c"},'.repeat(40_000)}{}]}`);
      if (route === '/redirect/search')
        return res.writeHead(302, { location: `http://127.0.0.2:${internalPort}/` }).end();
      if (route === '/slow/search') return; // never answers
      if (route === '/brave/web/search') {
        if (req.headers['x-subscription-token'] !== 'brave-good') {
          return json(422, {
            type: 'ErrorResponse',
            error: {
              id: 'e1',
              status: 422,
              code: 'SUBSCRIPTION_TOKEN_INVALID',
              detail: 'The provided subscription token is invalid.',
            },
          });
        }
        return json(200, BRAVE_BODY);
      }
      if (route === '/tavily/search') {
        if (req.headers.authorization !== 'Bearer tvly-good')
          return json(401, { detail: { error: 'Unauthorized: missing or invalid API key.' } });
        if (JSON.parse(body).query === 'over quota')
          return json(432, { detail: { error: "This request exceeds your plan's set usage limit." } });
        return json(200, TAVILY_BODY);
      }
      res.writeHead(404).end();
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  ws = tempWorkspace();
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((r) => server.close(r));
  await new Promise((r) => internal.close(r));
  ws.cleanup();
});

const opts = (timeoutMs = 5000, maxBytes = 2 * 1024 * 1024) => ({
  signal: new AbortController().signal,
  timeoutMs,
  maxBytes,
});
const last = (): Seen => seen[seen.length - 1];

describe('each backend, as its service documents it', () => {
  it('SearXNG: GET /search?q=…&format=json; results cleaned, capped, only http(s) links', async () => {
    const hits = await searchWith({ backend: 'searxng', url: `${origin}/ok`, key: null }, 'lighthouse', 5, opts());
    expect(last().method).toBe('GET');
    expect(Object.fromEntries(last().url.searchParams)).toEqual({ q: 'lighthouse', format: 'json' });
    expect(hits.map((h) => h.url)).toEqual(['https://example.com/a', 'http://169.254.169.254/latest/meta-data/']);
    expect(hits[0].snippet.length).toBeLessThanOrEqual(300);
    expect(hits[0].snippet.endsWith('…')).toBe(true);
  });

  it('Brave: the token in X-Subscription-Token, count asked, <strong> and entities gone from titles and snippets', async () => {
    const hits = await searchWith(
      { backend: 'brave', url: `${origin}/brave`, key: 'brave-good' },
      'lighthouse',
      3,
      opts(),
    );
    expect(last().url.pathname).toBe('/brave/web/search');
    expect(last().url.searchParams.get('count')).toBe('3');
    expect(hits).toEqual([
      {
        title: 'Lighthouse & keepers',
        url: 'https://example.org/lighthouse',
        snippet: 'The lighthouse was first lit long ago.',
      },
    ]);
  });

  it('Brave: a refused token (422) says which variable to check', async () => {
    const err = await searchWith({ backend: 'brave', url: `${origin}/brave`, key: 'wrong' }, 'q', 3, opts()).catch(
      (e: Error) => e,
    );
    expect(String(err)).toMatch(
      /Brave Search API refused the key \(The provided subscription token is invalid\.\): check BRAVE_API_KEY/,
    );
  });

  it('Tavily: a POST with a Bearer key and max_results; its errors read from {detail: {error}}', async () => {
    const target: SearchTarget = { backend: 'tavily', url: `${origin}/tavily`, key: 'tvly-good' };
    const hits = await searchWith(target, 'lighthouse', 4, opts());
    expect(last().method).toBe('POST');
    expect(JSON.parse(last().body)).toMatchObject({ query: 'lighthouse', max_results: 4 });
    expect(hits).toEqual([
      { title: 'Lighthouse history', url: 'https://example.net/history', snippet: 'A tower of granite.' },
    ]);
    expect(String(await searchWith({ ...target, key: 'bad' }, 'q', 4, opts()).catch((e: Error) => e))).toMatch(
      /refused the key.*TAVILY_API_KEY/,
    );
    expect(String(await searchWith(target, 'over quota', 4, opts()).catch((e: Error) => e))).toMatch(
      /plan's limit is reached.*usage limit/,
    );
  });

  it('a backend that needs a key and has none fails before any request', async () => {
    const before = seen.length;
    await expect(searchWith({ backend: 'tavily', url: `${origin}/tavily`, key: null }, 'q', 4, opts())).rejects.toThrow(
      /set TAVILY_API_KEY/,
    );
    expect(seen.length).toBe(before);
  });

  it('hitsOf ignores shapes it does not know instead of throwing', () => {
    expect(hitsOf('brave', { results: [] })).toEqual([]);
    expect(hitsOf('searxng', null)).toEqual([]);
    expect(hitsOf('tavily', { results: [{ url: 42 }, 'x', null] })).toEqual([]);
  });
});

describe('what goes wrong, said plainly', () => {
  it('SearXNG without the json format (403) says how to enable it', async () => {
    await expect(
      searchWith({ backend: 'searxng', url: `${origin}/no-json`, key: null }, 'q', 5, opts()),
    ).rejects.toThrow(/enable "json" under search\.formats/);
  });

  it('an HTML answer is not taken for results', async () => {
    await expect(searchWith({ backend: 'searxng', url: `${origin}/html`, key: null }, 'q', 5, opts())).rejects.toThrow(
      /did not answer with JSON/,
    );
  });

  it('a flood is cut at the byte cap, not parsed', async () => {
    await expect(
      searchWith({ backend: 'searxng', url: `${origin}/flood`, key: null }, 'q', 5, opts(5000, 64 * 1024)),
    ).rejects.toThrow(/larger than 64 kB/);
  });

  it('a silent backend times out', async () => {
    await expect(
      searchWith({ backend: 'searxng', url: `${origin}/slow`, key: null }, 'q', 5, opts(300)),
    ).rejects.toThrow(/timed out after 0.3 s/);
  });

  it('a redirect from the backend to another local service is refused; that service is never reached', async () => {
    await expect(
      searchWith({ backend: 'searxng', url: `${origin}/redirect`, key: null }, 'q', 5, opts()),
    ).rejects.toThrow(/refuses/);
    expect(internalHits).toBe(0);
  });
});

describe('the tool in a run', () => {
  it("searches where the run state points, and a hostile result link stays out of fetch_url's reach", async () => {
    openRunToolState(ws.root, { localOrigins: [], search: { backend: 'searxng', url: `${origin}/ok`, key: null } });
    const hits = (await invokeTool(webSearch, { query: 'lighthouse' }, contextFor(ws.root))) as { url: string }[];
    const metadata = hits.find((h) => h.url.includes('169.254.169.254'))!;
    await expect(invokeTool(findTool('fetch_url')!, { url: metadata.url }, contextFor(ws.root))).rejects.toThrow(
      /refuses/,
    );
    // The backend's own origin is not opened to fetch_url by being searched.
    await expect(
      invokeTool(findTool('fetch_url')!, { url: `${origin}/ok/search` }, contextFor(ws.root)),
    ).rejects.toThrow(/refuses/);
  });

  it('a run with no backend says where to choose one', async () => {
    openRunToolState(ws.root, {});
    await expect(invokeTool(webSearch, { query: 'x' }, contextFor(ws.root))).rejects.toThrow(
      /no search backend.*webSearch/,
    );
  });

  it('arguments out of range are refused with the signature', async () => {
    await expect(invokeTool(webSearch, { query: 'x', count: 50 }, contextFor(ws.root))).rejects.toThrow(
      /Invalid arguments for web_search/,
    );
  });

  it('searchTargetOf: web-lookup always searches its offline index; other runs follow their settings', () => {
    const fixtureUrl = 'http://127.0.0.1:4000/';
    expect(searchTargetOf({ taskId: 'web-lookup', backend: 'brave', url: null, fixtureUrl, key: 'k' })).toEqual({
      backend: 'fixture',
      url: 'http://127.0.0.1:4000',
      key: null,
    });
    expect(searchTargetOf({ taskId: null, backend: 'off', url: null, fixtureUrl, key: null })).toBeNull();
    expect(searchTargetOf({ taskId: null, backend: 'brave', url: null, fixtureUrl: null, key: 'k' })).toEqual({
      backend: 'brave',
      url: 'https://api.search.brave.com/res/v1',
      key: 'k',
    });
    expect(
      searchTargetOf({ taskId: null, backend: 'searxng', url: 'http://10.0.0.5:8080', fixtureUrl: null, key: null })
        ?.url,
    ).toBe('http://10.0.0.5:8080');
  });
});
