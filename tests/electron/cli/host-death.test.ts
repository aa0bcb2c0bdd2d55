/**
 * `kill -9` of the CLI host during `compare --modes react,code,hybrid,react-search --trials N`: every
 * worker it started (and anything they started) is gone within seconds. The processes are found in /proc
 * by parent (sampled while the comparison runs) and by the PARALLAX_HOST_PID mark in their environment.
 * Killed at two moments: as the first round's workers start, and mid-comparison, when the next round's are
 * being forked (the moment a worker may still be loading when its channel closes).
 */
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { startCli } from '../host/cli-process.js';
import { descendants, describe as describeProc, waitGone, withEnv, type ProcInfo } from '../../helpers/proc-tree.js';

async function killDuringCompare(
  when: 'first-workers' | 'mid-run',
): Promise<{ seen: ProcInfo[]; alive: ProcInfo[]; stderr: string }> {
  const dataDir = await mkdtemp(join(tmpdir(), 'parallax-host-death-'));
  const env: NodeJS.ProcessEnv = { ...process.env, PARALLAX_DATA_DIR: dataDir };
  delete env.OPENAI_API_KEY;
  const cli = startCli(
    [
      'compare',
      '--task',
      'log-stats',
      '--modes',
      'react,code,hybrid,react-search',
      '--trials',
      '4',
      '--concurrency',
      '2',
    ],
    env,
  );
  const seen = new Map<number, ProcInfo>();
  const sample = (): void => {
    for (const p of descendants(cli.pid!)) seen.set(p.pid, p);
  };
  const workers = (): number =>
    [...seen.values()].filter((p) => p.ppid === cli.pid && p.comm.startsWith('node')).length;
  const deadline = Date.now() + 300_000;
  for (;;) {
    sample();
    if (cli.exitCode !== null || Date.now() > deadline) {
      cli.kill('SIGKILL');
      throw new Error(
        `${cli.exitCode !== null ? 'the comparison ended before it was killed' : 'no moment to kill it came'}: ${cli.output.stderr}`,
      );
    }
    const answered = ((cli.output.stdout + cli.output.stderr).match(/answered after/g) ?? []).length;
    if (when === 'first-workers' ? workers() >= 4 : answered >= 1 && workers() >= 5) break;
    await new Promise((r) => setTimeout(r, 50));
  }
  for (const p of withEnv('PARALLAX_HOST_PID', String(cli.pid))) seen.set(p.pid, p);
  sample();
  cli.kill('SIGKILL');
  // A worker still loading its modules (from source under tsx, on a loaded machine) notices only once its
  // first line runs: the bound is generous, the check is that it ends by itself.
  const alive = await waitGone(seen.values(), 45_000);
  // Anything that still carries the killed host's mark (started after the last sample) counts too.
  const marked = withEnv('PARALLAX_HOST_PID', String(cli.pid));
  return {
    seen: [...seen.values()],
    alive: [...alive, ...marked.filter((m) => !alive.some((a) => a.pid === m.pid))],
    stderr: cli.output.stderr,
  };
}

describe.skipIf(process.platform !== 'linux')('kill -9 of the CLI during compare', () => {
  for (const when of ['first-workers', 'mid-run'] as const) {
    it(`leaves no worker or child alive (killed at ${when})`, async () => {
      const { seen, alive, stderr } = await killDuringCompare(when);
      expect(seen.filter((p) => p.comm.startsWith('node')).length, stderr).toBeGreaterThanOrEqual(4);
      expect(alive.map(describeProc)).toEqual([]);
    }, 400_000);
  }
});
