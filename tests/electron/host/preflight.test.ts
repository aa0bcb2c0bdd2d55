/**
 * The check before any worker starts, against real sockets: a port nobody listens on, a host name that does not
 * resolve, a server that refuses the key, and servers whose answers must not stop a start (404, slow, 500).
 */
import { createServer, type Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { preflight } from '../../../electron/host/preflight.js';
import type { ProviderInfo } from '../../../shared/run-spec.js';

let server: Server;
let base: string;
const seen: { url: string; auth: string | undefined; apiKey?: string | string[]; version?: string | string[] }[] = [];

beforeAll(async () => {
  server = createServer((req, res) => {
    seen.push({
      url: req.url ?? '',
      auth: req.headers.authorization,
      ...(req.headers['x-api-key']
        ? { apiKey: req.headers['x-api-key'], version: req.headers['anthropic-version'] }
        : {}),
    });
    const path = req.url ?? '';
    if (path.startsWith('/refuse/'))
      return res
        .writeHead(401, { 'content-type': 'application/json' })
        .end(JSON.stringify({ error: { message: 'Incorrect API key provided: sk-bad***' } }));
    if (path.startsWith('/nomodels/')) return res.writeHead(404).end('not found');
    if (path.startsWith('/broken/')) return res.writeHead(500).end('oops');
    if (path.startsWith('/slow/')) return; // never answers: only the check's own time limit ends the wait
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ data: [] }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
});
afterAll(
  () =>
    new Promise((resolve) => {
      server.closeAllConnections();
      server.close(resolve);
    }),
);

/**
 * A time limit no busy machine reaches, for the checks that must fail: the check gives up quietly at its limit
 * (a start goes on), so under the default a slow loopback answer would read as "nothing to say".
 */
const SLACK = 30_000;

const custom = (baseUrl: string): ProviderInfo => ({ name: 'custom', baseUrl, model: 'm', simulated: false });

describe('preflight', () => {
  it('stops the start at a port that HTTP clients refuse to open (port 9), naming the port, where runs would retry in vain', async () => {
    await expect(preflight(custom('http://127.0.0.1:9/v1'), 'k')).rejects.toThrow(
      /port 9 is one that HTTP clients refuse.*Nothing was started/,
    );
  });

  it('passes a provider that answers, sending the key', async () => {
    await preflight(custom(`${base}/ok/v1`), 'sk-good');
    expect(seen.at(-1)).toEqual({ url: '/ok/v1/models', auth: 'Bearer sk-good' });
  });

  it('sends an Anthropic key as x-api-key with the API version, and a refused one stops the start', async () => {
    const anthropic = (baseUrl: string): ProviderInfo => ({
      name: 'anthropic',
      baseUrl,
      model: 'claude-haiku-4-5',
      simulated: false,
    });
    await preflight(anthropic(`${base}/ok/v1`), 'sk-ant-good');
    expect(seen.at(-1)).toEqual({
      url: '/ok/v1/models',
      auth: undefined,
      apiKey: 'sk-ant-good',
      version: '2023-06-01',
    });
    await expect(preflight(anthropic(`${base}/refuse/v1`), 'sk-ant-bad', SLACK)).rejects.toThrow(
      /rejected the API key.*Nothing was started/,
    );
  });

  it("fails at once, in the runs' own words, when nothing listens there", async () => {
    // A port that was free a moment ago: bound, then closed.
    const probe = createServer();
    await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
    const port = (probe.address() as { port: number }).port;
    await new Promise((resolve) => probe.close(resolve));
    // With a time limit no busy machine reaches, the refusal (not a timeout, which lets a start go on) ends it.
    await expect(preflight(custom(`http://127.0.0.1:${port}/v1`), 'k', SLACK)).rejects.toThrow(
      new RegExp(
        `Nothing is listening at 127\\.0\\.0\\.1:${port} \\(ECONNREFUSED\\)\\. Check the base URL.*Nothing was started\\.`,
      ),
    );
  });

  it('fails when the host name does not resolve', async () => {
    await expect(preflight(custom('http://no-such-host.invalid/v1'), 'k', SLACK)).rejects.toThrow(
      /does not resolve \((ENOTFOUND|EAI_AGAIN)\).*Nothing was started/,
    );
  });

  it('fails when the key is refused', async () => {
    await expect(preflight(custom(`${base}/refuse/v1`), 'sk-bad', SLACK)).rejects.toThrow(
      /rejected the API key \(401: Incorrect API key provided.*Check the key you set for custom.*Nothing was started\. Field to fix: API key\.$/,
    );
  });

  it('lets a start go on when the answer says nothing about reachability or the key', async () => {
    for (const path of ['nomodels', 'broken'])
      await expect(preflight(custom(`${base}/${path}/v1`), 'k')).resolves.toBeUndefined();
    const before = seen.length;
    await expect(preflight(custom(`${base}/slow/v1`), 'k', 300)).resolves.toBeUndefined(); // a server that never answers
    expect(seen.slice(before).map((s) => s.url)).toEqual(['/slow/v1/models']); // asked, then given up on at 0.3 s
  });

  it('never checks the simulated model', async () => {
    const before = seen.length;
    await preflight({ name: 'simulated', baseUrl: `${base}/refuse/v1`, model: 'sim', simulated: true }, null);
    expect(seen.length).toBe(before);
  });
});
