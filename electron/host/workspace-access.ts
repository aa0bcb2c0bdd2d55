/**
 * Which folders the page may name as a comparison's workspace (the folder is copied for every run). The page
 * is not trusted with paths:
 * - desktop app: only a folder the user picked in the app's own folder dialog, named by the handle the dialog
 *   issued (`choose`);
 * - web host: only folders inside those the user allowed when starting it (`parallax serve --allow-dir DIR`),
 *   checked after every link in the path is resolved;
 * - CLI: the user's own `--workspace` argument, as given.
 */
import { randomBytes } from 'node:crypto';
import { realpath, stat } from 'node:fs/promises';
import { isAbsolute, relative, resolve, sep } from 'node:path';
import type { ChosenFolder, WorkspaceFolders } from '../../shared/ipc-contract.js';

export interface WorkspaceAccess {
  /** What the composer offers (shown in app:info). */
  readonly info: WorkspaceFolders;
  /** The real folder that `requested` (a path or a dialog handle) names, or a clear Error saying how to choose one. */
  resolve(requested: string): Promise<string>;
  /** The desktop's folder dialog: the folder and the handle that names it; null when the user cancelled. */
  choose?(): Promise<ChosenFolder | null>;
}

async function existingFolder(path: string): Promise<string> {
  const info = await stat(path).catch(() => null);
  if (!info?.isDirectory())
    throw new Error(`The workspace folder ${path} does not exist or is not a folder. Choose an existing folder.`);
  return realpath(path);
}

const inside = (child: string, parent: string): boolean => {
  const rel = relative(parent, child);
  return rel === '' || (!rel.startsWith(`..${sep}`) && rel !== '..' && !isAbsolute(rel));
};

/** The CLI: the folder the user passed. */
export function anyFolder(): WorkspaceAccess {
  return {
    info: { picker: 'any', allowedDirs: [] },
    resolve: (requested) => existingFolder(resolve(requested)),
  };
}

/** The web host: folders inside `dirs` only (each resolved to its real path when the host starts). */
export async function allowedFolders(dirs: readonly string[]): Promise<WorkspaceAccess> {
  const roots: string[] = [];
  for (const dir of dirs) {
    const info = await stat(dir).catch(() => null);
    if (!info?.isDirectory()) throw new Error(`--allow-dir ${dir}: no such folder. Give a folder that exists.`);
    roots.push(await realpath(dir));
  }
  const how = 'Start `parallax serve` with --allow-dir <folder> to let the page use folders inside it.';
  return {
    info: { picker: 'typed', allowedDirs: roots },
    async resolve(requested) {
      if (roots.length === 0) throw new Error(`This web host allows no workspace folders. ${how}`);
      if (!isAbsolute(requested))
        throw new Error(`Give the workspace folder as a full path inside ${roots.join(' or ')}.`);
      const real = await existingFolder(requested);
      if (!roots.some((root) => inside(real, root))) {
        throw new Error(`${requested} is not inside a folder this web host allows (${roots.join(', ')}). ${how}`);
      }
      return real;
    },
  };
}

/** The desktop app: folders the user picked in the app's folder dialog, named by the handles it issued. */
export function dialogFolders(showDialog: () => Promise<string | null>): WorkspaceAccess {
  const picked = new Map<string, string>();
  return {
    info: { picker: 'dialog', allowedDirs: [] },
    async choose() {
      const path = await showDialog();
      if (!path) return null;
      const real = await existingFolder(path);
      const handle = `folder-${randomBytes(16).toString('hex')}`;
      picked.set(handle, real);
      return { handle, path: real };
    },
    async resolve(requested) {
      const path = picked.get(requested);
      if (!path)
        throw new Error(
          'Choose the workspace folder with the Choose folder… button; the app only uses folders picked there.',
        );
      return existingFolder(path);
    },
  };
}
