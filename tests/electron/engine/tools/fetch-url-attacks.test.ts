/**
 * fetch_url attacked by a model that wants to reach what the user's machine can reach (SSRF): a service on
 * loopback under every spelling of 127.0.0.1, cloud metadata, a private address, a redirect from an allowed
 * page to the local service, a decompression bomb, a page nested 200,000 deep. What must not happen: a
 * request reaching the local service, a worker blocked or out of memory.
 */
import http, { createServer, type Server } from 'node:http';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { ComputeThread, computeThread } from '../../../../electron/engine/tools/compute/compute-thread.js';
import type { FetchResult } from '../../../../electron/engine/tools/fetch-url.js';
import { findTool, invokeTool, warmUpTools } from '../../../../electron/engine/tools/index.js';
import { addressProblem } from '../../../../electron/engine/tools/net-guard.js';
import { openRunToolState } from '../../../../electron/engine/tools/run-state.js';
import { ToolError } from '../../../../electron/engine/tools/tool.js';
import { contextFor, tempWorkspace, type TempWorkspace } from './helpers.js';

/** A service on loopback that must never be reached (a database admin page, a dev server, the sim model…). */
let internal: Server;
let internalHits = 0;
let internalPort: number;
/** The run's own fixture page: allowed, and it redirects wherever the attacker likes. */
let fixture: Server;
let fixtureOrigin: string;
let ws: TempWorkspace;

beforeAll(async () => {
  internal = createServer((_req, res) => {
    internalHits++;
    res.end('<title>internal admin</title>secret');
  });
  await new Promise<void>((r) => internal.listen(0, '127.0.0.1', r));
  internalPort = (internal.address() as AddressInfo).port;
  const bomb = gzipSync(Buffer.alloc(64 * 1024 * 1024));
  fixture = createServer((req, res) => {
    if (req.url === '/to-internal') res.writeHead(302, { location: `http://127.0.0.1:${internalPort}/admin` }).end();
    else if (req.url === '/to-localhost') res.writeHead(307, { location: `http://localhost:${internalPort}/` }).end();
    else if (req.url === '/to-file') res.writeHead(302, { location: 'file:///etc/passwd' }).end();
    else if (req.url === '/loop') res.writeHead(302, { location: '/loop' }).end();
    else if (req.url === '/bomb')
      res.writeHead(200, { 'content-type': 'text/plain', 'content-encoding': 'gzip' }).end(bomb);
    else if (req.url === '/nested')
      res
        .writeHead(200, { 'content-type': 'text/html' })
        .end(`<title>Deep</title>${'<div>'.repeat(200_000)}bottom text`);
    else res.writeHead(200, { 'content-type': 'text/html' }).end('<title>Fixture</title>ok');
  });
  await new Promise<void>((r) => fixture.listen(0, '127.0.0.1', r));
  fixtureOrigin = `http://127.0.0.1:${(fixture.address() as AddressInfo).port}`;
  ws = tempWorkspace();
  openRunToolState(ws.root, { localOrigins: [fixtureOrigin] });
});

afterAll(async () => {
  for (const s of [internal, fixture]) {
    s.closeAllConnections();
    await new Promise((r) => s.close(r));
  }
  ws.cleanup();
});

const fetchUrl = (url: string, limits?: Parameters<typeof contextFor>[1]) =>
  invokeTool(findTool('fetch_url')!, { url }, contextFor(ws.root, limits)) as Promise<FetchResult>;
const refusal = async (url: string): Promise<string> => {
  const error = await fetchUrl(url).then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ToolError);
  return (error as Error).message;
};

