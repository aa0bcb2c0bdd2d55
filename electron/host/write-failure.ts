/**
 * What the user reads when the history cannot be written: which folder, what the system said, and what to
 * do. A bare "ENOSPC: no space left on device, write" names neither the folder nor a way out.
 */
const CAUSES: Record<string, string> = {
  ENOSPC: 'the disk is full',
  EDQUOT: 'your disk quota is used up',
  EIO: 'the disk reported an input/output error',
  EROFS: 'the disk is read-only',
  EACCES: 'permission was refused',
  EPERM: 'permission was refused',
  EMFILE: 'too many files are open',
};

/** Whether an error is the file system refusing a write (full, quota, I/O, read-only, permission). */
export function isWriteError(error: unknown): boolean {
  const code = (error as NodeJS.ErrnoException | null)?.code;
  return typeof code === 'string' && code in CAUSES;
}

/** The short cause of a write error, e.g. "the disk is full (ENOSPC)". */
export function writeCause(error: unknown): string {
  const code = (error as NodeJS.ErrnoException | null)?.code;
  if (code && CAUSES[code]) return `${CAUSES[code]} (${code})`;
  return error instanceof Error ? error.message : String(error);
}

/** One sentence naming the folder and what to do. */
export function writeFailureMessage(folder: string, error: unknown): string {
  const code = (error as NodeJS.ErrnoException | null)?.code;
  const todo =
    code === 'EACCES' || code === 'EPERM' || code === 'EROFS'
      ? 'make that folder writable, or set PARALLAX_DATA_DIR to a folder you can write'
      : code === 'EIO'
        ? 'check that disk, or set PARALLAX_DATA_DIR to a folder on another disk'
        : 'free space on that disk, or set PARALLAX_DATA_DIR to a folder on a disk with room';
  return `Could not write the history in ${folder}: ${writeCause(error)}. To record comparisons, ${todo}, then run it again.`;
}
