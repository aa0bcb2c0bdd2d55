import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { INVOKE_CHANNELS } from '../../../shared/ipc-contract.js';
import type { StepEvent } from '../../../shared/step-event.js';
import { CONTENT_SECURITY_POLICY } from '../../../electron/main/app-protocol.js';
import { secureWebPreferences } from '../../../electron/main/security.js';
import { createFakeElectron, type FakeElectron } from './fake-electron.js';

const APP = 'app://parallax/index.html';

async function boot(opts: { lock?: boolean; packaged?: boolean } = {}) {
  vi.resetModules();
  const fake = createFakeElectron({ userData: mkdtempSync(path.join(tmpdir(), 'parallax-main-')), ...opts });
  // main.ts starts on import, so each test imports a fresh copy bound to its own fake.
  vi.doMock('electron', () => fake.electron);
  await import('../../../electron/main/main.js');
  return fake;
}

async function started(fake: FakeElectron) {
  fake.ready();
  await vi.waitFor(() => expect(fake.windows).toHaveLength(1), { timeout: 30_000 });
  return fake.windows[0];
}

let live: FakeElectron | null = null;
// main.ts turns SIGINT/SIGTERM into a graceful quit; the test worker must keep its own signal behaviour.
const signalListeners = { SIGINT: process.listeners('SIGINT'), SIGTERM: process.listeners('SIGTERM') };
afterEach(async () => {
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    for (const fn of process.listeners(signal))
      if (!signalListeners[signal].includes(fn)) process.removeListener(signal, fn);
  }
  // Quit like the user would, so the host closes its servers and workers.
  if (live && live.windows.length > 0) {
    live.electron.app.quit();
    await vi.waitFor(() => expect(live!.quitRequests()).toBeGreaterThan(1), { timeout: 30_000 });
  }
  live = null;
});

