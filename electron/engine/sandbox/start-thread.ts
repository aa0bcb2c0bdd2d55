/**
 * Start a worker thread from a module beside the caller: the built .js file, or under tsx (tests, running
 * from source) the .ts file after registering tsx's hooks in the thread, which does not inherit them. In the
 * bundled worker (dist/worker, build/bundle-worker.mjs) every module is one file, so the thread entries are
 * found by their bundle names beside it instead.
 */
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import { Worker, type WorkerOptions } from 'node:worker_threads';

/** Set to true by the worker bundler; undefined when running from tsc's output or from source. */
declare const PARALLAX_BUNDLED: boolean | undefined;

/** The thread entries: their name beside the caller, and their name in the bundle. */
export type ThreadEntry = 'sandbox-thread' | 'compute-thread';

/** `base` is the caller's import.meta.url; `file` the thread entry's name beside it, without extension. */
export function startThread(base: string, file: string, options: WorkerOptions, bundled: ThreadEntry): Worker {
  if (typeof PARALLAX_BUNDLED !== 'undefined' && PARALLAX_BUNDLED)
    return new Worker(new URL(`./${bundled}.js`, base), options);
  if (!base.endsWith('.ts')) return new Worker(new URL(`./${file}.js`, base), options);
  const tsxApi = new URL('dist/esm/api/index.mjs', pathToFileURL(createRequire(base).resolve('tsx/package.json'))).href;
  const entry = new URL(`./${file}.ts`, base).href;
  const boot = `import(${JSON.stringify(tsxApi)}).then((m) => { m.register(); return import(${JSON.stringify(entry)}); })`;
  return new Worker(boot, { ...options, eval: true });
}
