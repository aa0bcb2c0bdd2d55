/**
 * How a validator reads what a run left in its workspace. The run (a model's commands, an agent) made those
 * files, so they are untrusted: a FIFO would block the read forever, a link could point at /dev/zero or any
 * file of the user, a huge file would fill memory. Validators read regular files only, reached through no link,
 * opened without blocking or following one, and at most JUDGED_FILE_BYTES of them; anything else is a
 * JudgedFileError whose message says what the entry is, and the validation fails with it.
 */
import { constants, promises as fs, type Stats } from 'node:fs';
import path from 'node:path';
import { kindOf } from '../engine/tools/safe-file.js';
import { O } from '../engine/tools/workspace.js';

/** The most a validator reads of one file: far more than any task's files, far less than memory. */
export const JUDGED_FILE_BYTES = 4 * 1024 * 1024;

export class JudgedFileError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'JudgedFileError';
  }
}

const notRegular = (rel: string, stat: Stats) =>
  new JudgedFileError(
    `${rel} is a ${kindOf(stat)}, not a regular file: the validator reads regular files only, so the answer cannot be checked against it`,
  );

/**
 * The text of `rel` (a path with `/` inside the workspace). Missing: the ENOENT error as fs gives it, so
 * callers keep their own "the run wrote no …" message.
 */
export async function readJudgedFile(workspace: string, rel: string, maxBytes = JUDGED_FILE_BYTES): Promise<string> {
  const parts = rel.split('/').filter(Boolean);
  let at = workspace;
  for (const [i, part] of parts.entries()) {
    at = path.join(at, part);
    const stat = await fs.lstat(at);
    const last = i === parts.length - 1;
    if (stat.isSymbolicLink() || (last ? !stat.isFile() : !stat.isDirectory())) {
      const shown = parts.slice(0, i + 1).join('/');
      if (last) throw notRegular(shown, stat);
      throw new JudgedFileError(
        `${shown} is a ${kindOf(stat)}, not a folder: the validator follows no link, so ${rel} cannot be checked`,
      );
    }
  }
  // O_NONBLOCK and O_NOFOLLOW: an entry swapped for a FIFO or a link since the check neither blocks nor is followed.
  const handle = await fs.open(at, constants.O_RDONLY | O.NOFOLLOW | O.NONBLOCK | O.NOCTTY);
  try {
    const stat = await handle.stat();
    if (!stat.isFile()) throw notRegular(rel, stat);
    if (stat.size > maxBytes)
      throw new JudgedFileError(
        `${rel} holds ${stat.size} bytes, more than the validator reads (${maxBytes} bytes), so the answer cannot be checked against it`,
      );
    const buffer = Buffer.alloc(Math.min(stat.size, maxBytes) + 1);
    let filled = 0;
    while (filled < buffer.length) {
      const { bytesRead } = await handle.read(buffer, filled, buffer.length - filled, filled);
      if (bytesRead === 0) break;
      filled += bytesRead;
    }
    if (filled > maxBytes)
      throw new JudgedFileError(
        `${rel} grew past ${maxBytes} bytes while the validator read it, so the answer cannot be checked against it`,
      );
    return buffer.subarray(0, filled).toString('utf8');
  } finally {
    await handle.close();
  }
}

/** The entries of a folder in the workspace, reached through no link (its files are then read one by one). */
export async function listJudgedFolder(workspace: string, rel: string): Promise<import('node:fs').Dirent[]> {
  const at = rel ? path.join(workspace, rel) : workspace;
  if (rel) {
    const stat = await fs.lstat(at);
    if (!stat.isDirectory())
      throw new JudgedFileError(
        `${rel} is a ${kindOf(stat)}, not a folder: the validator reads no folder through a link`,
      );
  }
  return fs.readdir(at, { withFileTypes: true });
}

/** The validation's detail for a JudgedFileError; null for any other error. */
export function judgedFileDetail(error: unknown): string | null {
  return error instanceof JudgedFileError ? `${error.message}.` : null;
}
