/**
 * A page's variants over the web host's real WebSocket follow the same key rules as its comparison's provider,
 * column by column: no preset pointed at another URL, no key variable the user did not name for that URL.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtemp, readdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import type { ServerMessage } from '../../../../shared/ws-protocol.js';
import { startWebHost, type WebHost } from '../../../../electron/host/web/web-host.js';
import { syntheticLauncher } from '../session-helpers.js';

const SECRET = 'sk-stored-secret-0123456789';
const hosts: WebHost[] = [];
const servers: Server[] = [];
afterEach(async () => {
  await Promise.all(hosts.splice(0).map((h) => h.close()));
  await Promise.all(servers.splice(0).map((s) => new Promise((r) => s.close(r))));
});

async function captureServer() {
  const seen: string[] = [];
  const server = createServer((req, res) => {
    seen.push(req.headers.authorization ?? '');
    res.writeHead(200, { 'content-type': 'application/json' }).end('{"object":"list","data":[{"id":"m"}]}');
  });
  servers.push(server);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`, seen };
}

async function page(env: NodeJS.ProcessEnv = {}) {
  const dataDir = await mkdtemp(join(tmpdir(), 'parallax-variant-attack-'));
  const web = await startWebHost({
    dataDir,
    port: 0,
    rendererDir: join(dataDir, 'no-renderer'),
    env,
    host: { launcher: syntheticLauncher({}, ['--events', '4']), onWarning: () => {} },
  });
  hosts.push(web);
  const ws = new WebSocket(`ws://127.0.0.1:${web.port}/ws?token=${web.token}`, {
    headers: { origin: `http://127.0.0.1:${web.port}` },
  });
  await new Promise((resolve, reject) => (ws.once('open', resolve), ws.once('error', reject)));
  let id = 0;
  const waiting = new Map<number, (m: ServerMessage) => void>();
  ws.on('message', (data) => {
    const m = JSON.parse(data.toString()) as ServerMessage;
    if (m.kind === 'result') waiting.get(m.id)?.(m);
  });
  const invoke = (channel: string, ...args: unknown[]) =>
    new Promise<unknown>((resolve, reject) => {
      const n = ++id;
      waiting.set(n, (m) =>
        m.kind === 'result' && m.ok
          ? resolve(m.value)
          : reject(new Error(m.kind === 'result' && !m.ok ? m.error : '?')),
      );
      ws.send(JSON.stringify({ kind: 'invoke', id: n, channel, args }));
    });
  return { web, invoke };
}

const sim = { name: 'simulated', baseUrl: null, model: 'sim' };

describe('variants from a page', () => {
  it("a column may not send a preset's stored key, or an unnamed key variable, to a URL the page chooses", async () => {
    const evil = await captureServer();
    const { invoke, web } = await page({ MY_SERVER_API_KEY: 'sk-env-0123456789' });
    await invoke('keys:set', 'openai', SECRET, null);
    const start = (column: object) =>
      invoke('comparison:start', {
        task: 'calc',
        modes: [],
        provider: sim,
        variants: [{ mode: 'react' }, { mode: 'react', ...column }],
      });
    await expect(start({ provider: 'openai', baseUrl: evil.url })).rejects.toThrow(
      /^Variant 2 .*OpenAI key is only ever sent to https:\/\/api\.openai\.com\/v1/,
    );
    await expect(start({ provider: 'custom', baseUrl: evil.url, apiKeyEnv: 'MY_SERVER_API_KEY' })).rejects.toThrow(
      /^Variant 2 .*MY_SERVER_API_KEY was not named in this app session/,
    );
    await expect(start({ mode: 'cod' })).rejects.toThrow(/variants\.2\.mode/);
    expect(evil.seen).toEqual([]);
    expect(await readdir(join(web.host.dataDir, 'comparisons')).catch(() => [])).toEqual([]);
  });

  it("a page's variants run, each column recorded", async () => {
    const { invoke, web } = await page();
    const meta = (await invoke('comparison:start', {
      task: 'calc',
      modes: ['code'],
      provider: sim,
      variants: [{ mode: 'code', settings: { returnTypes: false } }, { mode: 'code' }],
    })) as { id: string; variants: { label: string }[] };
    expect(meta.variants.map((v) => v.label)).toEqual(['Code Mode · no return types', 'Code Mode']);
    await web.host.whenDone(meta.id);
  });
});
