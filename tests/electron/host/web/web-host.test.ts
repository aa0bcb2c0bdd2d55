import { mkdtemp, mkdir, writeFile } from 'node:fs/promises';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { startWebHost, type WebHost } from '../../../../electron/host/web/web-host.js';
import { syntheticLauncher, waitFor } from '../session-helpers.js';
import { wsClient } from './ws-client.js';

const started: WebHost[] = [];
afterEach(async () => {
  await Promise.all(started.splice(0).map((h) => h.close()));
});

async function serve(rendererDir?: string) {
  const dataDir = await mkdtemp(join(tmpdir(), 'parallax-web-'));
  const web = await startWebHost({
    dataDir,
    port: 0,
    rendererDir: rendererDir ?? join(dataDir, 'no-renderer'),
    env: {},
    host: { launcher: syntheticLauncher({}, ['--events', '30']), onWarning: () => {} },
  });
  started.push(web);
  return web;
}

/**
 * Resolves with how the socket ended up: open (the host answered a first request on it), closed with a code, or
 * refused with an HTTP status. A socket the host closes on arrival reads nothing, so it never answers.
 */
function connect(
  url: string,
  headers: Record<string, string>,
): Promise<{ ws: WebSocket; open: true } | { open: false; code?: number; reason?: string; status?: number }> {
  return new Promise((resolve) => {
    const ws = new WebSocket(url, { headers });
    ws.on('open', () => {
      ws.once('close', (code, reason) => resolve({ open: false, code, reason: reason.toString() }));
      ws.once('message', () => resolve({ ws, open: true }));
      ws.send(JSON.stringify({ kind: 'invoke', id: 0, channel: 'app:info', args: [] }));
    });
    ws.on('unexpected-response', (_req, res) => resolve({ open: false, status: res.statusCode }));
    ws.on('error', () => {});
  });
}