describe('fetch_url against local and private targets', () => {
  it('every spelling of the local service is refused before any request reaches it', async () => {
    const before = internalHits;
    for (const host of [
      '127.0.0.1',
      'localhost',
      '127.1',
      '2130706433',
      '0x7f000001',
      '0.0.0.0',
      '[::1]',
      '[::ffff:127.0.0.1]',
      '[::ffff:7f00:1]',
    ]) {
      const message = await refusal(`http://${host}:${internalPort}/admin`);
      expect(message, host).toMatch(/fetch_url refuses .*(loopback|unspecified|IPv4-mapped)/);
      expect(message).toContain('public web addresses only');
    }
    expect(internalHits).toBe(before);
  });

  it('cloud metadata, private networks and multicast are refused without a connection attempt', async () => {
    const requests = [vi.spyOn(http, 'request'), vi.spyOn(https, 'request')];
    try {
      const messages = [
        [await refusal('http://169.254.169.254/latest/meta-data/'), 'link-local'],
        [await refusal('http://10.0.0.1/'), 'private network'],
        [await refusal('http://192.168.1.1/router'), 'private network'],
        [await refusal('http://[fd00::1]/'), 'private network'],
        [await refusal('http://224.0.0.1/'), 'multicast'],
      ];
      for (const [message, why] of messages) {
        expect(message).toContain(why);
        expect(message).toMatch(/^fetch_url refuses /); // refused up front, not timed out or unreachable
      }
      for (const request of requests) expect(request).not.toHaveBeenCalled(); // no request was even opened
    } finally {
      for (const request of requests) request.mockRestore();
    }
  });

  it('only the exact origin of the fixture page is allowed: another port on 127.0.0.1 is not', async () => {
    expect((await fetchUrl(`${fixtureOrigin}/`)).title).toBe('Fixture');
    expect(await refusal(`http://127.0.0.1:${internalPort}/`)).toContain('loopback');
    expect(await refusal(fixtureOrigin.replace('http:', 'https:'))).toContain('loopback');
  });

  it('a redirect from the allowed page to the local service is refused at the hop, and so is localhost by name', async () => {
    const before = internalHits;
    expect(await refusal(`${fixtureOrigin}/to-internal`)).toContain('loopback');
    expect(await refusal(`${fixtureOrigin}/to-localhost`)).toMatch(
      /localhost resolves to (127\.0\.0\.1|::1), a loopback/,
    );
    expect(internalHits).toBe(before);
  });

  it('redirects to file:// and redirect loops stop with a clear message', async () => {
    expect(await refusal(`${fixtureOrigin}/to-file`)).toContain('redirected to a file: URL');
    expect(await refusal(`${fixtureOrigin}/loop`)).toContain('redirected more than 5 times');
  });
});

describe('fetch_url against hostile pages', () => {
  it('a 64 MB gzip bomb is cut at the byte cap after decompression', async () => {
    const result = await fetchUrl(`${fixtureOrigin}/bomb`, { fetchMaxBytes: 1024 * 1024, fetchTextChars: 100 });
    expect(result.text).toContain('[text truncated: first 100 of');
    expect(result.text).toContain('page truncated: only the first 1 MB were read');
  });

  it('a page nested 200,000 deep comes back as plain text instead of blocking or crashing the worker', async () => {
    await warmUpTools();
    // The page is parsed in the compute thread, and the worker's own loop keeps turning while it is.
    const run = vi.spyOn(computeThread(), 'run');
    let inJob = false;
    let turns = 0;
    const turn = (): void => {
      if (!inJob) return;
      turns++;
      setImmediate(turn);
    };
    run.mockImplementation(function (this: ComputeThread, ...args) {
      inJob = true;
      setImmediate(turn);
      return ComputeThread.prototype.run.apply(this, args).finally(() => (inJob = false)) as never;
    });
    try {
      const result = await fetchUrl(`${fixtureOrigin}/nested`, { htmlTimeoutMs: 1000 });
      expect(result.title).toBe('Deep');
      expect(result.text).toContain('bottom text');
      expect(result.text).toContain('could not be converted normally');
      expect(run.mock.calls.map(([job]) => job)).toEqual(['html']);
      expect(turns).toBeGreaterThan(0);
    } finally {
      run.mockRestore();
    }
  });
});

describe('address classes', () => {
  it('public unicast passes; every special-purpose class is named', () => {
    expect(addressProblem('93.184.215.14')).toBeNull();
    expect(addressProblem('2606:2800:21f:cb07:6820:80da:af6b:8b2c')).toBeNull();
    expect(addressProblem('100.64.0.1')).toBe('carrier-grade NAT');
    expect(addressProblem('::')).toBe('unspecified');
    expect(addressProblem('64:ff9b::7f00:1')).toBe('NAT64');
    expect(addressProblem('2002:7f00:1::')).toBe('6to4');
    expect(addressProblem('::ffff:8.8.8.8')).toBe('IPv4-mapped unicast');
    expect(addressProblem('198.18.0.1')).toMatch(/reserved/);
  });
});
