/**
 * Test helper: run a real `parallax compare` in a child process (simulated model, real workers) into a
 * fresh data dir, then read what it stored through the history store — the same path `parallax report` uses.
 */
import { execFile } from 'node:child_process';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import type { StoredComparison } from '../../../../shared/ipc-contract.js';
import { HistoryStore } from '../../../../electron/host/history-store.js';
import { sourceUnlessFresh } from '../cli-process.js';

const run = promisify(execFile);
export const ROOT = fileURLToPath(new URL('../../../../', import.meta.url));
export const CLI = join(ROOT, 'bin', 'parallax.js');

export interface LiveComparison {
  readonly dataDir: string;
  readonly id: string;
  readonly stored: StoredComparison;
}

/** Environment for a CLI child: its own data dir, the TypeScript sources (never a stale build). */
export function cliEnv(dataDir: string, extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  return { ...process.env, PARALLAX_DATA_DIR: dataDir, ...sourceUnlessFresh, ...extra };
}

export async function parallax(
  args: readonly string[],
  env: NodeJS.ProcessEnv,
): Promise<{ stdout: string; stderr: string; code: number }> {
  try {
    const { stdout, stderr } = await run(process.execPath, [CLI, ...args], {
      env,
      cwd: ROOT,
      maxBuffer: 64 * 1024 * 1024,
    });
    return { stdout, stderr, code: 0 };
  } catch (err) {
    const e = err as { stdout?: string; stderr?: string; code?: number };
    return { stdout: e.stdout ?? '', stderr: e.stderr ?? '', code: typeof e.code === 'number' ? e.code : 1 };
  }
}

export async function liveComparison(
  args: readonly string[] = ['--task', 'log-stats'],
  extraEnv: NodeJS.ProcessEnv = {},
  dataDir?: string,
): Promise<LiveComparison> {
  const dir = dataDir ?? (await mkdtemp(join(tmpdir(), 'parallax-report-test-')));
  const res = await parallax(['compare', ...args, '--json'], cliEnv(dir, extraEnv));
  // Exit 1 with a JSON result is a comparison where no run answered: stored all the same, and reportable.
  if (res.code !== 0 && !(res.code === 1 && res.stdout.trimStart().startsWith('{')))
    throw new Error(`parallax compare failed (${res.code}): ${res.stderr}`);
  const { comparisonId } = JSON.parse(res.stdout) as { comparisonId: string };
  const stored = await new HistoryStore(dir).open(comparisonId);
  return { dataDir: dir, id: comparisonId, stored };
}
