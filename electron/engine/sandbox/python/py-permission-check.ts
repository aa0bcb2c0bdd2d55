/**
 * The Pyodide child's check, before it loads anything, that Node's permission model holds: no folder above
 * the ones it was allowed to read can be listed. Node 20's permission tree lets some layouts of allowed
 * folders list a folder where their paths branch (`/` itself, with three allowed folders in different
 * top-level folders), so a program that escaped Python would see names outside its walls. Where that
 * happens the child refuses to start, and says why, rather than run with a wall that leaks.
 */
import { readdirSync } from 'node:fs';
import path from 'node:path';

/** The folders the child was allowed to read, from the flags it was started with. */
export function allowedReads(execArgv: readonly string[]): string[] {
  return execArgv.filter((a) => a.startsWith('--allow-fs-read=')).map((a) => a.slice('--allow-fs-read='.length));
}

/** Whether `target` is one of `folders` or inside one of them. */
export function within(target: string, folders: readonly string[]): boolean {
  return folders.some((f) => target === f || target.startsWith(f.endsWith(path.sep) ? f : f + path.sep));
}

/** Every folder above an allowed one, up to the root, that is not itself inside an allowed folder. */
export function foldersAbove(reads: readonly string[]): string[] {
  const inside = (dir: string): boolean => within(dir, reads);
  const above = new Set<string>();
  for (const read of reads) {
    for (let dir = path.dirname(read); ; dir = path.dirname(dir)) {
      if (!inside(dir)) above.add(dir);
      if (path.dirname(dir) === dir) break;
    }
  }
  return [...above].sort();
}

/**
 * Null when every folder above the allowed ones is refused; else what the user is told. A folder that is
 * listed, or that fails for any reason but the permission model's refusal, got past the model.
 */
export function permissionFault(
  execArgv: readonly string[],
  version: string,
  list: (dir: string) => unknown = readdirSync,
): string | null {
  const reads = allowedReads(execArgv);
  if (reads.length === 0) return null;
  const leaked = foldersAbove(reads).filter((dir) => {
    try {
      list(dir);
      return true;
    } catch (error) {
      return (error as NodeJS.ErrnoException).code !== 'ERR_ACCESS_DENIED';
    }
  });
  if (leaked.length === 0) return null;
  return `Node.js ${version}'s permission model let the sandbox list ${leaked.join(', ')}, outside the folders it may read (${reads.join(', ')}): a fault of that Node.js version with this layout of folders, so Code Mode (Python) does not start on it. Run Parallax with another Node.js version, or from another folder, and report the folders named here.`;
}