describe('main process', () => {
  it('quits at once when another instance holds the lock', async () => {
    const fake = await boot({ lock: false });
    fake.ready();
    await vi.waitFor(() => expect(fake.electron.app.quit).toHaveBeenCalled(), { timeout: 30_000 });
    expect(fake.windows).toHaveLength(0);
    expect(fake.handlers.size).toBe(0);
  });

  it('registers app:// before ready, serves it after, and opens one secure window on it', async () => {
    const fake = (live = await boot());
    expect(fake.order).toEqual(['enable-sandbox', 'register-scheme']);
    const win = await started(fake);
    expect(fake.order.indexOf('protocol-handle')).toBeGreaterThan(fake.order.indexOf('ready'));
    expect(fake.electron.protocol.handle.mock.calls[0]?.[0]).toBe('app');
    expect(fake.electron.protocol.registerSchemesAsPrivileged.mock.calls[0]?.[0][0].privileges).toMatchObject({
      standard: true,
      secure: true,
    });
    expect(win.options.webPreferences).toEqual(secureWebPreferences(win.options.webPreferences.preload));
    expect(win.options.webPreferences.preload).toMatch(/electron[\\/]preload[\\/]preload\.cjs$/);
    await vi.waitFor(() => expect(win.webContents.url).toBe(APP));
    expect(fake.electron.Menu.setApplicationMenu).toHaveBeenCalled();
    expect(fake.electron.app.setAppUserModelId).toHaveBeenCalledWith('dev.parallax.app');
    expect(win.webContents.windowOpenHandler!({ url: 'https://example.com/' })).toEqual({ action: 'deny' });
    expect(fake.electron.shell.openExternal).toHaveBeenCalledWith('https://example.com/');
  });

  it('loads and trusts a dev server only when PARALLAX_DEV_URL names a local one', async () => {
    vi.stubEnv('PARALLAX_DEV_URL', 'http://localhost:5173/');
    try {
      const fake = (live = await boot());
      const win = await started(fake);
      await vi.waitFor(() => expect(win.webContents.url).toBe('http://localhost:5173/'));
      await expect(fake.invoke('app:info', 'http://localhost:5173/')).resolves.toMatchObject({ host: 'electron' });
      await expect(fake.invoke('app:info', 'http://localhost:5174/')).rejects.toThrow(/Refused/);
    } finally {
      vi.unstubAllEnvs();
    }
  });

  it("an installed build ignores PARALLAX_DEV_URL, loads its own pages, and gives workers the login shell's PATH", async () => {
    vi.stubEnv('PARALLAX_DEV_URL', 'http://localhost:5173/');
    // The user's login shell adds a folder to PATH in its rc file (as Homebrew's or nvm's setup does).
    const shell = path.join(mkdtempSync(path.join(tmpdir(), 'parallax-shell-')), 'zsh');
    writeFileSync(shell, '#!/bin/sh\nexport PATH="/opt/from-login-shell/bin:$PATH"\nexec /bin/sh -c "$2"\n', {
      mode: 0o755,
    });
    vi.stubEnv('SHELL', shell);
    const savedPath = process.env.PATH;
    try {
      const fake = (live = await boot({ packaged: true }));
      const win = await started(fake);
      await vi.waitFor(() => expect(win.webContents.url).toBe(APP));
      await expect(fake.invoke('app:info', 'http://localhost:5173/')).rejects.toThrow(/Refused/);
      // Set before the host starts any worker (workers take PATH from this environment when they start).
      expect(process.env.PATH?.split(':')[0]).toBe('/opt/from-login-shell/bin');
      expect(process.env.PATH?.split(':')).toEqual(
        expect.arrayContaining((savedPath ?? '').split(':').filter(Boolean)),
      );
    } finally {
      vi.unstubAllEnvs();
    }
  });

  it('refuses a remote dev URL with a dialog and exits', async () => {
    vi.stubEnv('PARALLAX_DEV_URL', 'https://example.com/');
    try {
      const fake = await boot();
      fake.ready();
      await vi.waitFor(() => expect(fake.electron.app.exit).toHaveBeenCalledWith(1));
      expect(fake.electron.dialog.showErrorBox.mock.calls[0][1]).toMatch(/localhost/);
      expect(fake.windows).toHaveLength(0);
    } finally {
      vi.unstubAllEnvs();
    }
  });

  it('answers every contract channel, for the app page only', async () => {
    const fake = (live = await boot());
    await started(fake);
    expect([...fake.handlers.keys()].sort()).toEqual([...INVOKE_CHANNELS].sort());
    const info = await fake.invoke('app:info', APP);
    expect(info).toEqual({
      host: 'electron',
      version: '9.8.7',
      dataDir: fake.electron.app.getPath('userData'),
      workspaceFolders: { picker: 'dialog', allowedDirs: [] },
      shellSandbox: expect.stringMatching(/^(bubblewrap|none)$/),
    });
    expect(await fake.invoke('tasks:list', APP)).toEqual(
      expect.arrayContaining([expect.objectContaining({ id: 'log-stats' })]),
    );
    await expect(fake.invoke('app:info', 'https://evil.example/')).rejects.toThrow(/Refused 'app:info'/);
  });

  it('keeps keys encrypted in userData and reports only whether one is there and where it may go', async () => {
    const fake = (live = await boot());
    await started(fake);
    await fake.invoke('keys:set', APP, 'openai', 'sk-abc', null);
    const status = (await fake.invoke('keys:status', APP)) as Record<
      string,
      { available: boolean; boundTo: string | null }
    >;
    expect(status.openai).toEqual({ available: true, boundTo: 'https://api.openai.com/v1' });
    const { readFileSync } = await import('node:fs');
    const file = readFileSync(path.join(fake.electron.app.getPath('userData'), 'keys.json'), 'utf8');
    expect(file).not.toContain('sk-abc');
  });

  it('denies permissions and puts the CSP on network responses', async () => {
    const fake = (live = await boot());
    await started(fake);
    const cb = vi.fn();
    fake.session.permissionRequest!({}, 'media', cb, { requestingUrl: APP });
    expect(cb).toHaveBeenCalledWith(false);
    const headersCb = vi.fn();
    fake.session.headers!({ url: 'https://x.example/', responseHeaders: {} }, headersCb);
    expect(headersCb.mock.calls[0][0].responseHeaders['Content-Security-Policy']).toEqual([CONTENT_SECURITY_POLICY]);
  });

  it('sends menu commands to the window', async () => {
    const fake = (live = await boot());
    const win = await started(fake);
    const template = fake.electron.Menu.setApplicationMenu.mock.calls[0][0].template as {
      submenu?: { id?: string; click?: () => void }[];
    }[];
    const run = template.flatMap((m) => m.submenu ?? []).find((i) => i.id === 'run')!;
    run.click!();
    expect(win.webContents.sent).toContainEqual(['menu:command', 'run']);
  });

  it('runs a simulated comparison in utility processes and delivers its events after app:ready', async () => {
    const fake = (live = await boot());
    const win = await started(fake);
    const meta = (await fake.invoke('comparison:start', APP, {
      task: 'calc',
      modes: ['react'],
      provider: { name: 'simulated', baseUrl: null, model: 'sim' },
    })) as { id: string; runs: { runId: string }[] };
    expect(fake.forks).toHaveLength(1);
    expect(fake.forks[0].serviceName).toBe(`Parallax run ${meta.runs[0].runId}`);
    // Nothing reaches the page before it says it is ready: not even once the whole run is on record.
    await vi.waitFor(
      async () => {
        const stored = (await fake.invoke('history:open', APP, meta.id)) as { events: StepEvent[] };
        expect(stored.events.map((e) => e.type)).toContain('run-finished');
      },
      { timeout: 120_000, interval: 100 },
    );
    expect(win.webContents.sent.filter(([c]) => c === 'run:events')).toEqual([]);
    await fake.invoke('app:ready', APP);
    await vi.waitFor(
      () => {
        const events = win.webContents.sent.filter(([c]) => c === 'run:events').flatMap(([, p]) => p as StepEvent[]);
        expect(events.at(-1)?.type).toBe('run-finished');
        expect(events.map((e) => e.seq)).toEqual(events.map((_, i) => i));
      },
      { timeout: 30_000, interval: 100 },
    );
    const history = (await fake.invoke('history:list', APP)) as { meta: { id: string } }[];
    expect(history.map((h) => h.meta.id)).toContain(meta.id);
  });

  it('closes the host before it lets the app quit', async () => {
    const fake = (live = await boot());
    await started(fake);
    fake.electron.app.quit();
    expect(fake.quitRequests()).toBe(1);
    await vi.waitFor(() => expect(fake.quitRequests()).toBe(2), { timeout: 30_000 });
    live = null;
  });
});
