/** History is the user's alone: every file the host writes is 0600 and the comparison's folder 0700, whatever the umask. */
import { mkdtemp, readdir, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { createHost, type Host } from '../../../electron/host/host.js';
import { memoryKeyStore } from '../../../electron/host/key-store.js';
import { syntheticLauncher } from './session-helpers.js';

const hosts: Host[] = [];
afterEach(async () => {
  await Promise.all(hosts.splice(0).map((h) => h.close()));
});

async function filesUnder(dir: string, skip: readonly string[]): Promise<string[]> {
  const out: string[] = [];
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const full = join(dir, entry.name);
    if (skip.includes(entry.name)) continue;
    if (entry.isDirectory()) out.push(full, ...(await filesUnder(full, skip)));
    else out.push(full);
  }
  return out;
}

it("a comparison's meta, run logs, summary and the history index are readable by the user alone", async () => {
  const umask = process.umask(0o022);
  try {
    const dataDir = await mkdtemp(join(tmpdir(), 'parallax-private-'));
    const keys = memoryKeyStore({});
    const host = createHost({
      dataDir,
      getApiKey: keys.getApiKey,
      keys,
      onWarning: () => {},
      onEvents: () => {},
      launcher: syntheticLauncher({}, ['--events', '20']),
    });
    hosts.push(host);
    const meta = await host['comparison:start']({
      task: 'calc',
      modes: ['react', 'code'],
      provider: { name: 'simulated', baseUrl: null, model: 'sim' },
    });
    await host.whenDone(meta.id);
    await host['history:list']();
    const dir = join(dataDir, 'comparisons', meta.id);
    expect((await stat(dir)).mode & 0o777).toBe(0o700);
    // The fixture and the workspaces are the task's files and the runs' copies of them, inside the private folder.
    const written = [
      ...(await filesUnder(dir, ['workspaces', 'fixture'])),
      ...(await readdir(dataDir)).filter((n) => n.endsWith('.json')).map((n) => join(dataDir, n)),
    ];
    expect(written.some((f) => f.endsWith('.jsonl'))).toBe(true);
    expect(written.some((f) => f.endsWith('meta.json'))).toBe(true);
    for (const file of written) {
      const mode = (await stat(file)).mode & 0o777;
      expect({ file: file.slice(dataDir.length), mode: mode.toString(8) }).toEqual({
        file: file.slice(dataDir.length),
        mode: (await stat(file)).isDirectory() ? '700' : '600',
      });
    }
  } finally {
    process.umask(umask);
  }
});
