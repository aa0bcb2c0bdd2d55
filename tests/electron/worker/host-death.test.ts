/**
 * A host killed with SIGKILL takes its workers and everything they started with it: the run_shell command
 * (a plain process group, no OS sandbox), the Pyodide child and an MCP stdio server that ignores its closed
 * stdin. Once under child_process.fork (the channel closes) and once under the utility-launcher seam, where
 * the worker talks through a parentPort that reports no close, so only the watchdog can notice.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { descendants, describe as describeProc, waitGone, withEnv, type ProcInfo } from '../../helpers/proc-tree.js';

const tsx = pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href;
const hostScript = fileURLToPath(new URL('../../helpers/host-death-host.ts', import.meta.url));
const workerEntry = fileURLToPath(new URL('../../helpers/children-worker.ts', import.meta.url));

async function killHostAndWatch(kind: 'fork' | 'utility'): Promise<{ seen: ProcInfo[]; alive: ProcInfo[] }> {
  const ready = join(mkdtempSync(join(tmpdir(), 'parallax-host-death-')), 'ready.json');
  const host = spawn(process.execPath, ['--import', tsx, hostScript, kind, workerEntry, ready], {
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  host.stderr.setEncoding('utf8').on('data', (c: string) => (stderr += c));
  const deadline = Date.now() + 90_000;
  while (!existsSync(ready)) {
    if (Date.now() > deadline || host.exitCode !== null) {
      const left = descendants(host.pid!);
      host.kill('SIGKILL');
      for (const p of left) process.kill(p.pid, 'SIGKILL');
      throw new Error(`the worker's children did not start: ${stderr}`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  const { worker } = JSON.parse(readFileSync(ready, 'utf8')) as { worker: number };
  const seen = new Map<number, ProcInfo>();
  // The shell command was started before the file was written, but its sleeps run once its shell has forked
  // them: on a busy machine that can come later. Kill the host only once both are seen.
  for (;;) {
    for (const p of [...descendants(host.pid!), ...withEnv('PARALLAX_HOST_PID', String(host.pid))]) seen.set(p.pid, p);
    if ([...seen.values()].filter((p) => p.comm === 'sleep').length >= 2 || Date.now() > deadline) break;
    await new Promise((r) => setTimeout(r, 100));
  }
  expect([...seen.keys()]).toContain(worker);
  host.kill('SIGKILL');
  const alive = await waitGone(seen.values(), 60_000); // returns as soon as the last is gone; a busy machine reaps slowly
  return { seen: [...seen.values()], alive };
}

describe.skipIf(process.platform !== 'linux')('a killed host leaves no process behind', () => {
  for (const kind of ['fork', 'utility'] as const) {
    it(`under ${kind === 'fork' ? 'child_process.fork' : "the utilityProcess launcher's seam"}: worker, shell command, Pyodide child, MCP server`, async () => {
      const { seen, alive } = await killHostAndWatch(kind);
      const names = seen.map((p) => p.comm).join(' ');
      // What was running: the worker, sleep ×2 and its sh, the Pyodide child (maybe in bwrap), the MCP server.
      expect(names, seen.map(describeProc).join('\n')).toMatch(/sleep/);
      expect(seen.length).toBeGreaterThanOrEqual(5);
      expect(alive.map(describeProc)).toEqual([]);
    });
  }
});
