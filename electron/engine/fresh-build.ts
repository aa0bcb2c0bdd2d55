/**
 * Run from the sources (tests, development), whether the repository's build is newer than every file it was
 * made from. Then a worker can be forked from the build's bundle instead of from the sources under tsx,
 * which transforms a few hundred modules at each start: about twice the CPU of a simulated run. The bundle
 * is remade whole by every `npm run build:node` (build/bundle-worker.mjs), so its entry's time is the
 * build's. PARALLAX_FROM_SOURCE=1 keeps the sources (as for bin/parallax.js).
 */
import { readdirSync, statSync } from 'node:fs';
import path from 'node:path';

/** What the build reads: a change to any of these after it makes the build stale. */
const INPUTS = ['electron', 'shared', 'build', 'package-lock.json', 'tsconfig.base.json', 'tsconfig.build.json'];

function newestChange(file: string): number {
  let stat;
  try {
    stat = statSync(file);
  } catch {
    return 0;
  }
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = stat.mtimeMs;
  for (const entry of readdirSync(file)) newest = Math.max(newest, newestChange(path.join(file, entry)));
  return newest;
}

/** Whether `built` (a file the build writes last) is newer than every input of the build under `root`. */
export function freshBuild(root: string, built: string, env: NodeJS.ProcessEnv = process.env): boolean {
  if (env.PARALLAX_FROM_SOURCE) return false;
  let stamp: number;
  try {
    stamp = statSync(built).mtimeMs;
  } catch {
    return false;
  }
  return INPUTS.every((input) => newestChange(path.join(root, input)) < stamp);
}
