/**
 * Parallax run from the desktop app's layout (tests/helpers/packaged-layout.ts: electron-builder.yml's files,
 * production dependencies, app.asar and app.asar.unpacked), with plain Node standing in for Electron. Plain
 * Node cannot read app.asar, so every step here passes only if the worker, its threads, the Python child and
 * bubblewrap open unpacked files alone. Needs `npm run build` first (npm test builds).
 */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { homedir, tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { StepEvent } from '../../shared/step-event.js';
import { groupByRun, summarizeRun } from '../../shared/summary.js';
import { createHost, type Host } from '../../electron/host/host.js';
import { forkLauncher } from '../../electron/host/launcher.js';
import { readOnlyRoots } from '../../electron/engine/sandbox/python/py-launch.js';
import { bubblewrapArgs, shellSandbox } from '../../electron/engine/sandbox/shell-sandbox.js';
import { stdioServer } from '../helpers/mcp-test-server.js';
import { makePackagedLayout, type PackagedLayout } from '../helpers/packaged-layout.js';

let layout: PackagedLayout;
let host: Host | null = null;
let dataDir = '';
const events: StepEvent[] = [];
const workerEntry = (): string => path.join(layout.unpackedDir, 'dist/worker/worker-main.js');
const childEntry = (): string => path.join(layout.unpackedDir, 'dist/worker/python-child.js');

beforeAll(async () => {
  layout = await makePackagedLayout();
  dataDir = await mkdtemp(path.join(tmpdir(), 'parallax-packaged-data-'));
  host = createHost({ dataDir, caller: 'cli', getApiKey: async () => null, onWarning: () => {}, onEvents: (b) => events.push(...b), launcher: forkLauncher({ entry: workerEntry() }) });
}, 180_000);

afterAll(async () => {
  await host?.close();
  await layout?.remove();
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
});

async function compare(task: string, modes: string[], extra: Record<string, unknown> = {}): Promise<Map<string, StepEvent[]>> {
  const meta = await host!['comparison:start']({ task, modes, provider: { name: 'simulated', baseUrl: null, model: 'sim' }, ...extra } as never);
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
  it('keeps the worker bundle and what it loads at run time outside the archive', () => {
    expect(existsSync(layout.asar)).toBe(true);
    expect(existsSync(workerEntry())).toBe(true);
    expect(existsSync(childEntry())).toBe(true);
  });

  it('marks the unpacked bundle as ES modules, so a Node without module syntax detection loads it', () => {
    const pkg = path.join(layout.unpackedDir, 'dist/worker/package.json');
    expect(existsSync(pkg), 'no package.json beside the unpacked worker bundle').toBe(true);
    expect(JSON.parse(readFileSync(pkg, 'utf8'))).toMatchObject({ type: 'module' });
    // As Node 18, 20.0–20.18 and 22.0–22.6 read it: no detection, so the "type" field decides.
    const r = spawnSync(process.execPath, ['--no-experimental-detect-module', '--input-type=module', '-e', `await import(${JSON.stringify(path.join(layout.unpackedDir, 'dist/worker/compute-thread.js'))}).catch((e) => { console.error(String(e)); process.exit(3); }); process.exit(0);`], { encoding: 'utf8', timeout: 30_000 });
    expect(r.stderr).not.toMatch(/SyntaxError|Cannot use import statement/);
    expect(r.status).toBe(0);
  });

  it('starts a worker that says loaded', async () => {
    const child = spawn(process.execPath, [workerEntry()], { stdio: ['ignore', 'ignore', 'pipe', 'ipc'], env: { PATH: process.env.PATH ?? '' } });
    let stderr = '';
    child.stderr!.on('data', (c: Buffer) => (stderr += c.toString()));
    const first = await new Promise<unknown>((resolve) => {
      child.once('message', resolve);
      child.once('exit', (code) => resolve({ exit: code }));
    });
    child.kill();
    expect(first, stderr).toEqual({ type: 'loaded' });
  }, 60_000);

  it('runs the calculator (compute thread) and a Code Mode program (QuickJS thread)', async () => {
    const runs = await compare('weather-f', ['react', 'code']);
    const calc = runs.get('react')!.find((e) => e.type === 'tool-finished' && e.name === 'calculator');
    expect(calc?.type === 'tool-finished' && calc.error).toBe(null);
    const program = runs.get('code')!.find((e) => e.type === 'code-run');
    expect(program?.type === 'code-run' && program.error).toBe(null);
  }, 180_000);

  it('runs a Code Mode (Python) program and run_shell', async () => {
    const runs = await compare('log-stats', ['code-py', 'react']);
    const program = runs.get('code-py')!.find((e) => e.type === 'code-run');
    expect(program?.type === 'code-run' && program.error).toBe(null);
    const shell = runs.get('react')!.find((e) => e.type === 'tool-finished' && e.name === 'run_shell');
    expect(shell?.type === 'tool-finished' && shell.error).toBe(null);
  }, 180_000);

  it('starts an MCP stdio server and calls its tool from a program', async () => {
    const runs = await compare('calc', ['code'], { mcpServers: [stdioServer('t')] });
    const started = runs.get('code')!.find((e) => e.type === 'run-started');
    expect(JSON.stringify(started)).toContain('t_add');
  }, 180_000);
});

describe('the Python child in the packaged layout', () => {
  it('is shown only its own code, Pyodide and the runtime, never / or the home folder', () => {
    const roots = readOnlyRoots(childEntry());
    expect(roots).not.toContain('/');
    expect(roots.some((r) => homedir().startsWith(r + '/') || r === homedir())).toBe(false);
  });

  it.runIf(shellSandbox().kind === 'bubblewrap')('cannot see /, the home folder, host processes or the host /tmp inside bubblewrap', () => {
    const sandbox = shellSandbox();
    const args = bubblewrapArgs({ workspace: null, tmpBytes: 1 << 20, disableUserns: sandbox.disableUserns ?? false });
    const binds = readOnlyRoots(childEntry()).flatMap((root) => ['--ro-bind', root, root]);
    args.splice(args.indexOf('--remount-ro'), 0, ...binds);
    const probe = `const fs = require('node:fs');
      const pids = fs.readdirSync('/proc').filter((n) => /^\\d+$/.test(n)).length;
      console.log(JSON.stringify({ root: fs.readdirSync('/').sort(), home: fs.existsSync(${JSON.stringify(homedir())}), tmp: fs.readdirSync('/tmp'), pids, layout: fs.existsSync(${JSON.stringify(layout.asar)}) }));`;
    const r = spawnSync(sandbox.bwrap!, [...args, '--', process.execPath, '-e', probe], { encoding: 'utf8', timeout: 30_000 });
    expect(r.status, r.stderr).toBe(0);
    const seen = JSON.parse(r.stdout) as { root: string[]; home: boolean; tmp: string[]; pids: number; layout: boolean };
    expect(seen.home).toBe(false);
    expect(seen.tmp).toEqual([]);
    expect(seen.pids).toBeLessThanOrEqual(2);
    // The archive itself (main process code) is not the child's business either.
    expect(seen.layout).toBe(false);
    expect(seen.root).not.toContain('root');
  });
});
