/**
 * The history's disk fills up during `parallax compare`: on a 64 KB tmpfs filled to several levels, the
 * command either stores the whole comparison (exit 0, every run finished, no recording note left) or fails
 * loudly: exit non-zero, no "Stored as", a message naming the folder and what to do, the runs named "not
 * recorded" (also when the history is read back, instead of a torn-line warning), and no temp file left.
 * Needs root for `mount -t tmpfs`; skipped elsewhere.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync, statfsSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { HistoryStore } from '../../../electron/host/history-store.js';
import { runCli } from '../host/cli-process.js';

function tryMount(): string | null {
  if (process.platform !== 'linux' || process.getuid?.() !== 0) return null;
  const dir = mkdtempSync(join(tmpdir(), 'parallax-full-'));
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=64k', 'tmpfs', dir], { stdio: 'ignore' });
    return dir;
  } catch {
    rmSync(dir, { recursive: true, force: true });
    return null;
  }
}

function files(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((d) => d.isFile())
    .map((d) => join(d.parentPath, d.name));
}

const mount = tryMount();
afterAll(() => {
  if (!mount) return;
  execFileSync('umount', [mount]);
  rmSync(mount, { recursive: true, force: true });
});

describe.skipIf(!mount)('compare on a disk that fills up', () => {
  it('never exits 0 with an incomplete record, names the folder, leaves no temp file', async () => {
    const outcomes: string[] = [];
    for (const freeKb of [0, 8, 16, 24, 32, 60]) {
      const data = join(mount!, 'data');
      rmSync(data, { recursive: true, force: true });
      rmSync(join(mount!, 'filler'), { force: true });
      const total = statfsSync(mount!).blocks * statfsSync(mount!).bsize;
      writeFileSync(join(mount!, 'filler'), Buffer.alloc(Math.max(0, total - freeKb * 1024)));
      const env: NodeJS.ProcessEnv = { ...process.env, PARALLAX_DATA_DIR: data };
      delete env.OPENAI_API_KEY;
      const res = await runCli(['compare', '--task', 'calc'], env);
      const at = `with ${freeKb} KB free (exit ${res.code}):\n${res.stdout}\n${res.stderr}`;
      expect(
        files(mount!).filter((f) => /\.tmp$/.test(f)),
        at,
      ).toEqual([]);
      // A bare system error without the folder is never what the user gets.
      expect(res.stderr, at).not.toMatch(/^(Error: )?E[A-Z]+: [^\n]*, (write|open|mkdir|copyfile)[^\n]*$/m);
      if (res.code === 0) {
        outcomes.push('stored');
        expect(res.stdout, at).toMatch(/Stored as/);
        const store = new HistoryStore(data);
        const [item] = await store.list();
        expect(
          item.runs.every((r) => r.status === 'answered'),
          at,
        ).toBe(true);
        expect(
          files(data).some((f) => f.endsWith('recording.json')),
          at,
        ).toBe(false);
        continue;
      }
      outcomes.push('failed');
      expect(res.stdout + res.stderr, at).not.toMatch(/Stored as/);
      expect(res.stderr, at).toContain(data);
      expect(res.stderr, at).toMatch(/disk is full \(ENOSPC\)|free space/i);
      const stored = await new HistoryStore(data).list().catch(() => []);
      for (const item of stored) {
        const opened = await new HistoryStore(data).open(item.meta.id);
        // What could not be written reads as such, never as a host that stopped mid-line.
        expect(opened.warnings.join('\n'), at).not.toMatch(/torn last line/);
        expect(opened.notRecorded && Object.keys(opened.notRecorded).length, at).toBeGreaterThan(0);
        expect(res.stderr, at).toMatch(/not recorded: the disk is full \(ENOSPC\)/);
      }
    }
    // The levels reach both outcomes: the test saw a failure and a success.
    expect(outcomes).toContain('failed');
    expect(outcomes).toContain('stored');
  }, 600_000);
});
