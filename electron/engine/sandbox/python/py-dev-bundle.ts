/**
 * Run from source (tsx, vitest), the Pyodide child cannot load through tsx: tsx compiles with esbuild, which
 * starts a process, and the child runs under Node's permission model with no child processes (py-launch.ts).
 * So the host bundles py-child-main.ts once per process into a private temp folder, Pyodide left outside the
 * bundle and found through a link to the installed package beside it. The desktop app and the CLI's dist
 * never come here: they ship the child bundled (build/bundle-worker.mjs). The build's boot snapshot, when
 * dist/worker has one for the installed Pyodide, is linked beside the child, which restores it as the built one does.
 */
import {
  copyFileSync,
  existsSync,
  linkSync,
  mkdirSync,
  mkdtempSync,
  realpathSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { bootSnapshotName } from './py-snapshot-name.js';

let bundled: string | undefined;

/** The child's entry bundled from source: a file in a folder of its own (package.json, node_modules/pyodide). */
export function devChildBundle(): string {
  if (bundled) return bundled;
  const require = createRequire(import.meta.url);
  // esbuild is a development dependency: present wherever the sources run.
  const esbuild = require('esbuild') as typeof import('esbuild');
  const dir = realpathSync(mkdtempSync(path.join(tmpdir(), 'parallax-py-child-')));
  const file = path.join(dir, 'python-child.js');
  esbuild.buildSync({
    entryPoints: [fileURLToPath(new URL('./py-child-main.ts', import.meta.url))],
    outfile: file,
    bundle: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    external: ['pyodide'],
    logLevel: 'silent',
  });
  writeFileSync(path.join(dir, 'package.json'), '{"type":"module"}\n');
  mkdirSync(path.join(dir, 'node_modules'));
  symlinkSync(
    path.dirname(require.resolve('pyodide/package.json')),
    path.join(dir, 'node_modules', 'pyodide'),
    'junction',
  );
  const pyodideVersion = (require('pyodide/package.json') as { version: string }).version;
  const snapshot = fileURLToPath(
    new URL(`../../../../dist/worker/${bootSnapshotName(pyodideVersion)}`, import.meta.url),
  );
  if (existsSync(snapshot)) {
    const target = path.join(dir, bootSnapshotName(pyodideVersion));
    try {
      linkSync(snapshot, target);
    } catch {
      copyFileSync(snapshot, target); // another file system
    }
  }
  process.once('exit', () => rmSync(dir, { recursive: true, force: true }));
  bundled = file;
  return file;
}
