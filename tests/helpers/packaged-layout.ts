/**
 * The desktop app's layout, made as electron-builder makes it but without the Electron binary: the files
 * electron-builder.yml names, plus the production dependencies (package-lock.json entries not marked dev),
 * packed into resources/app.asar with @electron/asar, the asarUnpack globs copied beside it into
 * resources/app.asar.unpacked. The globs are read through electron-builder's own config loader, so this and
 * `npm run dist` read one file. Plain Node cannot read inside app.asar: whatever runs from this layout under
 * plain Node reads only unpacked files, as a thread, a child process or bubblewrap must.
 */
import { copyFile, link, mkdir, mkdtemp, readdir, readFile, realpath, rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { minimatch } from 'minimatch';

const require = createRequire(import.meta.url);
const { getConfig } = require('app-builder-lib/out/util/config/config.js') as {
  getConfig(dir: string, file: string, extra: null): Promise<Record<string, unknown>>;
};
const asar = require('@electron/asar') as {
  createPackageWithOptions(src: string, dest: string, options: { unpack?: string; dot?: boolean }): Promise<void>;
};

export const repoRoot = fileURLToPath(new URL('../../', import.meta.url));

export interface PackagedLayout {
  /** The folder holding the app (where the Electron binary would be). */
  readonly appDir: string;
  /** appDir/resources: app.asar and app.asar.unpacked. */
  readonly resources: string;
  readonly asar: string;
  readonly unpackedDir: string;
  /** The asarUnpack globs as electron-builder.yml gives them. */
  readonly asarUnpack: readonly string[];
  remove(): Promise<void>;
}

/** The `files` and `asarUnpack` globs from electron-builder.yml, through electron-builder's own loader. */
export async function builderGlobs(): Promise<{ files: string[]; asarUnpack: string[] }> {
  const config = await getConfig(repoRoot, 'electron-builder.yml', null);
  const files = (config.files as { filter: string[] }[]).flatMap((f) => f.filter);
  const unpack = config.asarUnpack;
  return {
    files,
    asarUnpack: Array.isArray(unpack) ? (unpack as string[]) : typeof unpack === 'string' ? [unpack] : [],
  };
}

/** electron-builder's file set: matched by a positive pattern and by no negative one (paths relative, '/'). */
function included(rel: string, patterns: readonly string[]): boolean {
  const positive = patterns.filter((p) => !p.startsWith('!'));
  const negative = patterns.filter((p) => p.startsWith('!')).map((p) => p.slice(1));
  return (
    positive.some((p) => minimatch(rel, p, { dot: true })) && !negative.some((p) => minimatch(rel, p, { dot: true }))
  );
}

/** Files under dir/rel (relative to dir), not descending into nested node_modules. */
async function walk(dir: string, rel = ''): Promise<string[]> {
  const out: string[] = [];
  for (const entry of await readdir(path.join(dir, rel), { withFileTypes: true })) {
    const child = rel ? `${rel}/${entry.name}` : entry.name;
    if (entry.isDirectory() && entry.name !== 'node_modules') out.push(...(await walk(dir, child)));
    else if (entry.isFile()) out.push(child);
  }
  return out;
}

/** Production dependencies: every package-lock.json entry not marked dev (nested ones as their own entries). */
async function productionPackages(): Promise<string[]> {
  const lock = JSON.parse(await readFile(path.join(repoRoot, 'package-lock.json'), 'utf8')) as {
    packages: Record<string, { dev?: boolean; devOptional?: boolean; link?: boolean }>;
  };
  return Object.entries(lock.packages)
    .filter(([key, info]) => key.startsWith('node_modules/') && !info.dev && !info.devOptional && !info.link)
    .map(([key]) => key);
}

/** Build the layout in a fresh temporary folder. Needs `npm run build` first (dist/). */
export async function makePackagedLayout(): Promise<PackagedLayout> {
  const { files, asarUnpack } = await builderGlobs();
  const appDir = await mkdtemp(path.join(tmpdir(), 'parallax-packaged-'));
  const resources = path.join(appDir, 'resources');
  const stage = path.join(appDir, 'stage');
  await mkdir(resources, { recursive: true });

  // The app's own files: the repository's, filtered by `files` (node_modules and .git are never app files).
  const top = (await readdir(repoRoot, { withFileTypes: true })).filter(
    (e) => !['node_modules', '.git'].includes(e.name),
  );
  const candidates: string[] = [];
  for (const entry of top) {
    if (entry.isDirectory()) candidates.push(...(await walk(repoRoot, entry.name)));
    else if (entry.isFile()) candidates.push(entry.name);
  }
  const staged = candidates.filter((f) => included(f, files));
  // Production node_modules, each package without its nested node_modules (those are entries of their own).
  const modules = await realpath(path.join(repoRoot, 'node_modules'));
  for (const pkg of await productionPackages()) {
    for (const rel of await walk(modules, pkg.slice('node_modules/'.length))) staged.push(`node_modules/${rel}`);
  }
  // Hard links where the file system allows (the stage is read, never written), else copies.
  const dirs = new Set(staged.map((rel) => path.dirname(path.join(stage, rel))));
  for (const dir of dirs) await mkdir(dir, { recursive: true });
  for (const rel of staged) {
    const from = rel.startsWith('node_modules/')
      ? path.join(modules, rel.slice('node_modules/'.length))
      : path.join(repoRoot, rel);
    await link(from, path.join(stage, rel)).catch(() => copyFile(from, path.join(stage, rel)));
  }

  // @electron/asar matches `unpack` against absolute file names: anchor each glob at the stage folder.
  const unpack = asarUnpack.length > 0 ? `{${asarUnpack.map((g) => `${stage}/${g}`).join(',')}}` : undefined;
  await asar.createPackageWithOptions(stage, path.join(resources, 'app.asar'), { unpack, dot: true });
  await rm(stage, { recursive: true, force: true });

  return {
    appDir,
    resources,
    asar: path.join(resources, 'app.asar'),
    unpackedDir: path.join(resources, 'app.asar.unpacked'),
    asarUnpack,
    remove: () => rm(appDir, { recursive: true, force: true }),
  };
}
