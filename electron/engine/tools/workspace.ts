/**
 * Confinement for the file tools. A path the model gives is refused when it is absolute, climbs out with a
 * `..` component or goes through a symbolic link whose target lies outside the workspace. It is then walked
 * one component at a time from an open handle on the workspace, never by a path string the kernel resolves
 * as a whole: each folder is opened with O_NOFOLLOW relative to the folder opened before it (an openat-style
 * walk through /proc/self/fd on Linux), so swapping a folder for a symbolic link between the check and the
 * open cannot redirect it. A link met on the way is read and followed by hand, only when it stays inside.
 * Where folders cannot be walked by handle (macOS, Windows) each folder is checked by path just before it is
 * used, which leaves a swap race open there. See safe-file.ts for how the last component is opened and checked.
 */
import { constants, promises as fs, type Stats } from 'node:fs';
import path from 'node:path';
import { ToolError } from './tool.js';

/** Most link hops followed before giving up (the same bound the OS uses for ELOOP). */
const MAX_LINK_HOPS = 40;
/** Root entries named in error messages; enough to orient the model without flooding it. */
const ROOT_SAMPLE = 20;

export type PathUse = 'read' | 'write' | 'list';

/** Flags missing on a platform (O_NOFOLLOW, O_DIRECTORY on Windows) count as 0. */
export const O = {
  NOFOLLOW: constants.O_NOFOLLOW ?? 0,
  DIRECTORY: constants.O_DIRECTORY ?? 0,
  NONBLOCK: constants.O_NONBLOCK ?? 0,
  NOCTTY: constants.O_NOCTTY ?? 0,
};

let procFd: Promise<boolean> | undefined;
/** Whether `/proc/self/fd/N/name` resolves relative to an open folder (Linux): the walk is then race-free. */
export function hasProcFd(): Promise<boolean> {
  procFd ??= (async () => {
    if (process.platform !== 'linux') return false;
    const dir = await fs.open('/', constants.O_RDONLY | O.DIRECTORY).catch(() => null);
    if (!dir) return false;
    try {
      return (await fs.lstat(`/proc/self/fd/${dir.fd}/.`).catch(() => null))?.isDirectory() === true;
    } finally {
      await dir.close();
    }
  })();
  return procFd;
}

/** Walk by path strings even on Linux: how macOS and Windows walk, so tests here can cover that code too. */
export function usePathWalk(on: boolean): void {
  procFd = on ? Promise.resolve(false) : undefined;
}

/** An open folder inside the workspace, with its components from the root. */
export interface OpenDir {
  /** The folder's stat, from its open handle where there is one. */
  stat(): Promise<Stats>;
  /** The workspace's real path. */
  readonly root: string;
  readonly rel: readonly string[];
  /** Path of `name` inside this folder for fs calls: through the open handle when the platform allows. */
  at(name: string): string;
  /** Open the subfolder `name` without following a link. */
  openChild(name: string): Promise<OpenDir>;
  close(): Promise<void>;
}

/** Where a path ends: the open folder holding it, the entry's name ('' for the root) and its lstat, if any. */
export interface Walked {
  readonly dir: OpenDir;
  readonly name: string;
  readonly stat: Stats | null;
  /** The entry's real absolute path (for messages and for tools that run outside this process). */
  readonly real: string;
  /** Components after `name` that were not walked because `name` is missing (read and list only). */
  readonly rest: readonly string[];
}

/** Separators in a path the model gives: '/' everywhere, '\\' too on Windows (a valid name character elsewhere). */
const SEPARATORS = path.sep === '\\' ? /[\\/]+/ : /\/+/;

/** The workspace's real path and the lexically cleaned relative path, or a ToolError written for the model. */
export async function checkPath(
  workspace: string,
  userPath: string,
  use: PathUse,
  quiet = false,
): Promise<{ root: string; rel: string[] }> {
  const root = await fs.realpath(workspace);
  const where = (dir: string): Promise<string> => (quiet ? Promise.resolve('') : describeRoot(dir));
  const given = userPath.trim() === '' && use === 'list' ? '.' : userPath;
  if (given.trim() === '') {
    throw new ToolError(
      `The path is empty. Give a path relative to the workspace, e.g. "notes.txt". ${await where(root)}`,
    );
  }
  if (given.includes('\0')) {
    throw new ToolError(`The path ${JSON.stringify(given)} contains a NUL character. Give a plain relative path.`);
  }
  if (path.isAbsolute(given) || /^([a-zA-Z]:|[\\/])/.test(given)) {
    throw new ToolError(
      `The path ${JSON.stringify(given)} is absolute. Paths must be relative to the workspace ` +
        `(e.g. "notes.txt" or "logs/app.txt"). ${await where(root)}`,
    );
  }
  const rel = normalize(given.split(SEPARATORS));
  if (rel === null) {
    throw new ToolError(
      `The path ${JSON.stringify(given)} leads outside the workspace. Paths must be relative to the workspace ` +
        `and stay inside it. ${await where(root)}`,
    );
  }
  return { root, rel };
}

