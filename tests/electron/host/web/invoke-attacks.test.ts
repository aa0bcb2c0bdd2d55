/**
 * Attacks on the invoke API over the web host's real WebSocket, as a page under someone else's control would
 * make them: send a stored key to its own server, read any environment variable as a key, copy any folder.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdir, mkdtemp, readdir, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import type { ServerMessage } from '../../../../shared/ws-protocol.js';
import { startWebHost, type WebHost } from '../../../../electron/host/web/web-host.js';
import { syntheticLauncher } from '../session-helpers.js';

const SECRET = 'sk-stored-secret-0123456789';
const ENV_SECRET = 'sk-from-env-0123456789';

const hosts: WebHost[] = [];
const servers: Server[] = [];
afterEach(async () => {
  await Promise.all(hosts.splice(0).map((h) => h.close()));
  await Promise.all(servers.splice(0).map((s) => new Promise((r) => s.close(r))));
});

/** An OpenAI-style server that records every Authorization header it is sent ('' for none: the host probes an unknown URL without one). */
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

async function page(
  opts: {
    allowDirs?: string[];
    env?: NodeJS.ProcessEnv;
    allowMcp?: boolean;
    mcpCommands?: string[];
    agentCommands?: string[];
    keyEnv?: string[];
  } = {},
) {
  const dataDir = await mkdtemp(join(tmpdir(), 'parallax-attack-'));
  const web = await startWebHost({
    dataDir,
    port: 0,
    rendererDir: join(dataDir, 'no-renderer'),
    env: opts.env ?? {},
    allowDirs: opts.allowDirs,
    allowMcp: opts.allowMcp,
    mcpCommands: opts.mcpCommands,
    agentCommands: opts.agentCommands,
    keyEnv: opts.keyEnv,
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
  /** Resolves with the value, or rejects with the host's error message. */
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
  return { web, dataDir, invoke };
}

const start = (provider: object, extra: object = {}) => ({ task: 'calc', modes: ['react'], provider, ...extra });

describe('keys are bound to their base URL', () => {
  it('a preset’s stored key is never sent to a base URL the page chooses', async () => {
    const evil = await captureServer();
    const { invoke, web } = await page();
    await invoke('keys:set', 'openai', SECRET, null);
    await expect(
      invoke('comparison:start', start({ name: 'openai', baseUrl: evil.url, model: 'gpt-4.1-mini' })),
    ).rejects.toThrow(
      /OpenAI key is only ever sent to https:\/\/api\.openai\.com\/v1, not to http:\/\/127\.0\.0\.1:\d+\/v1.*Custom base URL/,
    );
    for (const channel of ['provider:models', 'provider:test']) {
      const result = (await invoke(channel, { name: 'openai', baseUrl: evil.url, model: 'm' })) as {
        ok: boolean;
        detail: string;
      };
      expect(result.ok).toBe(false);
      expect(result.detail).toMatch(/only ever sent to https:\/\/api\.openai\.com\/v1/);
    }
    // Storing it "for" the other URL is refused too.
    await expect(invoke('keys:set', 'openai', SECRET, evil.url)).rejects.toThrow(
      /only sent to https:\/\/api\.openai\.com\/v1/,
    );
    expect(evil.seen).toEqual([]);
    expect(await readdir(join(web.host.dataDir, 'comparisons')).catch(() => [])).toEqual([]);
  });

  it('a local preset may point elsewhere, but its stored key does not follow', async () => {
    const other = await captureServer();
    const { invoke } = await page();
    await invoke('keys:set', 'vllm', SECRET, null);
    expect(await invoke('provider:models', { name: 'vllm', baseUrl: other.url, model: 'm' })).toMatchObject({
      ok: true,
    });
    expect(other.seen.length).toBeGreaterThan(0);
    expect(other.seen.join(' ')).not.toContain(SECRET);
  });

  it('the custom provider’s key goes to the URL it was stored for, and nowhere else', async () => {
    const own = await captureServer();
    const evil = await captureServer();
    const { invoke } = await page();
    await invoke('keys:set', 'custom', SECRET, own.url);
    expect(await invoke('keys:status')).toMatchObject({ custom: { available: true, boundTo: own.url } });
    await invoke('provider:models', { name: 'custom', baseUrl: evil.url, model: 'm' });
    await invoke('provider:models', { name: 'custom', baseUrl: `${evil.url}/`, model: 'm' });
    expect(evil.seen.filter(Boolean)).toEqual(['Bearer no-key', 'Bearer no-key']);
    await invoke('provider:models', { name: 'custom', baseUrl: own.url, model: 'm' });
    expect(own.seen.filter(Boolean)).toEqual([`Bearer ${SECRET}`]); // the control: the same call does send it where it belongs
    await expect(invoke('keys:set', 'custom', SECRET, null)).rejects.toThrow(/Enter the base URL first/);
  });
});

describe('a key from an environment variable', () => {
  const env = { PATH: '/usr/bin', HOME: '/root', OPENAI_API_KEY: 'sk-openai-env', MY_SERVER_API_KEY: ENV_SECRET };

  it('is refused for PATH, HOME, a preset’s variable, or any name not named in this session', async () => {
    const evil = await captureServer();
    const { invoke } = await page({ env });
    for (const name of ['PATH', 'HOME']) {
      await expect(
        invoke('comparison:start', start({ name: 'custom', baseUrl: evil.url, model: 'm', apiKeyEnv: name })),
      ).rejects.toThrow(/does not look like a variable that holds an API key/);
      await expect(invoke('keys:use-env', name, evil.url)).rejects.toThrow(
        /does not look like a variable that holds an API key/,
      );
    }
    await expect(invoke('keys:use-env', 'OPENAI_API_KEY', evil.url)).rejects.toThrow(
      /OPENAI_API_KEY is the OpenAI key and is only sent to https:\/\/api\.openai\.com\/v1/,
    );
    await expect(invoke('keys:use-env', 'A;B_KEY', evil.url)).rejects.toThrow(/not an environment variable name/);
    await expect(
      invoke(
        'comparison:start',
        start({ name: 'custom', baseUrl: evil.url, model: 'm', apiKeyEnv: 'MY_SERVER_API_KEY' }),
      ),
    ).rejects.toThrow(/MY_SERVER_API_KEY was not named in this app session/);
    await expect(
      invoke('provider:test', { name: 'custom', baseUrl: evil.url, model: 'm', apiKeyEnv: 'MY_SERVER_API_KEY' }),
    ).resolves.toMatchObject({ ok: false });
    // Only the custom provider takes a variable.
    await expect(
      invoke(
        'comparison:start',
        start({ name: 'deepseek', baseUrl: null, model: 'm', apiKeyEnv: 'MY_SERVER_API_KEY' }),
      ),
    ).rejects.toThrow(/only for the custom provider/);
    expect(evil.seen).toEqual([]);
  });

  it('is read only when the operator allowed the name (--allow-key-env), as the desktop asks in a dialog', async () => {
    const evil = await captureServer();
    const { invoke } = await page({ env });
    await expect(invoke('keys:use-env', 'MY_SERVER_API_KEY', evil.url)).rejects.toThrow(
      'This web host does not read MY_SERVER_API_KEY: a page may name only the key variables its operator allowed. Start it with parallax serve --allow-key-env MY_SERVER_API_KEY, or enter the key in the page.',
    );
    await expect(
      invoke('provider:models', { name: 'custom', baseUrl: evil.url, model: 'm', apiKeyEnv: 'MY_SERVER_API_KEY' }),
    ).resolves.toMatchObject({ ok: false });
    expect(evil.seen.filter((h) => h.includes(ENV_SECRET))).toEqual([]);
  });

  it('once named for a URL, is sent there and is refused for any other URL', async () => {
    const own = await captureServer();
    const evil = await captureServer();
    const { invoke } = await page({ env, keyEnv: ['MY_SERVER_API_KEY'] });
    expect(await invoke('keys:use-env', ' MY_SERVER_API_KEY ', own.url)).toEqual({
      name: 'MY_SERVER_API_KEY',
      baseUrl: own.url,
      set: true,
    });
    await expect(
      invoke(
        'comparison:start',
        start({ name: 'custom', baseUrl: evil.url, model: 'm', apiKeyEnv: 'MY_SERVER_API_KEY' }),
      ),
    ).rejects.toThrow(/was named for http:\/\/127\.0\.0\.1:\d+\/v1, so it is not sent to/);
    expect(
      await invoke('provider:models', { name: 'custom', baseUrl: own.url, model: 'm', apiKeyEnv: 'MY_SERVER_API_KEY' }),
    ).toMatchObject({ ok: true });
    expect(own.seen.filter(Boolean)).toEqual([`Bearer ${ENV_SECRET}`]);
    expect(evil.seen).toEqual([]);
  });
});

describe('a workspace folder from the page', () => {
  it('is refused outright when the web host allows no folders', async () => {
    const { invoke, web } = await page();
    expect(((await invoke('app:info')) as { workspaceFolders: unknown }).workspaceFolders).toEqual({
      picker: 'typed',
      allowedDirs: [],
    });
    await expect(
      invoke('comparison:start', start({ name: 'simulated', baseUrl: null, model: 'sim' }, { workspaceDir: tmpdir() })),
    ).rejects.toThrow(/allows no workspace folders.*--allow-dir/);
    await expect(invoke('workspace:choose')).rejects.toThrow(/no folder dialog/);
    expect(await readdir(join(web.host.dataDir, 'comparisons')).catch(() => [])).toEqual([]);
  });

  it('is taken only inside an allowed folder: outside, through a link, by .. or relative paths it is refused', async () => {
    const root = await mkdtemp(join(tmpdir(), 'parallax-allowed-'));
    const secret = await mkdtemp(join(tmpdir(), 'parallax-secret-'));
    await writeFile(join(secret, 'id_rsa'), 'PRIVATE');
    await mkdir(join(root, 'project'));
    await writeFile(join(root, 'project', 'notes.txt'), 'hello');
    await mkdir(join(root, '..notes')); // a name that starts with dots is still inside
    await symlink(secret, join(root, 'link-out'));
    const { invoke, web } = await page({ allowDirs: [root] });
    const sim = { name: 'simulated', baseUrl: null, model: 'sim' };
    const refused: [string, RegExp][] = [
      [secret, /is not inside a folder this web host allows/],
      [join(root, 'link-out'), /is not inside a folder this web host allows/],
      [join(root, 'project', '..', '..', secret.split('/').pop()!), /is not inside a folder this web host allows/],
      ['project', /full path inside/],
      ['/', /is not inside a folder this web host allows/],
    ];
    for (const [dir, reason] of refused) {
      await expect(invoke('comparison:start', start(sim, { workspaceDir: dir })), dir).rejects.toThrow(reason);
    }
    await expect(invoke('comparison:start', start(sim, { workspaceDir: { path: root } }))).rejects.toThrow(
      /must be given as text/,
    );
    expect(await readdir(join(web.host.dataDir, 'comparisons')).catch(() => [])).toEqual([]);

    for (const dir of [join(root, 'project'), join(root, '..notes'), root]) {
      const meta = (await invoke('comparison:start', start(sim, { workspaceDir: dir }))) as {
        id: string;
        workspaceSource: string;
      };
      expect(meta.workspaceSource).toBe(`folder:${dir}`);
      await web.host.whenDone(meta.id);
    }
  });
});

describe('MCP servers from the page', () => {
  const sim = { name: 'simulated', baseUrl: null, model: 'sim' };
  const stdio = {
    name: 'files',
    transport: 'stdio',
    command: 'node',
    args: ['server.js'],
    env: { FILES_TOKEN: 'tok-do-not-store' },
    startupTimeoutMs: 1000,
    callTimeoutMs: 1000,
  };
  const http = {
    name: 'search',
    transport: 'http',
    url: 'http://127.0.0.1:9/mcp',
    headers: { Authorization: 'Bearer hdr-do-not-store' },
    startupTimeoutMs: 1000,
    callTimeoutMs: 1000,
  };

  it('are refused without --allow-mcp, saying how to enable them, and nothing is created', async () => {
    const { invoke, web } = await page();
    for (const servers of [[stdio], [http]]) {
      await expect(invoke('comparison:start', start(sim, { mcpServers: servers }))).rejects.toThrow(
        /does not take MCP servers from the page\. Start it with parallax serve --allow-mcp/,
      );
    }
    expect(await readdir(join(web.host.dataDir, 'comparisons')).catch(() => [])).toEqual([]);
  });

  it('with --allow-mcp: HTTP servers; stdio only for a program the operator named; nothing of their secrets stored', async () => {
    const { invoke, web } = await page({ allowMcp: true });
    await expect(invoke('comparison:start', start(sim, { mcpServers: [stdio] }))).rejects.toThrow(
      /does not start the program node\. The operator can allow it with parallax serve --allow-mcp-command node/,
    );
    await expect(
      invoke('comparison:start', start(sim, { mcpServers: [{ ...stdio, transport: 'sse' }] })),
    ).rejects.toThrow(/transport must be "stdio" or "http"/);
    const meta = (await invoke('comparison:start', start(sim, { mcpServers: [http] }))) as { id: string };
    await web.host.whenDone(meta.id);
    const { invoke: invoke2, web: web2 } = await page({ allowMcp: true, mcpCommands: ['node'] });
    await expect(
      invoke2('comparison:start', start(sim, { mcpServers: [{ ...stdio, env: { PATH: '/tmp/evil' } }] })),
    ).rejects.toThrow(/env PATH is read by the shell/);
    const meta2 = (await invoke2('comparison:start', start(sim, { mcpServers: [stdio, http] }))) as { id: string };
    await web2.host.whenDone(meta2.id);
    const stored =
      JSON.stringify(await invoke2('history:open', meta2.id)) + JSON.stringify(await invoke('history:open', meta.id));
    expect(stored).not.toMatch(/tok-do-not-store|hdr-do-not-store/);
  });
});

describe('agent columns from the page', () => {
  const sim = { name: 'simulated', baseUrl: null, model: 'sim' };
  const agent = {
    mode: 'agent',
    label: 'Mine',
    agent: { command: ['python3', '/srv/agent.py'], env: { AGENT_TOKEN: 'tok-agent-do-not-store' } },
  };
  const request = (column: object) => ({ task: 'calc', provider: sim, variants: [{ mode: 'react' }, column] });

  it('are refused without --allow-agent-command, saying how to enable them, and nothing is created', async () => {
    const { invoke, web } = await page();
    await expect(invoke('comparison:start', request(agent))).rejects.toThrow(
      /does not start the program python3\. The operator can allow it with parallax serve --allow-agent-command python3/,
    );
    expect(await readdir(join(web.host.dataDir, 'comparisons')).catch(() => [])).toEqual([]);
  });

  it('with --allow-agent-command: only that program, no loader env, and the env values are not stored', async () => {
    const { invoke, web } = await page({ agentCommands: ['python3'], env: { PATH: process.env.PATH } }); // python3 is found on the host's PATH when the comparison starts
    await expect(
      invoke('comparison:start', request({ ...agent, agent: { command: ['sh', '-c', 'id'] } })),
    ).rejects.toThrow(/does not start the program sh\./);
    await expect(
      invoke(
        'comparison:start',
        request({ ...agent, agent: { command: ['python3', 'a.py'], env: { PYTHONPATH: '/tmp/evil' } } }),
      ),
    ).rejects.toThrow(/env PYTHONPATH is read by Python and its package tools/);
    const meta = (await invoke('comparison:start', request(agent))) as { id: string };
    await web.host.whenDone(meta.id);
    const stored = JSON.stringify(await invoke('history:open', meta.id));
    expect(stored).toContain('/srv/agent.py');
    expect(stored).toContain('AGENT_TOKEN');
    expect(stored).not.toContain('tok-agent-do-not-store');
  });
});
