/**
 * Bundles the worker process entry and its two thread entries (sandbox, compute) into dist/worker/, so a
 * worker reads three files instead of a few hundred modules. Libraries that find files beside themselves at
 * run time (QuickJS's .wasm, mathjs loaded with require) stay outside the bundle and load from node_modules.
 * Run by `npm run build:node` after tsc; the launcher falls back to dist/electron/worker when this is absent.
 */
import { build } from 'esbuild';
import { rm } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const started = performance.now();
await rm(join(root, 'dist', 'worker'), { recursive: true, force: true }); // no stale chunks from an earlier build
await build({
  absWorkingDir: root,
  entryPoints: {
    'worker-main': 'electron/worker/worker-main.ts',
    'sandbox-thread': 'electron/engine/sandbox/thread-main.ts',
    'compute-thread': 'electron/engine/tools/compute/thread-main.ts',
  },
  outdir: 'dist/worker',
  bundle: true,
  splitting: true, // code shared by the entries (and lazily imported modules) goes into chunks, loaded once
  format: 'esm',
  platform: 'node',
  target: 'node20',
  external: ['@jitl/*', 'quickjs-emscripten*', 'mathjs', 'mathjs/*'],
  // startThread reads this to find the thread entries beside the bundle (see sandbox/start-thread.ts).
  define: { PARALLAX_BUNDLED: 'true' },
  // Some bundled CommonJS libraries call require(); ESM output has none, so it is made from the bundle's URL.
  banner: { js: "import { createRequire as __parallaxRequire } from 'node:module'; const require = __parallaxRequire(import.meta.url);" },
  sourcemap: false,
  legalComments: 'none',
  logLevel: 'warning',
});
console.log(`worker bundle: dist/worker/ in ${Math.round(performance.now() - started)} ms`);