describe('web host', () => {
  it('refuses any bind address but 127.0.0.1, saying why', async () => {
    for (const bindAddress of ['0.0.0.0', '::', '192.168.1.5', 'localhost']) {
      await expect(startWebHost({ dataDir: tmpdir(), bindAddress, port: 0 })).rejects.toThrow(
        /listens on 127\.0\.0\.1 only.*ssh -L/,
      );
    }
  });

  it('refuses a socket without the token, with a wrong token, from another origin, or with no origin', async () => {
    const web = await serve();
    const origin = `http://127.0.0.1:${web.port}`;
    const base = `ws://127.0.0.1:${web.port}/ws`;
    expect(await connect(base, { origin })).toMatchObject({ open: false, code: 4401 });
    expect(await connect(`${base}?token=${web.token.slice(1)}x`, { origin })).toMatchObject({
      open: false,
      code: 4401,
    });
    expect(await connect(`${base}?token=${web.token}`, { origin: 'http://evil.example' })).toMatchObject({
      open: false,
      status: 403,
    });
    expect(await connect(`${base}?token=${web.token}`, { origin: `http://127.0.0.1:${web.port + 1}` })).toMatchObject({
      open: false,
      status: 403,
    });
    expect(await connect(`${base}?token=${web.token}`, {})).toMatchObject({ open: false, status: 403 });
    expect(await connect(`${base}?token=${web.token}`, { origin, host: `evil.example:${web.port}` })).toMatchObject({
      open: false,
      status: 421,
    });
    const good = await connect(`${base}?token=${web.token}`, { origin });
    expect(good.open).toBe(true);
    if (good.open) good.ws.close();
  });

  it('carries the IPC contract: info, tasks, keys kept in memory, a comparison with pushed events, a report download', async () => {
    const web = await serve();
    expect(web.url).toBe(`http://127.0.0.1:${web.port}/?token=${web.token}`);
    const res = await connect(`ws://127.0.0.1:${web.port}/ws?token=${web.token}`, {
      origin: `http://localhost:${web.port}`,
    });
    if (!res.open) throw new Error('socket refused');
    const { invoke, events } = wsClient(res.ws);
    expect(await invoke('app:info')).toMatchObject({ ok: true, value: { host: 'web', dataDir: web.host.dataDir } });
    expect(await invoke('tasks:list')).toMatchObject({
      ok: true,
      value: expect.arrayContaining([expect.objectContaining({ id: 'log-stats' })]),
    });
    expect(await invoke('nope:x')).toMatchObject({
      ok: false,
      error: expect.stringMatching(/Unknown channel "nope:x"/),
    });
    expect(await invoke('keys:status')).toMatchObject({ ok: true, value: { openai: { available: false } } });
    expect(await invoke('keys:set', 'openai', 'sk-secret-1', null)).toMatchObject({ ok: true });
    const status = await invoke('keys:status');
    expect(status).toMatchObject({
      ok: true,
      value: { openai: { available: true, boundTo: 'https://api.openai.com/v1' } },
    });
    expect(JSON.stringify(status)).not.toContain('sk-secret-1');

    const start = await invoke('comparison:start', {
      task: 'calc',
      modes: ['react', 'code'],
      provider: { name: 'simulated', baseUrl: null, model: 'sim' },
    });
    if (start.kind !== 'result' || !start.ok) throw new Error(JSON.stringify(start));
    const meta = start.value as { id: string };
    await web.host.whenDone(meta.id);
    // One round trip on the same ordered socket: anything the host pushed before answering has arrived by now.
    expect(await invoke('app:info')).toMatchObject({ ok: true });
    expect(events).toEqual([]); // nothing pushed before app:ready, though the whole comparison has run …
    await invoke('app:ready');
    await waitFor(() => events.length === 60, 30_000, 'queued events');
    expect(events.filter((e) => e.type === 'run-finished')).toHaveLength(2);

    const report = await invoke('report:export', meta.id, 'md');
    expect(report).toMatchObject({
      ok: true,
      value: { status: 'download', mimeType: expect.stringMatching(/markdown/) },
    });
    expect(await invoke('history:open', '../../etc')).toMatchObject({
      ok: false,
      error: expect.stringMatching(/not a valid comparison id/),
    });
    res.ws.close();
  });

  it('serves the built renderer without leaving its folder, and says to build when it is missing', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'parallax-renderer-'));
    await mkdir(join(dir, 'assets'));
    await writeFile(join(dir, 'index.html'), '<!doctype html><title>Parallax</title>');
    await writeFile(join(dir, 'assets', 'app.js'), 'console.log(1)');
    const web = await serve(dir);
    const get = (path: string, host = `127.0.0.1:${web.port}`) =>
      new Promise<{ status: number; type: string; body: string; referrer: string }>((resolve, reject) => {
        const req = request({ host: '127.0.0.1', port: web.port, path, headers: { host } }, (res) => {
          let body = '';
          res.on('data', (c) => (body += c));
          res.on('end', () =>
            resolve({
              status: res.statusCode ?? 0,
              type: String(res.headers['content-type']),
              body,
              referrer: String(res.headers['referrer-policy']),
            }),
          );
        });
        req.on('error', reject);
        req.end();
      });
    expect(await get(`/?token=${web.token}`)).toMatchObject({
      status: 200,
      type: expect.stringMatching(/text\/html/),
      body: expect.stringContaining('Parallax'),
      referrer: 'no-referrer',
    });
    expect(await get('/assets/app.js')).toMatchObject({ status: 200, type: expect.stringMatching(/javascript/) });
    expect(await get('/history')).toMatchObject({ status: 200, body: expect.stringContaining('<title>Parallax') });
    expect((await get('/assets/missing.js')).status).toBe(404);
    expect((await get('/../../../../etc/passwd')).body).not.toContain('root:');
    expect((await get('/%2e%2e/%2e%2e/etc/passwd')).body).not.toContain('root:');
    expect((await get('/', 'attacker.example')).status).toBe(421);

    const bare = await serve();
    const res = await new Promise<{ status: number; body: string }>((resolve) => {
      request({ host: '127.0.0.1', port: bare.port, path: '/' }, (r) => {
        let body = '';
        r.on('data', (c) => (body += c));
        r.on('end', () => resolve({ status: r.statusCode ?? 0, body }));
      }).end();
    });
    expect(res.status).toBe(503);
    expect(res.body).toMatch(/npm run build/);
  });
});
