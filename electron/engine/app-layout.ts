/**
 * Where Parallax's files are, computed once from where this module sits, in one of three layouts:
 * - 'source': run from the TypeScript under tsx (tests, development): <root>/electron/engine/app-layout.ts;
 * - 'repository': a build in the repository: tsc's <root>/dist/electron/engine/app-layout.js, or the worker
 *   bundle's <root>/dist/worker/<chunk>.js;
 * - 'packaged': the desktop app, where <root> is resources/app.asar (main process, read through Electron's
 *   archive support) or resources/app.asar.unpacked (the worker bundle, which runs unpacked).
 * Anything a worker thread, a child process, bubblewrap or a WASM loader opens comes from `unpackedRoot`:
 * only Electron's own processes can read inside app.asar, and only through its patched fs.
 * No package.json is looked for: the folders follow from this file's place in each layout.
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** Set to true by the worker bundler (build/bundle-worker.mjs); undefined in tsc's output and from source. */
declare const PARALLAX_BUNDLED: boolean | undefined;

export type LayoutKind = 'source' | 'repository' | 'packaged';

export interface AppLayout {
  readonly kind: LayoutKind;
  /** True when this module is the worker bundle's copy (dist/worker). */
  readonly bundled: boolean;
  /** The app's files: the repository folder, or resources/app.asar. */
  readonly appRoot: string;
  /** Files opened outside Electron's fs: the repository folder, or resources/app.asar.unpacked. */
  readonly unpackedRoot: string;
  /** The worker bundle (worker-main.js, the thread entries, python-child.js). */
  readonly workerDir: string;
  /** node_modules as seen from the worker bundle (the path Node's resolver walks, not its real path). */
  readonly nodeModules: string;
}

const ARCHIVE = 'app.asar';
const UNPACKED = 'app.asar.unpacked';

/**
 * The layout for a module at `moduleUrl` that is this file in one of its three forms. Exported for tests,
 * which pass the place this module would have in a packaged app.
 */
export function layoutFor(moduleUrl: string, bundled: boolean): AppLayout {
  const file = fileURLToPath(moduleUrl);
  // source: electron/engine/x.ts; bundle: dist/worker/x.js; tsc: dist/electron/engine/x.js.
  const up = file.endsWith('.ts') || bundled ? 2 : 3;
  let root = path.dirname(file);
  for (let i = 1; i < up; i++) root = path.dirname(root);
  root = path.dirname(root);
  const base = path.basename(root);
  if (base === ARCHIVE || base === UNPACKED) {
    const resources = path.dirname(root);
    const unpackedRoot = path.join(resources, UNPACKED);
    return {
      kind: 'packaged',
      bundled,
      appRoot: path.join(resources, ARCHIVE),
      unpackedRoot,
      workerDir: path.join(unpackedRoot, 'dist', 'worker'),
      nodeModules: path.join(unpackedRoot, 'node_modules'),
    };
  }
  return {
    kind: file.endsWith('.ts') ? 'source' : 'repository',
    bundled,
    appRoot: root,
    unpackedRoot: root,
    workerDir: path.join(root, 'dist', 'worker'),
    nodeModules: path.join(root, 'node_modules'),
  };
}

let cached: AppLayout | undefined;

/** This process's layout. */
export function appLayout(): AppLayout {
  cached ??= layoutFor(import.meta.url, typeof PARALLAX_BUNDLED !== 'undefined' && PARALLAX_BUNDLED);
  return cached;
}
