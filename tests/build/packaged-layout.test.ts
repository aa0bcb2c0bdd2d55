/**
 * Parallax run from the desktop app's layout (tests/helpers/packaged-layout.ts: electron-builder.yml's files,
 * production dependencies, app.asar and app.asar.unpacked), with plain Node standing in for Electron. Plain
 * Node cannot read app.asar, so every step here passes only if the worker, its threads, the Python child and
 * bubblewrap open unpacked files alone. Needs `npm run build` first (npm test builds).
 */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { homedir, tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { StepEvent } from '../../shared/step-event.js';
import { groupByRun, summarizeRun } from '../../shared/summary.js';
import { pathToFileURL } from 'node:url';
import { createHost, type Host } from '../../electron/host/host.js';
import { forkLauncher, workerEntry as entryFor } from '../../electron/host/launcher.js';
import { layoutFor, type AppLayout } from '../../electron/engine/app-layout.js';
import { pythonLaunch, readOnlyRoots } from '../../electron/engine/sandbox/python/py-launch.js';
import { shellSandbox } from '../../electron/engine/sandbox/shell-sandbox.js';
import { stdioServer } from '../helpers/mcp-test-server.js';
import { makePackagedLayout, type PackagedLayout } from '../helpers/packaged-layout.js';

let layout: PackagedLayout;
let host: Host | null = null;
let dataDir = '';
const events: StepEvent[] = [];
/** The layout as the main process computes it (its modules inside app.asar)… */
const mainLayout = (): AppLayout =>
  layoutFor(pathToFileURL(path.join(layout.asar, 'dist/electron/engine/app-layout.js')).href, false);
/** …and as the worker bundle computes it (its chunks in app.asar.unpacked/dist/worker). */
const workerLayout = (): AppLayout =>
  layoutFor(pathToFileURL(path.join(layout.unpackedDir, 'dist/worker/chunk-x.js')).href, true);
const workerEntry = (): string => entryFor('worker-main', mainLayout());
const childEntry = (): string => path.join(layout.unpackedDir, 'dist/worker/python-child.js');

beforeAll(async () => {
  layout = await makePackagedLayout();
  dataDir = await mkdtemp(path.join(tmpdir(), 'parallax-packaged-data-'));
  host = createHost({
    dataDir,
    caller: 'cli',
    getApiKey: async () => null,
    onWarning: () => {},
    onEvents: (b) => events.push(...b),
    launcher: forkLauncher({ entry: workerEntry() }),
  });
});

afterAll(async () => {
  await host?.close();
  await layout?.remove();
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
});

async function compare(
  task: string,
  modes: string[],
  extra: Record<string, unknown> = {},
): Promise<Map<string, StepEvent[]>> {
  const meta = await host!['comparison:start']({
    task,
    modes,
    provider: { name: 'simulated', baseUrl: null, model: 'sim' },
    ...extra,
  } as never);
  await host!.whenDone(meta.id);
  const byRun = groupByRun(events);
  const out = new Map<string, StepEvent[]>();
  for (const r of meta.runs) {
    const runEvents = byRun.get(r.runId) ?? [];
    const s = summarizeRun(runEvents);
    expect(s.status, `${r.mode}: ${s.error ?? ''}`).toBe('answered');
    out.set(r.mode, runEvents);
  }
  return out;
}

describe('the packaged layout', () => {
  it('starts the worker from app.asar.unpacked, and the worker finds the Python child beside it', () => {
    expect(existsSync(layout.asar)).toBe(true);
    expect(mainLayout()).toMatchObject({ kind: 'packaged', appRoot: layout.asar, unpackedRoot: layout.unpackedDir });
    expect(workerEntry()).toBe(path.join(layout.unpackedDir, 'dist/worker/worker-main.js'));
    expect(existsSync(workerEntry())).toBe(true);
    expect(workerLayout()).toEqual({ ...mainLayout(), bundled: true });
    const launch = pythonLaunch({ layout: workerLayout(), sandbox: { kind: 'none' } as never });
    expect(launch.args.at(-1)).toBe(childEntry());
    expect(existsSync(childEntry())).toBe(true);
  });
});

/** The packaged worker forked with plain Node and these flags: its first message, or how it exited. */
async function firstMessage(execArgv: string[] = []): Promise<{ first: unknown; stderr: string }> {
  const child = spawn(process.execPath, [...execArgv, workerEntry()], {
    stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
    env: { PATH: process.env.PATH ?? '' },
  });
  let stderr = '';
  child.stderr!.on('data', (c: Buffer) => (stderr += c.toString()));
  const first = await new Promise<unknown>((resolve) => {
    child.once('message', resolve);
    child.once('exit', (code) => resolve({ exit: code }));
  });
  child.kill();
  return { first, stderr };
}

describe('the packaged worker', () => {
  it('says loaded', async () => {
    const { first, stderr } = await firstMessage();
    expect(first, stderr).toEqual({ type: 'loaded' });
  });

  it('is marked as ES modules beside the bundle, so a Node without module syntax detection loads it', async () => {
    const pkg = path.join(layout.unpackedDir, 'dist/worker/package.json');
    expect(existsSync(pkg), 'no package.json beside the unpacked worker bundle').toBe(true);
    expect(JSON.parse(readFileSync(pkg, 'utf8'))).toMatchObject({ type: 'module' });
    // As Node 18, 20.0–20.18 and 22.0–22.6 read it: no detection, so the "type" field decides.
    const { first, stderr } = await firstMessage(['--no-experimental-detect-module']);
    expect(stderr).not.toMatch(/SyntaxError|Cannot use import statement/);
    expect(first, stderr).toEqual({ type: 'loaded' });
  });
});

describe('runs from the packaged layout', () => {
  it('runs the calculator (compute thread) and a Code Mode program (QuickJS thread)', async () => {
    const runs = await compare('weather-f', ['react', 'code']);
    const calc = runs.get('react')!.find((e) => e.type === 'tool-finished' && e.name === 'calculator');
    expect(calc?.type === 'tool-finished' && calc.error).toBe(null);
    const program = runs.get('code')!.find((e) => e.type === 'code-run');
    expect(program?.type === 'code-run' && program.error).toBe(null);
  });

  it('runs a Code Mode (Python) program and run_shell', async () => {
    const runs = await compare('log-stats', ['code-py', 'react']);
    const program = runs.get('code-py')!.find((e) => e.type === 'code-run');
    expect(program?.type === 'code-run' && program.error).toBe(null);
    const shell = runs.get('react')!.find((e) => e.type === 'tool-finished' && e.name === 'run_shell');
    expect(shell?.type === 'tool-finished' && shell.error).toBe(null);
  });

  it('starts an MCP stdio server and offers its tools', async () => {
    const runs = await compare('calc', ['react'], { mcpServers: [stdioServer('t', { startupTimeoutMs: 60_000 })] });
    const started = runs.get('react')!.find((e) => e.type === 'run-started');
    expect(started?.type === 'run-started' && started.tools.map((t) => t.name)).toEqual(
      expect.arrayContaining(['t_add', 't_echo', 'calculator']),
    );
  });
});

describe('the Python child in the packaged layout', () => {
  it('is shown only its own folder, Pyodide and the runtime, never / or the home folder', () => {
    const roots = readOnlyRoots(workerLayout());
    expect(roots).not.toContain('/');
    expect(roots).toEqual(
      expect.arrayContaining([
        path.join(layout.unpackedDir, 'dist/worker'),
        path.join(layout.unpackedDir, 'node_modules/pyodide'),
      ]),
    );
    for (const r of roots)
      expect(homedir().startsWith(`${r}/`) || r === homedir() || r === layout.unpackedDir).toBe(false);
  });

  it.runIf(shellSandbox().kind === 'bubblewrap')(
    'cannot see /, the home folder, host processes, the host /tmp or the archive inside bubblewrap',
    async () => {
      // The launch the worker makes, with a probe in place of the child (same binary, same binds).
      const launch = pythonLaunch({ layout: workerLayout() });
      expect(launch.containment).toBe('bubblewrap');
      const args = [...launch.args.slice(0, launch.args.indexOf('--') + 2)];
      const secret = path.join(layout.appDir, 'secret.txt');
      await writeFile(secret, 'not for the child');
      const probe = `const fs = require('node:fs');
      const list = (d) => { try { return fs.readdirSync(d).sort(); } catch { return null; } };
      const pids = fs.readdirSync('/proc').filter((n) => /^\\d+$/.test(n)).length;
      console.log(JSON.stringify({ root: list('/'), home: fs.existsSync(${JSON.stringify(homedir())}), tmp: list('/tmp'), app: list(${JSON.stringify(layout.appDir)}),
        resources: list(${JSON.stringify(layout.resources)}), unpacked: list(${JSON.stringify(layout.unpackedDir)}), secret: fs.existsSync(${JSON.stringify(secret)}), pids,
        pyodide: fs.existsSync(${JSON.stringify(path.join(layout.unpackedDir, 'node_modules/pyodide/pyodide.asm.wasm'))}), entry: fs.existsSync(${JSON.stringify(childEntry())}) }));`;
      const r = spawnSync(launch.command, [...args, '-e', probe], { encoding: 'utf8', timeout: 30_000 });
      expect(r.status, r.stderr).toBe(0);
      const seen = JSON.parse(r.stdout) as Record<string, unknown>;
      // What it needs is there…
      expect(seen).toMatchObject({ pyodide: true, entry: true });
      // …and nothing else: not the host root, the home folder, other processes, the host's /tmp or the archive.
      expect(seen.root).not.toEqual(expect.arrayContaining(['home']));
      expect(seen.root).not.toContain('root');
      expect(seen.home).toBe(false);
      expect(seen.pids).toBeLessThanOrEqual(3);
      expect(seen.tmp).toEqual(['home', path.basename(layout.appDir)].sort()); // the private home, the path down to the binds
      expect(seen).toMatchObject({
        app: ['resources'],
        resources: ['app.asar.unpacked'],
        unpacked: ['dist', 'node_modules'],
        secret: false,
      });
    },
  );
});
