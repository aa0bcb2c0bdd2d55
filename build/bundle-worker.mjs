/**
 * Bundles the worker process entry, its two thread entries (sandbox, compute) and the Python child into dist/worker/, so a
 * worker reads a few files instead of a few hundred modules; and the CLI (bin/parallax.js runs it) into dist/cli/,
 * with its own copies of the thread entries for the runs `parallax run` makes in its own process. Libraries that
 * find files beside themselves at run time (QuickJS's .wasm, mathjs loaded with require) stay outside the bundle
 * and load from node_modules, so the output folders must sit inside the project. Run by `npm run build:node`
 * after tsc; the launcher and bin/parallax.js fall back to tsc's dist/electron when a bundle is absent.
 */
import { build } from 'esbuild';
import { execFile } from 'node:child_process';
import { rm, writeFile } from 'node:fs/promises';
import { promisify } from 'node:util';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');

/** The worker bundle; returns its entry's path. */
export async function bundleWorker(outdir = 'dist/worker') {
  return bundle(
    outdir,
    {
      'worker-main': 'electron/worker/worker-main.ts',
      ...THREADS,
      // Code Mode (Python): the Pyodide child process (engine/sandbox/python/py-launch.ts starts it).
      'python-child': 'electron/engine/sandbox/python/py-child-main.ts',
    },
    'worker-main.js',
  );
}

/**
 * The CLI: its entry, and the thread entries its in-process runs start beside it (sandbox/start-thread.ts). Its
 * Python child is the worker bundle's (the layout's workerDir). A command's file, and whatever a command loads
 * lazily, is a chunk of its own, loaded only when that command runs.
 */
export async function bundleCli(outdir = 'dist/cli') {
  // With source maps (read by bench/start-profile.bench.ts to name the sources a profile's time went to).
  const entry = await bundle(outdir, { parallax: 'electron/cli/main.ts', ...THREADS }, 'parallax.js', {
    sourcemap: 'linked',
  });
  await recordHelp(entry);
  return entry;
}

/**
 * help.json beside the CLI bundle: what `parallax --help` and each `parallax <command> --help` print, from this
 * bundle itself (commander's output into a pipe, so at its default width of 80 columns). The CLI prints it from
 * there without loading commander and every command file (electron/cli/static-help.ts).
 */
async function recordHelp(entry) {
  // The command names, from the command index itself: its entries are lazy imports, none of them runs here.
  const index = await build({
    absWorkingDir: root,
    entryPoints: ['electron/cli/commands/index.ts'],
    write: false,
    format: 'esm',
    logLevel: 'warning',
  });
  const { COMMANDS } = await import(
    `data:text/javascript;base64,${Buffer.from(index.outputFiles[0].text).toString('base64')}`
  );
  const run = promisify(execFile);
  const texts = {};
  const keys = ['', ...Object.keys(COMMANDS)];
  for (let i = 0; i < keys.length; i += 4) {
    await Promise.all(
      keys.slice(i, i + 4).map(async (key) => {
        const args = key === '' ? ['--help'] : [key, '--help'];
        const { stdout, stderr } = await run(process.execPath, [entry, ...args], { maxBuffer: 1 << 20 });
        // A help that warns or fails is left to commander at run time.
        if (stderr === '') texts[key] = stdout;
      }),
    );
  }
  const ordered = Object.fromEntries(keys.filter((k) => k in texts).map((k) => [k, texts[k]]));
  await writeFile(join(dirname(entry), 'help.json'), `${JSON.stringify(ordered, null, 1)}\n`);
}

const THREADS = {
  'sandbox-thread': 'electron/engine/sandbox/thread-main.ts',
  'compute-thread': 'electron/engine/tools/compute/thread-main.ts',
};

/**
 * zod's namespace export carries every locale of its error messages (`z.locales`, 250 KB of the bundle that every
 * start parsed); Parallax speaks English, zod's default, and names no other locale. Its locale index is replaced
 * by one that exports English alone.
 */
const englishZodOnly = {
  name: 'zod-english-only',
  setup(b) {
    b.onResolve({ filter: /^\.\.\/locales\/index\.js$/ }, (args) =>
      /[\\/]zod[\\/]v4[\\/]/.test(args.importer)
        ? { path: resolve(dirname(args.importer), '../locales/en.js'), namespace: 'zod-english' }
        : undefined,
    );
    b.onLoad({ filter: /.*/, namespace: 'zod-english' }, (args) => ({
      contents: `export { default as en } from ${JSON.stringify(args.path)};`,
      resolveDir: dirname(args.path),
    }));
  },
};

/** Bundle into `outdir` (relative to the project root), emptied first so no stale chunk is left. */
async function bundle(outdir, entryPoints, main, extra = {}) {
  await rm(resolve(root, outdir), { recursive: true, force: true });
  await build({
    absWorkingDir: root,
    entryPoints,
    outdir,
    bundle: true,
    splitting: true, // code shared by the entries, and modules imported lazily (the tokenizer), go into chunks
    format: 'esm',
    platform: 'node',
    target: 'node20',
    // Pyodide finds its .wasm and standard library beside itself in node_modules, like QuickJS.
    // `electron` is never imported by what is bundled here; `parallax start` finds its binary by path.
    external: ['@jitl/*', 'quickjs-emscripten*', 'mathjs', 'mathjs/*', 'pyodide', 'electron'],
    // startThread reads this to find the thread entries beside the bundle (see sandbox/start-thread.ts).
    define: { PARALLAX_BUNDLED: 'true' },
    // Bundled CommonJS libraries may call require(); ESM output has none, so it is made from the bundle's URL.
    banner: {
      js: "import { createRequire as __parallaxRequire } from 'node:module'; const require = __parallaxRequire(import.meta.url);",
    },
    legalComments: 'none',
    // Whitespace and syntax only: names stay, so a crashed worker's stack still names its functions.
    minifyWhitespace: true,
    minifySyntax: true,
    logLevel: 'warning',
    plugins: [englishZodOnly],
    ...extra,
  });
  // The bundle is ES modules. In the desktop app it sits in app.asar.unpacked, where the package.json above it
  // (inside the archive) is out of Node's reach: without this one, a Node that does not detect module syntax
  // (before 20.19 and 22.7) reads it as CommonJS and fails on its first import.
  await writeFile(resolve(root, outdir, 'package.json'), `${JSON.stringify({ type: 'module' })}\n`);
  return resolve(root, outdir, main);
}

if (process.argv[1] && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) {
  const started = performance.now();
  await Promise.all([bundleWorker(), bundleCli()]);
  console.log(`worker and CLI bundles: dist/worker/, dist/cli/ in ${Math.round(performance.now() - started)} ms`);
}
