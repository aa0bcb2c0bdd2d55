/**
 * Confinement for the file tools. Every path the model gives is resolved against the run's workspace and
 * refused when it is absolute, climbs out with `..`, or goes through a symbolic link (the file itself or
 * any parent folder) whose real target lies outside. Paths that do not exist yet (write_file) are checked
 * through their nearest existing ancestor, and dangling links are followed to where they would write.
 */
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { ToolError } from './tool.js';

/** Most link hops followed before giving up (the same bound the OS uses for ELOOP). */
const MAX_LINK_HOPS = 40;
/** Root entries named in error messages; enough to orient the model without flooding it. */
const ROOT_SAMPLE = 20;

export type PathUse = 'read' | 'write' | 'list';

/**
 * Resolve `userPath` inside `workspace` and return the real absolute path to operate on. The target need
 * not exist (the caller reports that); it is only guaranteed to lie inside the workspace's real path.
 */
export async function resolveInWorkspace(workspace: string, userPath: string, use: PathUse): Promise<string> {
  const root = await fs.realpath(workspace);
  const given = userPath.trim() === '' && use === 'list' ? '.' : userPath;
  if (given.trim() === '') {
    throw new ToolError(`The path is empty. Give a path relative to the workspace, e.g. "notes.txt". ${await describeRoot(root)}`);
  }
  if (given.includes('\0')) {
    throw new ToolError(`The path ${JSON.stringify(given)} contains a NUL character. Give a plain relative path.`);
  }
  if (path.isAbsolute(given) || /^([a-zA-Z]:|[\\/])/.test(given)) {
    throw new ToolError(
      `The path ${JSON.stringify(given)} is absolute. Paths must be relative to the workspace ` +
        `(e.g. "notes.txt" or "logs/app.txt"). ${await describeRoot(root)}`,
    );
  }
  const lexical = path.resolve(root, given);
  if (!isInside(root, lexical)) {
    throw new ToolError(
      `The path ${JSON.stringify(given)} leads outside the workspace. Paths must be relative to the workspace ` +
        `and stay inside it. ${await describeRoot(root)}`,
    );
  }
  const real = await realpathLoose(lexical);
  if (!isInside(root, real)) {
    throw new ToolError(
      `The path ${JSON.stringify(given)} goes through a symbolic link that points outside the workspace, ` +
        `so it cannot be ${use === 'write' ? 'written' : 'read'}. Use paths relative to the workspace that stay ` +
        `inside it. ${await describeRoot(root)}`,
    );
  }
  return real;
}

/** The real path of `target`, following every link, even when the target (or a link's target) is missing. */
async function realpathLoose(target: string): Promise<string> {
  let current = target;
  for (let hops = 0; hops <= MAX_LINK_HOPS; hops++) {
    try {
      return await fs.realpath(current);
    } catch (error) {
      if (!isMissing(error)) throw error;
    }
    const stat = await fs.lstat(current).catch((error: unknown) => {
      if (isMissing(error)) return null;
      throw error;
    });
    if (stat?.isSymbolicLink()) {
      // A dangling link: writing through it would create its target, so that target is what counts.
      const link = await fs.readlink(current);
      const dir = await realpathLoose(path.dirname(current));
      current = path.resolve(dir, link);
      continue;
    }
    if (stat) return current; // exists but vanished or changed under us; the caller's fs call decides
    const parent = path.dirname(current);
    if (parent === current) return current;
    return path.join(await realpathLoose(parent), path.basename(current));
  }
  throw new ToolError(`Too many levels of symbolic links while resolving ${JSON.stringify(target)}.`);
}

function isInside(root: string, candidate: string): boolean {
  const rel = path.relative(root, candidate);
  return rel === '' || (!rel.startsWith('..') && !path.isAbsolute(rel));
}

function isMissing(error: unknown): boolean {
  const code = (error as NodeJS.ErrnoException | null)?.code;
  return code === 'ENOENT' || code === 'ENOTDIR';
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

/** Entry names of a directory, sorted, folders (also through links) marked with a trailing '/'. */
export async function listNames(dir: string): Promise<string[]> {
  const entries = await fs.readdir(dir, { withFileTypes: true });
  const names = await Promise.all(
    entries.map(async (entry) => {
      let isDir = entry.isDirectory();
      if (entry.isSymbolicLink()) isDir = await fs.stat(path.join(dir, entry.name)).then((s) => s.isDirectory(), () => false);
      return isDir ? `${entry.name}/` : entry.name;
    }),
  );
  return names.sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
}

/** The message for a path that does not exist, with a hint of what does. */
export async function notFoundMessage(workspace: string, userPath: string, what = 'file or folder'): Promise<string> {
  return `No ${what} at ${JSON.stringify(userPath)} in the workspace. ${await describeRoot(workspace)}`;
}
