/** Whether a build is newer than every source it was made from: only then do workers and the CLI tests use it. */
import { mkdirSync, mkdtempSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { freshBuild } from '../../../electron/engine/fresh-build.js';

function tree(): { root: string; stamp: string; at: (file: string, seconds: number) => void } {
  const root = mkdtempSync(path.join(tmpdir(), 'parallax-fresh-'));
  const at = (file: string, seconds: number): void => {
    const full = path.join(root, file);
    mkdirSync(path.dirname(full), { recursive: true });
    writeFileSync(full, 'x');
    utimesSync(full, seconds, seconds);
    // Folders' own times follow their newest entry here, as after a checkout.
    for (let dir = path.dirname(full); dir.startsWith(root) && dir !== root; dir = path.dirname(dir))
      utimesSync(dir, seconds, seconds);
  };
  at('electron/host/a.ts', 1000);
  at('shared/b.ts', 1000);
  at('package-lock.json', 1000);
  const stamp = path.join(root, 'dist/worker/worker-main.js');
  return { root, stamp, at };
}

describe('freshBuild', () => {
  it('is fresh when the build is newer than every source, and stale once any source changes after it', () => {
    const { root, stamp, at } = tree();
    at('dist/worker/worker-main.js', 2000);
    expect(freshBuild(root, stamp, {})).toBe(true);
    at('electron/engine/deep/changed.ts', 3000);
    expect(freshBuild(root, stamp, {})).toBe(false);
  });

  it('is stale with no build, after a dependency change, and whenever PARALLAX_FROM_SOURCE is set', () => {
    const { root, stamp, at } = tree();
    expect(freshBuild(root, stamp, {})).toBe(false);
    at('dist/worker/worker-main.js', 2000);
    expect(freshBuild(root, stamp, { PARALLAX_FROM_SOURCE: '1' })).toBe(false);
    at('package-lock.json', 2500);
    expect(freshBuild(root, stamp, {})).toBe(false);
  });
});
