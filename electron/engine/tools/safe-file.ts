/**
 * Opening the last component of a walked path (workspace.ts) so that what is read or written is exactly the
 * file that was checked: anything but a regular file (a FIFO, a socket, a device) is refused before it is
 * opened; the open never follows a link (O_NOFOLLOW) and never blocks (O_NONBLOCK, so a FIFO swapped in at the
 * last moment cannot hang the run); the opened file's device and inode must match the entry checked, and it
 * must have no other hard link (one could be a name for a file outside the workspace).
 */
import { constants, promises as fs, type Stats } from 'node:fs';
import { ToolError } from './tool.js';
import { O, type Walked } from './workspace.js';

/** What kind of entry a stat describes, for messages. */
export function kindOf(stat: Stats): string {
  if (stat.isFile()) return 'file';
  if (stat.isDirectory()) return 'folder';
  if (stat.isSymbolicLink()) return 'symbolic link';
  if (stat.isFIFO()) return 'named pipe (FIFO)';
  if (stat.isSocket()) return 'socket';
  if (stat.isCharacterDevice() || stat.isBlockDevice()) return 'device';
  return 'special file';
}

function notRegular(userPath: string, stat: Stats): ToolError {
  return new ToolError(
    `${JSON.stringify(userPath)} is a ${kindOf(stat)}, not a regular file, so it is not opened. File tools read and write regular files only.`,
  );
}

function hardLinked(userPath: string, links: number): ToolError {
  return new ToolError(
    `${JSON.stringify(userPath)} has ${links} hard links (other names for the same file, possibly outside the workspace), ` +
      'so file tools refuse it. Copy it to a new file (e.g. with run_shell: cp) and use the copy.',
  );
}

function changed(userPath: string): ToolError {
  return new ToolError(`${JSON.stringify(userPath)} changed while it was being opened (it was replaced). Try again.`);
}

/** Open the walked entry for reading; the caller closes the handle. */
export async function openForRead(walked: Walked, userPath: string): Promise<{ handle: fs.FileHandle; stat: Stats }> {
  const checked = walked.stat;
  if (!checked) throw new Error('openForRead needs an existing entry');
  if (!checked.isFile()) throw notRegular(userPath, checked);
  const handle = await fs
    .open(walked.dir.at(walked.name), constants.O_RDONLY | O.NOFOLLOW | O.NONBLOCK | O.NOCTTY)
    .catch((error: unknown) => {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'ELOOP' || code === 'ENOENT' || code === 'ENXIO') throw changed(userPath);
      throw error;
    });
  try {
    const stat = await verify(handle, checked, userPath);
    return { handle, stat };
  } catch (error) {
    await handle.close();
    throw error;
  }
}

/**
 * Open (creating it when missing) the walked entry for writing, without truncating: the checks run first, then
 * the caller truncates. The caller closes the handle.
 */
export async function openForWrite(walked: Walked, userPath: string): Promise<fs.FileHandle> {
  const checked = walked.stat;
  if (checked && !checked.isFile()) {
    if (checked.isDirectory()) {
      throw new ToolError(
        `${JSON.stringify(userPath)} is a folder. Give a file path inside it, e.g. "${userPath.replace(/\/+$/, '')}/file.txt".`,
      );
    }
    throw notRegular(userPath, checked);
  }
  const flags =
    constants.O_WRONLY | constants.O_CREAT | O.NOFOLLOW | O.NONBLOCK | O.NOCTTY | (checked ? 0 : constants.O_EXCL);
  const handle = await fs.open(walked.dir.at(walked.name), flags, 0o666).catch((error: unknown) => {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ELOOP' || code === 'EEXIST' || code === 'ENOENT' || code === 'ENXIO' || code === 'EISDIR')
      throw changed(userPath);
    throw error;
  });
  try {
    if (checked) await verify(handle, checked, userPath);
    else {
      const stat = await handle.stat();
      if (!stat.isFile()) throw notRegular(userPath, stat);
      if (stat.nlink > 1) throw hardLinked(userPath, stat.nlink);
    }
    return handle;
  } catch (error) {
    await handle.close();
    throw error;
  }
}

/** The opened file is the regular, singly linked file that was checked. */
async function verify(handle: fs.FileHandle, checked: Stats, userPath: string): Promise<Stats> {
  const stat = await handle.stat();
  if (!stat.isFile()) throw notRegular(userPath, stat);
  if (stat.ino !== checked.ino || stat.dev !== checked.dev) throw changed(userPath);
  if (stat.nlink > 1) throw hardLinked(userPath, stat.nlink);
  return stat;
}

/** Read at most `max + 1` bytes, so a file growing while it is read cannot exceed the limit unnoticed. */
export async function readUpTo(handle: fs.FileHandle, max: number, signal?: AbortSignal): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let total = 0;
  while (total <= max) {
    signal?.throwIfAborted();
    const buffer = Buffer.allocUnsafe(Math.min(64 * 1024, max + 1 - total));
    const { bytesRead } = await handle.read(buffer, 0, buffer.length, null);
    if (bytesRead === 0) break;
    chunks.push(buffer.subarray(0, bytesRead));
    total += bytesRead;
  }
  return Buffer.concat(chunks, total);
}
