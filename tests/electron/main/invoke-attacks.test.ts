/**
 * Attacks on the desktop app's IPC, made the way the app's own page would make them (the page is the attacker
 * here: what script in it could do). The real main process runs against a fake Electron; its native dialogs
 * are the user, and only they can grant a folder or a key variable.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createFakeElectron, type FakeElectron } from './fake-electron.js';
import { stdioServer } from '../../helpers/mcp-test-server.js';
import type { McpStdioServer } from '../../../shared/mcp-config.js';

const APP = 'app://parallax/index.html';
const SECRET = 'sk-stored-desktop-0123456789';

let live: FakeElectron | null = null;
const servers: Server[] = [];
const signalListeners = { SIGINT: process.listeners('SIGINT'), SIGTERM: process.listeners('SIGTERM') };
afterEach(async () => {
  vi.unstubAllEnvs();
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    for (const fn of process.listeners(signal))
      if (!signalListeners[signal].includes(fn)) process.removeListener(signal, fn);
  }
  if (live && live.windows.length > 0) {
    live.electron.app.quit();
    await vi.waitFor(() => expect(live!.quitRequests()).toBeGreaterThan(1), { timeout: 30_000 });
  }
  live = null;
  await Promise.all(servers.splice(0).map((s) => new Promise((r) => s.close(r))));
});

async function boot(): Promise<FakeElectron> {
  vi.resetModules();
  const fake = createFakeElectron({ userData: mkdtempSync(path.join(tmpdir(), 'parallax-main-attack-')) });
  vi.doMock('electron', () => fake.electron);
  await import('../../../electron/main/main.js');
  fake.ready();
  await vi.waitFor(() => expect(fake.windows).toHaveLength(1), { timeout: 30_000 });
  return (live = fake);
}

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

const sim = { name: 'simulated', baseUrl: null, model: 'sim' };

describe('desktop IPC attacks', () => {
  it('cannot send the stored OpenAI key to its own server', async () => {
    const fake = await boot();
    const evil = await captureServer();
    await fake.invoke('keys:set', APP, 'openai', SECRET, null);
    await expect(
      fake.invoke('comparison:start', APP, {
        task: 'calc',
        modes: ['react'],
        provider: { name: 'openai', baseUrl: evil.url, model: 'gpt-4.1-mini' },
      }),
    ).rejects.toThrow(/only ever sent to https:\/\/api\.openai\.com\/v1/);
    expect(await fake.invoke('provider:test', APP, { name: 'openai', baseUrl: evil.url, model: 'm' })).toMatchObject({
      ok: false,
      reason: 'bad-url',
    });
    expect(evil.seen).toEqual([]);
  });

  it('reads a key variable only after the user allows it in a native dialog, and never PATH', async () => {
    vi.stubEnv('MY_SERVER_API_KEY', 'sk-env-desktop-42');
    const fake = await boot();
    const own = await captureServer();
    await expect(fake.invoke('keys:use-env', APP, 'PATH', own.url)).rejects.toThrow(
      /does not look like a variable that holds an API key/,
    );
    expect(fake.electron.dialog.showMessageBox).not.toHaveBeenCalled();
    // The user says Cancel: nothing is granted.
    await expect(fake.invoke('keys:use-env', APP, 'MY_SERVER_API_KEY', own.url)).rejects.toThrow(
      /Not allowed: MY_SERVER_API_KEY will not be read/,
    );
    const [, asked] = fake.electron.dialog.showMessageBox.mock.calls[0] as [
      unknown,
      { message: string; detail: string },
    ];
    expect(asked.message).toContain('MY_SERVER_API_KEY');
    expect(asked.detail).toContain(own.url);
    await expect(
      fake.invoke('provider:models', APP, {
        name: 'custom',
        baseUrl: own.url,
        model: 'm',
        apiKeyEnv: 'MY_SERVER_API_KEY',
      }),
    ).resolves.toMatchObject({ ok: false });
    expect(own.seen.filter(Boolean)).toEqual([]);
    // The user says Allow: the key goes to that URL.
    fake.electron.dialog.showMessageBox.mockResolvedValueOnce({ response: 0 });
    expect(await fake.invoke('keys:use-env', APP, 'MY_SERVER_API_KEY', own.url)).toMatchObject({
      name: 'MY_SERVER_API_KEY',
      set: true,
    });
    expect(
      await fake.invoke('provider:models', APP, {
        name: 'custom',
        baseUrl: own.url,
        model: 'm',
        apiKeyEnv: 'MY_SERVER_API_KEY',
      }),
    ).toMatchObject({ ok: true });
    expect(own.seen.filter(Boolean)).toEqual(['Bearer sk-env-desktop-42']);
  });

  it('copies only a folder the user picked in the folder dialog, named by the handle it issued', async () => {
    const fake = await boot();
    const picked = mkdtempSync(path.join(tmpdir(), 'parallax-picked-'));
    writeFileSync(path.join(picked, 'a.txt'), 'mine');
    const start = (workspaceDir: string) =>
      fake.invoke('comparison:start', APP, { task: 'free text', modes: ['react'], provider: sim, workspaceDir });
    for (const dir of ['/etc', '/root', picked, 'folder-00000000000000000000000000000000']) {
      await expect(start(dir), dir).rejects.toThrow(/only uses folders picked there/);
    }
    expect(await fake.invoke('workspace:choose', APP)).toBeNull(); // the user cancelled the dialog
    fake.electron.dialog.showOpenDialog.mockResolvedValueOnce({ canceled: false, filePaths: [picked] });
    const chosen = (await fake.invoke('workspace:choose', APP)) as { handle: string; path: string };
    expect(chosen.path).toBe(picked);
    expect(chosen.handle).toMatch(/^folder-[0-9a-f]{32}$/);
    const meta = (await start(chosen.handle)) as { id: string; workspaceSource: string };
    expect(meta.workspaceSource).toBe(`folder:${picked}`);
    await fake.invoke('comparison:cancel', APP, meta.id);
  });

  it('starts MCP server commands only after the user allowed their exact command lines in a native dialog', async () => {
    const fake = await boot();
    const server = { ...(stdioServer('files') as McpStdioServer), env: { FILES_TOKEN: 'tok-desktop-secret' } };
    const start = () =>
      fake.invoke('comparison:start', APP, { task: 'calc', modes: ['react'], provider: sim, mcpServers: [server] });
    // The user says Cancel: the comparison fails before any worker starts.
    await expect(start()).rejects.toThrow(
      /^Not allowed: the MCP server command was refused in the confirmation, so nothing was started/,
    );
    expect(fake.forks).toEqual([]);
    expect(await fake.invoke('history:list', APP)).toEqual([]);
    const [, asked] = fake.electron.dialog.showMessageBox.mock.calls[0] as [
      unknown,
      { message: string; detail: string; checkboxLabel: string },
    ];
    expect(asked.message).toBe('Start this MCP server command for every run of the comparison?');
    expect(asked.detail).toContain(`files: ${server.command} --import ${server.args[1]} ${server.args[2]}`);
    expect(asked.detail).toContain("in each run's own copy of the workspace");
    expect(asked.detail).toContain('env FILES_TOKEN (a key: value not shown)');
    expect(JSON.stringify(asked)).not.toContain('tok-desktop-secret');
    // Allowed, and kept for this set: the run offers the server's tools; the same set is not asked again.
    fake.electron.dialog.showMessageBox.mockResolvedValueOnce({ response: 0, checkboxChecked: true } as never);
    const meta = (await start()) as { id: string };
    expect(fake.forks.length).toBeGreaterThan(0);
    const events = await vi.waitFor(
      async () => {
        const stored = (await fake.invoke('history:open', APP, meta.id)) as {
          events: { type: string; tools?: { name: string }[]; status?: string }[];
        };
        expect(stored.events.some((e) => e.type === 'run-finished')).toBe(true);
        return stored.events;
      },
      { timeout: 60_000, interval: 250 },
    );
    expect(events.find((e) => e.type === 'run-started')!.tools!.map((t) => t.name)).toContain('files_add');
    expect(events.find((e) => e.type === 'run-finished')!.status).toBe('answered');
    expect(JSON.stringify(events)).not.toContain('tok-desktop-secret');
    const second = (await start()) as { id: string };
    expect(fake.electron.dialog.showMessageBox).toHaveBeenCalledTimes(2);
    await fake.invoke('comparison:cancel', APP, second.id);
  });
});
