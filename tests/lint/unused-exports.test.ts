/**
 * The unused-export check (build/unused-exports.mjs, run by `npm run lint`) catches what it is for: run over a
 * small tree (tests/fixtures/unused-exports) it names the one export nobody uses, and not the one another file
 * imports, the one a test uses, the one used in its own file, or the entry file's.
 */
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const SCRIPT = fileURLToPath(new URL('../../build/unused-exports.mjs', import.meta.url));
const FIXTURE = fileURLToPath(new URL('../fixtures/unused-exports/', import.meta.url));

describe('unused-export check', () => {
  it('reports exactly the fixture tree’s unused export and fails', () => {
    const run = spawnSync(process.execPath, [SCRIPT, '--root', FIXTURE], { encoding: 'utf8' });
    const found = run.stderr
      .split('\n')
      .filter((line) => line.startsWith('  '))
      .map((line) => line.trim());
    expect(found).toEqual(['shared/words.ts: usedNowhere']);
    expect(run.status).toBe(1);
  });
});