/** Drop `.` and empty parts, apply `..`; null when a `..` climbs above the start. Names like `..notes` are names. */
function normalize(parts: readonly string[]): string[] | null {
  const out: string[] = [];
  for (const part of parts) {
    if (part === '' || part === '.') continue;
    if (part === '..') {
      if (out.length === 0) return null;
      out.pop();
    } else out.push(part);
  }
  return out;
}

function linkOutside(userPath: string, use: PathUse, root: string, quiet: boolean): Promise<ToolError> {
  return (quiet ? Promise.resolve('') : describeRoot(root)).then(
    (where) =>
      new ToolError(
        `The path ${JSON.stringify(userPath)} goes through a symbolic link that points outside the workspace, ` +
          `so it cannot be ${use === 'write' ? 'written' : 'read'}. Use paths relative to the workspace that stay ` +
          `inside it. ${where}`,
      ),
  );
}

async function openDir(
  root: string,
  rel: readonly string[],
  parent: OpenDir | null,
  name: string,
  viaProc: boolean,
): Promise<OpenDir> {
  const real = path.join(root, ...rel);
  if (!viaProc) {
    // Without /proc (macOS, Windows, where folders cannot always be opened either) the kernel resolves whole
    // path strings: each folder is checked to be a real folder, not a link, just before it is used. A swap
    // between that check and the use remains possible there.
    const named = await fs.lstat(real).catch(() => null);
    if (!named || named.isSymbolicLink() || !named.isDirectory()) {
      const error = new Error(`not a folder: ${real}`) as NodeJS.ErrnoException;
      error.code = named?.isSymbolicLink() ? 'ELOOP' : named ? 'ENOTDIR' : 'ENOENT';
      throw error;
    }
    const dir: OpenDir = {
      stat: () => fs.stat(real),
      root,
      rel,
      at: (entry) => path.join(real, entry),
      openChild: (child) => openDir(root, [...rel, child], dir, child, viaProc),
      close: async () => undefined,
    };
    return dir;
  }
  const handle = await fs.open(
    parent ? parent.at(name) : root,
    constants.O_RDONLY | O.DIRECTORY | (parent ? O.NOFOLLOW : 0),
  );
  const dir: OpenDir = {
    stat: () => handle.stat(),
    root,
    rel,
    at: (entry) => `/proc/self/fd/${handle.fd}/${entry}`,
    openChild: (child) => openDir(root, [...rel, child], dir, child, viaProc),
    close: () => handle.close().catch(() => undefined),
  };
  return dir;
}

/**
 * Walk `userPath` inside `workspace`. Missing folders are created for 'write'; a missing folder for 'read' or
 * 'list' ends the walk with `stat: null`. The caller owns (and must close) the returned folder.
 */
export async function walkInWorkspace(workspace: string, userPath: string, use: PathUse): Promise<Walked> {
  return walk(workspace, userPath, use, false);
}

/** `quiet`: errors carry no description of the workspace (listing it walks links, which would recurse). */
async function walk(workspace: string, userPath: string, use: PathUse, quiet: boolean): Promise<Walked> {
  const { root, rel: start } = await checkPath(workspace, userPath, use, quiet);
  const viaProc = await hasProcFd();
  let pending = start;
  for (let hops = 0; hops <= MAX_LINK_HOPS; hops++) {
    let dir = await openDir(root, [], null, '', viaProc);
    let handed = false;
    const handOver = (walked: Walked): Walked => {
      handed = true;
      return walked;
    };
    let restart: string[] | null = null;
    try {
      for (let i = 0; i < pending.length; i++) {
        const name = pending[i];
        const stat = await fs.lstat(dir.at(name)).catch((error: unknown) => {
          if (isMissing(error)) return null;
          throw error;
        });
        if (stat?.isSymbolicLink()) {
          restart = await followLink(dir, name, pending.slice(i + 1), root);
          if (restart === null) throw await linkOutside(userPath, use, root, quiet);
          break;
        }
        if (i === pending.length - 1)
          return handOver({ dir, name, stat, real: path.join(root, ...dir.rel, name), rest: [] });
        if (!stat) {
          if (use !== 'write') return handOver(missing(dir, name, root, pending.slice(i + 1)));
          await fs.mkdir(dir.at(name)).catch((error: unknown) => {
            if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
          });
        } else if (!stat.isDirectory()) {
          if (use === 'write') {
            throw new ToolError(
              `Cannot create the folders for ${JSON.stringify(userPath)}: part of that path is an existing file.`,
            );
          }
          return handOver(missing(dir, name, root, pending.slice(i + 1)));
        }
        const parent = dir;
        const next = await openDir(root, [...parent.rel, name], parent, name, viaProc).catch((error: unknown) => {
          const code = (error as NodeJS.ErrnoException).code;
          if (code === 'ELOOP' || code === 'ENOTDIR' || code === 'ENOENT') {
            throw new ToolError(
              `The folder ${JSON.stringify([...parent.rel, name].join('/'))} changed while it was being opened. Try again.`,
            );
          }
          throw error;
        });
        await parent.close();
        dir = next;
      }
      // No components left: the path is the workspace root itself.
      if (restart === null) return handOver({ dir, name: '', stat: await dir.stat(), real: root, rest: [] });
    } finally {
      if (!handed) await dir.close();
    }
    pending = restart;
  }
  throw new ToolError(`Too many levels of symbolic links while resolving ${JSON.stringify(userPath)} (ELOOP).`);
}

