/**
 * Where Pyodide's files are: beside its package, found from here so the bundled child finds them too. Apart
 * from py-runtime.ts (the child's side, which loads Pyodide): the launcher needs the folder, not Pyodide, and
 * every run's engine loads the launcher before its first request.
 */
import { createRequire } from 'node:module';
import path from 'node:path';

export function pyodideDir(): string {
  // In the desktop app the package is unpacked beside app.asar (electron-builder.yml, asarUnpack).
  return path
    .dirname(createRequire(import.meta.url).resolve('pyodide/package.json'))
    .replace(/([\\/])app\.asar([\\/])/, '$1app.asar.unpacked$2');
}
