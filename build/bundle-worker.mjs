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
import { copyFile, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { promisify } from 'node:util';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');

/**
 * The worker bundle; returns its entry's path. Beside it the worker once more as one CommonJS script
 * (worker-main.cjs) with a copy of bin/run-cached.js, which the host forks to start it with a V8 code cache
 * (host/launcher.ts); a worker writes that cache when it exits and finds none, and the build's own comparison
 * (makeWorkerCache) makes it, under the workers' V8 flags.
 */
export async function bundleWorker(outdir = 'dist/worker') {
  const entry = await bundle(
    outdir,
    {
      'worker-main': 'electron/worker/worker-main.ts',
      ...THREADS,
      // Code Mode (Python): the Pyodide child process (engine/sandbox/python/py-launch.ts starts it).
      'python-child': 'electron/engine/sandbox/python/py-child-main.ts',
    },
    'worker-main.js',
  );
  await bundleScript('electron/worker/worker-main.ts', resolve(root, outdir, 'worker-main.cjs'));
  await copyFile(join(root, 'bin', 'run-cached.js'), resolve(root, outdir, 'run-cached.js'));
  await makePythonSnapshot(resolve(root, outdir));
  await makeRankTable(resolve(root, outdir));
  return entry;
}

/**
 * gpt-tokenizer's o200k_base ranks as a table that loads in a fraction of the time of the library's JavaScript array
 * (engine/tokens/rank-table.ts, whose writer tsc has just compiled into dist/electron: one definition of the format).
 */
async function makeRankTable(dir) {
  const module = resolve(root, 'dist', 'electron', 'engine', 'tokens', 'rank-table.js');
  const { writeRankTable, RANK_TABLE_FILE } = await import(pathToFileURL(module).href);
  writeRankTable(join(dir, RANK_TABLE_FILE));
}

/**
 * Pyodide's memory after a plain boot, beside the Python child that restores it (py-snapshot-restore.ts): each Code
 * Mode (Python) start then copies in its ~14 MB that are not zeros instead of booting the interpreter, about half the
 * CPU. The child itself makes it, so the boot's options have one definition; the file is named for the Pyodide version.
 */
async function makePythonSnapshot(dir) {
  await promisify(execFile)(process.execPath, [join(dir, 'python-child.js'), '--make-boot-snapshot', dir], {
    maxBuffer: 1 << 20,
  });
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
  await bundleCliScript(outdir);
  return entry;
}

/**
 * The CLI once more, as one CommonJS script (parallax.cjs) beside the ES module bundle, with a V8 code cache
 * (parallax.cjs.cache). bin/parallax.js runs this one: Node 20 can give compiled code to a script (vm.Script's
 * cachedData) but not to an ES module, and compiling the few hundred kilobytes `parallax run` loads before its
 * first request was its largest single cost. Modules imported lazily stay lazy (esbuild wraps each in an init
 * function that runs on its first import). The cache is made here by running a simulated `parallax run`, so it
 * holds what that path compiled (bin/run-cached.js writes it at exit); the ES module bundle stays for the thread
 * entries, the recorded help, and as the fallback.
 */
async function bundleCliScript(outdir) {
  const file = resolve(root, outdir, 'parallax.cjs');
  await bundleScript('electron/cli/main.ts', file, { sourcemap: 'linked' });
  const data = await mkdtemp(join(tmpdir(), 'parallax-code-cache-'));
  try {
    await promisify(execFile)(
      process.execPath,
      [join(root, 'bin', 'run-cached.js'), file, 'run', '--task', 'weather-f', '--mode', 'code', '--json'],
      { env: { ...process.env, PARALLAX_DATA_DIR: data, PARALLAX_CODE_CACHE: 'write' }, maxBuffer: 1 << 24 },
    );
  } finally {
    await rm(data, { recursive: true, force: true });
  }
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
 * One entry as a CommonJS script at `file`, for bin/run-cached.js. import.meta.url becomes the script's own URL, so
 * whatever is found beside the bundle is found the same.
 */
async function bundleScript(entry, file, extra = {}) {
  await build({
    ...COMMON,
    entryPoints: [entry],
    outfile: file,
    format: 'cjs',
    // The tokenizer's tables (2 MB) load from node_modules when counting starts: inside the script they would
    // be read with every start, and held in the code cache.
    external: [...COMMON.external, 'gpt-tokenizer', 'gpt-tokenizer/*'],
    define: { ...COMMON.define, 'import.meta.url': '__parallaxModuleUrl' },
    banner: { js: "var __parallaxModuleUrl = require('node:url').pathToFileURL(__filename).href;" },
    // import() of what stays outside (Node's own modules) becomes require(): a script compiled from a code cache
    // has no loader for import() (V8 keeps no host options in the cache), and Node's for vm scripts is experimental.
    supported: { 'dynamic-import': false },
    plugins: [...COMMON.plugins, asciiSources],
    ...extra,
  });
}

/**
 * Every source of a script is read with its non-ASCII characters as \u escapes. esbuild escapes them in strings but
 * not in regular expressions or template literals, and a few of those in a script made Node read the whole file
 * as UTF-8 into a two-byte string (twice its size); all ASCII, bin/run-cached.js reads it as one-byte text, a copy.
 * The escapes mean the same in a string, a regular expression and a cooked template; a template read raw
 * (String.raw, a tag reading .raw) would differ, and none of the script's holds such a character
 * (tests/build/bundle-cli.test.ts reads the script: all ASCII).
 */
const asciiSources = {
  name: 'ascii-sources',
  setup(b) {
    b.onLoad({ filter: /\.[cm]?[jt]s$/ }, async (args) => {
      const text = (await readFile(args.path, 'utf8')).replace(/^\uFEFF/, ''); // a byte-order mark is no character
      // eslint-disable-next-line no-control-regex -- everything outside ASCII
      if (!/[^\u0000-\u007f]/.test(text)) return undefined;
      return {
        // eslint-disable-next-line no-control-regex -- everything outside ASCII, one UTF-16 unit at a time
        contents: text.replace(/[^\u0000-\u007f]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`),
        loader: /\.[cm]?ts$/.test(args.path) ? 'ts' : 'js',
        resolveDir: dirname(args.path),
      };
    });
  },
};

/**
 * The workers' code cache: a simulated two-mode comparison by the CLI at `cli`, whose workers find no cache and
 * write one as they exit (the last to exit wins), under the V8 flags the host gives every worker.
 */
export async function makeWorkerCache(cli = resolve(root, 'dist', 'cli', 'parallax.cjs')) {
  const data = await mkdtemp(join(tmpdir(), 'parallax-code-cache-'));
  try {
    await rm(join(root, 'dist', 'worker', 'worker-main.cjs.cache'), { force: true });
    await promisify(execFile)(
      process.execPath,
      [join(root, 'bin', 'run-cached.js'), cli, 'compare', '--task', 'weather-f', '--modes', 'react,code', '--json'],
      { env: { ...process.env, PARALLAX_DATA_DIR: data }, maxBuffer: 1 << 24 },
    );
  } finally {
    await rm(data, { recursive: true, force: true });
  }
}

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
    ...COMMON,
    entryPoints,
    outdir,
    splitting: true, // code shared by the entries, and modules imported lazily (the tokenizer), go into chunks
    format: 'esm',
    // Bundled CommonJS libraries may call require(); ESM output has none, so it is made from the bundle's URL.
    banner: {
      js: "import { createRequire as __parallaxRequire } from 'node:module'; const require = __parallaxRequire(import.meta.url);",
    },
    ...extra,
  });
  // The bundle is ES modules. In the desktop app it sits in app.asar.unpacked, where the package.json above it
  // (inside the archive) is out of Node's reach: without this one, a Node that does not detect module syntax
  // (before 20.19 and 22.7) reads it as CommonJS and fails on its first import.
  await writeFile(resolve(root, outdir, 'package.json'), `${JSON.stringify({ type: 'module' })}\n`);
  return resolve(root, outdir, main);
}

/** What both forms of bundle share. */
const COMMON = {
  absWorkingDir: root,
  bundle: true,
  platform: 'node',
  target: 'node20',
  // Pyodide finds its .wasm and standard library beside itself in node_modules, like QuickJS.
  // `electron` is never imported by what is bundled here; `parallax start` finds its binary by path.
  external: ['@jitl/*', 'quickjs-emscripten*', 'mathjs', 'mathjs/*', 'pyodide', 'electron'],
  // startThread reads this to find the thread entries beside the bundle (see sandbox/start-thread.ts).
  define: { PARALLAX_BUNDLED: 'true' },
  legalComments: 'none',
  // Whitespace and syntax only: names stay, so a crashed worker's stack still names its functions.
  minifyWhitespace: true,
  minifySyntax: true,
  logLevel: 'warning',
  plugins: [englishZodOnly],
};

if (process.argv[1] && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) {
  const started = performance.now();
  await Promise.all([bundleWorker(), bundleCli()]);
  await makeWorkerCache();
  console.log(`worker and CLI bundles: dist/worker/, dist/cli/ in ${Math.round(performance.now() - started)} ms`);
}