/** The walk ended at a missing entry: hand back the folder with `stat: null` so the caller reports it. */
function missing(dir: OpenDir, name: string, root: string, rest: readonly string[]): Walked {
  return { dir, name, stat: null, real: path.join(root, ...dir.rel, name), rest };
}

/**
 * The components to walk instead, after the link `name` in `dir` (followed by `rest`); null when the link
 * points outside the workspace.
 */
async function followLink(dir: OpenDir, name: string, rest: readonly string[], root: string): Promise<string[] | null> {
  const target = await fs.readlink(dir.at(name));
  let parts: string[] | null;
  if (path.isAbsolute(target)) {
    const rel = path.relative(root, target);
    if (rel === '..' || rel.startsWith(`..${path.sep}`) || path.isAbsolute(rel)) return null;
    parts = normalize(rel.split(path.sep));
  } else {
    parts = normalize([...dir.rel, ...target.split(SEPARATORS)]);
  }
  return parts === null ? null : [...parts, ...rest];
}

function isMissing(error: unknown): boolean {
  const code = (error as NodeJS.ErrnoException | null)?.code;
  return code === 'ENOENT' || code === 'ENOTDIR';
}

/**
 * Resolve `userPath` inside `workspace` and return its real absolute path (which need not exist yet). Only for
 * display and for tools that run elsewhere: the file tools operate through `walkInWorkspace`'s open folder.
 */
export async function resolveInWorkspace(workspace: string, userPath: string, use: PathUse): Promise<string> {
  // Walked as a read, so nothing is created: a missing folder ends the walk and the rest is appended.
  const walked = await walkInWorkspace(workspace, userPath, use === 'write' ? 'read' : use);
  await walked.dir.close();
  return path.join(walked.real, ...walked.rest);
}

/** One sentence naming what the workspace root holds, for error messages. */
export async function describeRoot(workspace: string): Promise<string> {
  let names: string[];
  try {
    names = await listNames(workspace);
  } catch {
    return 'Call list_dir(".") to see what the workspace contains.';
  }
  if (names.length === 0) return 'The workspace root is empty.';
  const shown = names.slice(0, ROOT_SAMPLE).join(', ');
  const more = names.length > ROOT_SAMPLE ? ` and ${names.length - ROOT_SAMPLE} more (call list_dir(".") for all)` : '';
  return `The workspace root contains: ${shown}${more}.`;
}

/**
 * Entry names of a folder, sorted, folders marked with a trailing '/'. A symbolic link is marked as a folder
 * only when it leads to a folder inside `root` (so a listing says nothing about what lies outside).
 */
export async function listNames(dir: string, root: string = dir, rel: readonly string[] = []): Promise<string[]> {
  const entries = await fs.readdir(dir, { withFileTypes: true });
  const names = await Promise.all(
    entries.map(async (entry) => {
      let isDir = entry.isDirectory();
      if (entry.isSymbolicLink()) isDir = await linkIsFolderInside(root, [...rel, entry.name]);
      return isDir ? `${entry.name}/` : entry.name;
    }),
  );
  return names.sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
}

async function linkIsFolderInside(root: string, rel: readonly string[]): Promise<boolean> {
  try {
    const walked = await walk(root, rel.join('/'), 'list', true);
    await walked.dir.close();
    return walked.stat?.isDirectory() === true;
  } catch {
    return false;
  }
}

/** The message for a path that does not exist, with a hint of what does. */
export async function notFoundMessage(workspace: string, userPath: string, what = 'file or folder'): Promise<string> {
  return `No ${what} at ${JSON.stringify(userPath)} in the workspace. ${await describeRoot(workspace)}`;
}
