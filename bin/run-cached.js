// Runs a CommonJS bundle (the CLI's dist/cli/parallax.cjs, a worker's dist/worker/worker-main.cjs) with the V8 code
// cache made beside it, so a start deserializes compiled code instead of compiling it.
// - The cache file (X.cjs.cache) starts with a line naming the bundle (its byte length), Node and V8 it was made
//   for; then a tiny cache of a fixed probe script; then the bundle's cache. V8 turns down code made under other
//   V8 flags: the probe tells, at no cost, whether this process's flags are the maker's.
// - A process with other V8 flags (say NODE_OPTIONS=--max-old-space-size) would compile the whole script, slower
//   than the ES module bundle beside it (X.js) that loads only what a command needs: it runs that one instead,
//   and leaves the cache to its maker.
// - At exit a fresh cache is written (if the folder is writable) when there was none, when it was for another
//   bundle or Node, or when V8 turned down one made under these very flags (damaged).
// PARALLAX_CODE_CACHE=off: the cache is neither read nor written; =write: always written (how the build makes it).
// Run as a script it takes the bundle's path first:  node bin/run-cached.js dist/cli/parallax.cjs run --task calc
import { isAscii } from 'node:buffer';
import { existsSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import vm from 'node:vm';

const PROBE = '"parallax code cache probe"';

/** All ASCII, as the build writes it (build/bundle-worker.mjs asciiSources): read as one-byte text, a plain copy. */
const sourceText = (bytes) => (isAscii(bytes) ? bytes.toString('latin1') : bytes.toString('utf8'));

/** The parts of a cache file, or null when it is not one for this bundle, Node and V8. */
function readCache(path, stamp) {
  let raw;
  try {
    raw = readFileSync(path);
  } catch {
    return null; // none yet (a build that could not make one, or a folder it was deleted from)
  }
  if (!raw.subarray(0, stamp.length).equals(stamp) || raw.length < stamp.length + 4) return null;
  const probeEnd = stamp.length + 4 + raw.readUInt32LE(stamp.length);
  return { probe: raw.subarray(stamp.length + 4, probeEnd), code: raw.subarray(probeEnd) };
}

/** Runs `file` (with its cache, or as the ES module bundle beside it); resolves once the bundle's top level ran. */
export async function runCached(file, mode = process.env.PARALLAX_CODE_CACHE) {
  const stamp = Buffer.from(`parallax-code-cache ${statSync(file).size} ${process.version} ${process.versions.v8}\n`);
  const cache = mode === 'off' || mode === 'write' ? null : readCache(`${file}.cache`, stamp);
  let replace = mode === 'write' || (mode !== 'off' && cache === null);
  if (cache !== null && new vm.Script(PROBE, { cachedData: cache.probe }).cachedDataRejected) {
    // Made under other V8 flags.
    const esm = file.replace(/\.cjs$/, '.js');
    if (esm !== file && existsSync(esm)) return import(pathToFileURL(esm).href);
  }
  const script = new vm.Script(
    `(function (exports, require, module, __filename, __dirname) {${sourceText(readFileSync(file))}\n})`,
    {
      filename: file,
      cachedData: cache?.code,
    },
  );
  // Turned down although its probe was taken: damaged.
  if (cache !== null && script.cachedDataRejected)
    replace ||= !new vm.Script(PROBE, { cachedData: cache.probe }).cachedDataRejected;
  if (replace) {
    // Made at exit, so it holds what this run compiled, not only the top level.
    process.once('exit', () => {
      try {
        const probe = new vm.Script(PROBE).createCachedData();
        const size = Buffer.alloc(4);
        size.writeUInt32LE(probe.length);
        const tmp = `${file}.cache.${process.pid}`;
        writeFileSync(tmp, Buffer.concat([stamp, size, probe, script.createCachedData()]));
        renameSync(tmp, `${file}.cache`);
      } catch {
        // A read-only install: the next start compiles again, nothing else changes.
      }
    });
  }
  const module = { exports: {} };
  script.runInThisContext()(module.exports, createRequire(file), module, file, dirname(file));
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const file = resolve(process.argv[2] ?? '');
  // The bundle reads its arguments from argv[2] on, as if it had been started itself.
  process.argv.splice(1, 2, file);
  await runCached(file);
}
