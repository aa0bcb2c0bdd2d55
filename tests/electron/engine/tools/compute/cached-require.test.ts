/**
 * requireCached (the calculator's load of mathjs): each load is a fresh process, as each compute thread of a run
 * is, so V8's own in-process cache never stands in for the file.
 */
import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, readdir, readFile, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { beforeEach, describe, expect, it } from 'vitest';

const moduleUrl = pathToFileURL(join(process.cwd(), 'electron/engine/tools/compute/cached-require.ts')).href;

let dir: string;
let file: string;
let cacheDir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'parallax-cached-require-'));
  file = join(dir, 'lib.js');
  cacheDir = join(dir, 'cache');
  await writeFile(file, library(1));
  await mkdir(cacheDir);
});

/** A CommonJS file with enough functions to be worth a cache; `total()` differs with `version`. */
function library(version: number): string {
  const fns = Array.from({ length: 300 }, (_, i) => `function f${i}(x) { return x + ${i} * ${version}; }`);
  return `${fns.join('\n')}\nmodule.exports = { total: () => [${fns.map((_, i) => `f${i}`).join(',')}].reduce((s, f) => f(s), 0) };\n`;
}

/** Loads `file` in a fresh process, uses it, and reports what it got. */
async function load(
  options: { cacheDir?: string | null; nodeArgs?: string[] } = {},
): Promise<{ fromCache: boolean; total: number }> {
  const target = options.cacheDir === undefined ? cacheDir : options.cacheDir;
  const program = `
    const { requireCached } = await import(${JSON.stringify(moduleUrl)});
    const m = requireCached(${JSON.stringify(file)}, ${JSON.stringify(target)});
    const total = m.exports.total();
    m.afterUse();
    console.log(JSON.stringify({ fromCache: m.fromCache, total }));`;
  const { stdout } = await promisify(execFile)(
    process.execPath,
    [...(options.nodeArgs ?? []), '--import', 'tsx', '--input-type=module', '-e', program],
    { cwd: process.cwd() },
  );
  return JSON.parse(stdout) as { fromCache: boolean; total: number };
}

const expected = (version: number) => Array.from({ length: 300 }, (_, i) => i * version).reduce((s, x) => s + x, 0);

describe('requireCached', () => {
  it('compiles and writes the cache the first time, and loads from it the next', async () => {
    expect(await load()).toEqual({ fromCache: false, total: expected(1) });
    expect(await readdir(cacheDir)).toHaveLength(1);
    expect(await load()).toEqual({ fromCache: true, total: expected(1) });
  });

  it('never runs a cache made for another version of the file', async () => {
    await load();
    await writeFile(file, library(22)); // a longer file: another version of the library
    expect(await load()).toEqual({ fromCache: false, total: expected(22) });
    expect(await load()).toEqual({ fromCache: true, total: expected(22) });
    // Another version of the same length (V8 alone would take the cache): told apart by the file's time.
    await writeFile(file, library(33));
    await utimes(file, new Date(), new Date(Date.now() + 60_000));
    expect(await load()).toEqual({ fromCache: false, total: expected(33) });
  });

  it('replaces a damaged cache and loads the file as it is', async () => {
    await load();
    const [name] = await readdir(cacheDir);
    const path = join(cacheDir, name!);
    const raw = await readFile(path);
    const header = raw.indexOf(10) + 1;
    await writeFile(path, Buffer.concat([raw.subarray(0, header), Buffer.alloc(raw.length - header, 7)]));
    expect(await load()).toEqual({ fromCache: false, total: expected(1) });
    expect(await load()).toEqual({ fromCache: true, total: expected(1) });
  });

  it('keeps one cache per set of V8 flags, each used by its own', async () => {
    await load();
    const flagged = { nodeArgs: ['--max-semi-space-size=8'] };
    expect(await load(flagged)).toEqual({ fromCache: false, total: expected(1) });
    expect(await readdir(cacheDir)).toHaveLength(2);
    expect(await load()).toEqual({ fromCache: true, total: expected(1) });
    expect(await load(flagged)).toEqual({ fromCache: true, total: expected(1) });
  });

  it('writes nothing without a folder, and works when the folder cannot be written', async () => {
    expect(await load({ cacheDir: null })).toEqual({ fromCache: false, total: expected(1) });
    expect(await readdir(cacheDir)).toEqual([]);
    const missing = join(dir, 'no-such-folder');
    expect(await load({ cacheDir: missing })).toEqual({ fromCache: false, total: expected(1) });
    expect(await readdir(dir)).not.toContain('no-such-folder');
  });
});
