/**
 * Start a worker thread from a module beside the caller: the built .js file, or under tsx (tests, running
 * from source) the .ts file after registering tsx's hooks in the thread, which does not inherit them.
 */
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import { Worker, type WorkerOptions } from 'node:worker_threads';

/** `base` is the caller's import.meta.url; `file` the thread entry's name without extension. */
export function startThread(base: string, file: string, options: WorkerOptions): Worker {
  if (!base.endsWith('.ts')) return new Worker(new URL(`./${file}.js`, base), options);
  const tsxApi = new URL('dist/esm/api/index.mjs', pathToFileURL(createRequire(base).resolve('tsx/package.json'))).href;
  const entry = new URL(`./${file}.ts`, base).href;
  const boot = `import(${JSON.stringify(tsxApi)}).then((m) => { m.register(); return import(${JSON.stringify(entry)}); })`;
  return new Worker(boot, { ...options, eval: true });
}
