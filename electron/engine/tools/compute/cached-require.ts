/**
 * Loads a large CommonJS file (mathjs's single-file build, 650 kB) with a V8 code cache kept beside the bundle
 * that loads it, as bin/run-cached.js does for the CLI and the worker: a thread deserializes compiled code instead
 * of parsing and compiling the file again (≈ 110 → 35 ms of a first calculation's CPU).
 * - The cache file is named for this process's V8 flags (a worker's differ from the CLI's, and V8 turns down code
 *   made under other flags), and starts with a line naming the file's length and time, Node and V8; V8 knows a source
 *   only by its length, so a cache for another file is never offered to it.
 * - `afterUse` writes the cache once the loaded code has done its first work (so it holds what that compiled too),
 *   when there was none or V8 turned it down; a folder that cannot be written (an installed app) is left as it is.
 */
import { createHash } from 'node:crypto';
import { readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { basename, dirname, join } from 'node:path';
import vm from 'node:vm';

export interface CachedModule {
  readonly exports: unknown;
  /** The compiled code came from the cache. */
  readonly fromCache: boolean;
  /** Write the cache now if it is missing or was turned down (once; errors are ignored). */
  afterUse(): void;
}

/** The cache file for `file` in `dir` under this process's V8 flags. */
function cachePathFor(file: string, dir: string): string {
  const flags = [...process.execArgv, process.env.NODE_OPTIONS ?? ''].join(' ');
  const key = createHash('sha256').update(flags).digest('hex').slice(0, 12);
  return join(dir, `${basename(file)}.${key}.cache`);
}

/** `require(file)` through a code cache in `cacheDir` (null: no cache, a plain compile). */
export function requireCached(file: string, cacheDir: string | null): CachedModule {
  const source = readFileSync(file, 'utf8');
  // V8 checks only the source's length: the file's time too, so a reinstalled library of the same length is compiled.
  const { size, mtimeMs } = statSync(file);
  const stamp = Buffer.from(
    `parallax-require-cache ${size} ${mtimeMs} ${source.length} ${process.version} ${process.versions.v8}\n`,
  );
  const cachePath = cacheDir === null ? null : cachePathFor(file, cacheDir);
  let cached: Buffer | undefined;
  if (cachePath !== null) {
    try {
      const raw = readFileSync(cachePath);
      if (raw.length > stamp.length && raw.subarray(0, stamp.length).equals(stamp)) cached = raw.subarray(stamp.length);
    } catch {
      // none yet
    }
  }
  const script = new vm.Script(`(function (exports, require, module, __filename, __dirname) {${source}\n})`, {
    filename: file,
    ...(cached ? { cachedData: cached } : {}),
  });
  const fromCache = cached !== undefined && !script.cachedDataRejected;
  const module = { exports: {} as unknown };
  (script.runInThisContext() as (...args: unknown[]) => void)(
    module.exports,
    createRequire(file),
    module,
    file,
    dirname(file),
  );
  let pending = cachePath !== null && !fromCache;
  return {
    exports: module.exports,
    fromCache,
    afterUse() {
      if (!pending || cachePath === null) return;
      pending = false;
      try {
        const tmp = `${cachePath}.${process.pid}.${Math.random().toString(36).slice(2)}`;
        writeFileSync(tmp, Buffer.concat([stamp, script.createCachedData()]));
        renameSync(tmp, cachePath);
      } catch {
        // A read-only install: the next thread compiles again, nothing else changes.
      }
    },
  };
}
