/**
 * A comparison's meta.json read back and checked: ids safe as a path segment, the file opened without
 * following it into a FIFO or reading a huge file, its content checked with the one schema
 * (shared/comparison-meta-schema.ts). A meta.json that exists but cannot be used is a DamagedMetaError: the
 * comparison is listed apart as damaged, never hiding the others.
 */
import { constants } from 'node:fs';
import { open, stat, type FileHandle } from 'node:fs/promises';
import { join } from 'node:path';
import { ID_PATTERN } from '../../shared/ids.js';
import type { ComparisonMeta, DamagedComparison } from '../../shared/ipc-contract.js';

/** meta.json is a few KB; anything far larger is not one, and is not read into memory. */
const MAX_META_BYTES = 1024 * 1024;

/** A comparison's meta.json exists but cannot be used: the comparison is listed as damaged. */
export class DamagedMetaError extends Error {
  override readonly name = 'DamagedMetaError';
  constructor(
    readonly id: string,
    readonly reason: string,
  ) {
    super(
      `Comparison ${id} is damaged: its meta.json ${reason}. It cannot be opened; delete it from the history list (or remove its folder).`,
    );
  }
}

/** A comparison folder without meta.json: deleted, or still being set up. */
export class MissingMetaError extends Error {}

export function checkId(id: string, what: string): string {
  if (typeof id !== 'string' || !ID_PATTERN.test(id)) {
    throw new Error(
      `"${String(id)}" is not a valid ${what} id (letters, digits, '-' and '_' only). Pick one from the history list.`,
    );
  }
  return id;
}

/** The checked meta.json of comparison `id` in `root` (the comparisons folder). */
export async function readMeta(root: string, id: string): Promise<ComparisonMeta> {
  const file = join(root, checkId(id, 'comparison'), 'meta.json');
  let text: string;
  let fh: FileHandle | null = null;
  try {
    // Non-blocking and checked before reading: a FIFO or a huge file in its place cannot hang or flood the host.
    fh = await open(file, constants.O_RDONLY | constants.O_NONBLOCK);
    const info = await fh.stat();
    if (!info.isFile()) throw new DamagedMetaError(id, 'is not a regular file');
    if (info.size > MAX_META_BYTES)
      throw new DamagedMetaError(id, `is ${info.size} bytes, far more than a comparison record holds`);
    text = await fh.readFile('utf8');
  } catch (err) {
    if (err instanceof DamagedMetaError) throw err;
    if ((err as NodeJS.ErrnoException).code === 'ENOENT')
      throw new MissingMetaError(
        `No comparison "${id}" in ${root}. It may have been deleted; refresh the history list.`,
      );
    throw new DamagedMetaError(
      id,
      `could not be read (${(err as NodeJS.ErrnoException).code ?? (err as Error).message})`,
    );
  } finally {
    await fh?.close().catch(() => undefined);
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new DamagedMetaError(id, 'is not valid JSON');
  }
  // The schema (and zod with it) loads on the first meta.json read, not at the start of every listing.
  const { checkComparisonMeta } = await import('../../shared/comparison-meta-schema.js');
  const checked = checkComparisonMeta(value);
  if (!checked.ok) throw new DamagedMetaError(id, `is not a valid comparison record (${checked.problem})`);
  if (checked.meta.id !== id)
    throw new DamagedMetaError(id, `names another comparison (${JSON.stringify(checked.meta.id)})`);
  return checked.meta;
}

/** The damaged list's entry for a comparison, dated by its folder's last change. */
export async function damagedEntry(root: string, name: string, err: DamagedMetaError): Promise<DamagedComparison> {
  const modifiedAt = (await stat(join(root, name)).catch(() => null))?.mtimeMs ?? 0;
  return { id: name, reason: `meta.json ${err.reason}`, modifiedAt: Math.round(modifiedAt) };
}
