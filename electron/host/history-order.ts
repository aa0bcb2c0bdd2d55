/**
 * `<dataDir>/history-order.json`: the order-only index. The ids of the sound comparisons newest first, the
 * damaged ones, the folders still being set up, the comparisons folder's stamp when its names were read, and
 * `since`: every meta.json unchanged since then was read into it. An unfiltered page and `latest` read this
 * small file instead of the comparisons folder's names and the whole index (history-index.ts).
 *
 * It is never trusted on its word: it is used only while the comparisons folder is the one it was made from
 * (same device, inode and mtime: no folder added, removed or renamed since) and a sweep of one stat per
 * comparison (before or after answering, or not at all: history-list.ts's SweepWhen) finds no meta.json changed since `since` (a date edited by hand reorders the list; damage moves a
 * comparison to the damaged list) and no folder being set up that has its meta.json now. Anything else: the
 * caller takes the thorough path (history-list.ts), which rewrites it. Written atomically; two writers at once
 * each write one that is true of the files they read, so whichever lands is safe to check.
 */
import { statSync } from 'node:fs';
import { readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import { join, sep } from 'node:path';
import { ID_PATTERN } from '../../shared/ids.js';
import type { DamagedComparison } from '../../shared/ipc-contract.js';
import { PRIVATE_FILE } from './private-files.js';

export const ORDER_FILE = 'history-order.json';
const ORDER_VERSION = 1;
/**
 * How far a file's time may trail the clock (the kernel stamps files from a coarse clock; a network share
 * from another machine's). Files and folders changed this close to a read are looked at again next time.
 */
export const SLACK_MS = 2000;
/** Stats between two turns given back to the event loop (about 10 ms of a sweep). */
const SWEEP_TURN = 2000;

export interface HistoryOrder {
  /** Sound comparisons, newest first. */
  readonly ids: readonly string[];
  readonly damaged: readonly DamagedComparison[];
  /** Folders without a meta.json when read (being set up, or left half-made): listed once they have one. */
  readonly pending: readonly string[];
}

/** An order as read, with the time its meta.json files are checked against. */
export interface StoredOrder extends HistoryOrder {
  readonly since: number;
}

interface OrderFile {
  readonly version: number;
  readonly folder: string;
  readonly since: number;
  readonly ids: string;
  readonly pending: string;
  readonly damaged: readonly DamagedComparison[];
}

/** The comparisons folder's identity and last change; null when it is missing. */
async function folderStamp(root: string): Promise<{ stamp: string; mtimeMs: number } | null> {
  const info = await stat(root, { bigint: true }).catch(() => null);
  return info ? { stamp: `${info.dev}:${info.ino}:${info.mtimeNs}`, mtimeMs: Number(info.mtimeMs) } : null;
}

/**
 * The folder's stamp taken BEFORE its names are read, for writeOrder. Null (the order will not be trusted)
 * when the folder changed within the slack of `now`: a folder added in the same clock tick, after the names
 * were read, would leave the stamp as it is.
 */
export async function stampBeforeReading(root: string, now: number): Promise<string | null> {
  const info = await folderStamp(root);
  return info && info.mtimeMs < now - SLACK_MS ? info.stamp : null;
}

/**
 * A comparison's meta.json now: its size:mtime stamp and last change (ms); null when it has none. Synchronous:
 * a sweep over thousands costs a few microseconds each this way, many times that with a promise per file.
 */
export function metaNow(root: string, id: string): { stamp: string; changedAt: number } | null {
  const info = statSync(metaPath(root, id), { throwIfNoEntry: false });
  return info ? { stamp: `${info.size}:${Math.floor(info.mtimeMs)}`, changedAt: info.mtimeMs } : null;
}

/** meta.json's last change (ms), -1 when it has none. */
function metaChangedAt(root: string, id: string): number {
  return statSync(metaPath(root, id), { throwIfNoEntry: false })?.mtimeMs ?? -1;
}

/** Joined by hand: `join` normalizes each path, a third of a sweep's time; ids are checked path segments. */
const metaPath = (root: string, id: string): string => `${root}${sep}${id}${sep}meta.json`;

const split = (text: string): string[] => (text === '' ? [] : text.split('\n'));

/**
 * The stored order while it still holds for the files on disk; null otherwise (take the thorough path).
 * `sweep` false: only the folder's stamp, the folders being set up and the damaged are checked; the caller sweeps
 * later (stillHolds) or not.
 */
export async function readOrder(dataDir: string, root: string, sweep = true): Promise<StoredOrder | null> {
  let file: OrderFile;
  try {
    file = JSON.parse(await readFile(join(dataDir, ORDER_FILE), 'utf8')) as OrderFile;
  } catch {
    return null;
  }
  if (
    typeof file !== 'object' ||
    file === null ||
    file.version !== ORDER_VERSION ||
    typeof file.folder !== 'string' ||
    !Number.isFinite(file.since) ||
    typeof file.ids !== 'string' ||
    typeof file.pending !== 'string' ||
    !Array.isArray(file.damaged)
  )
    return null;
  if ((await folderStamp(root))?.stamp !== file.folder) return null;
  const ids = split(file.ids);
  const pending = split(file.pending);
  const damaged = file.damaged.filter(
    (d) => typeof d?.id === 'string' && typeof d.reason === 'string' && Number.isFinite(d.modifiedAt),
  );
  // Ids become paths: a hand-made file naming "../x" is not one of ours.
  if (
    damaged.length !== file.damaged.length ||
    ![...ids, ...pending, ...damaged.map((d) => d.id)].every((id) => ID_PATTERN.test(id))
  )
    return null;
  const order = { ids, pending, damaged, since: file.since };
  // Unswept, the few that change without changing the comparisons folder are still looked at: a folder being set
  // up that has its meta.json now, a damaged one mended.
  if (!sweep)
    return pending.every((id) => metaChangedAt(root, id) < 0) &&
      damaged.every((d) => metaChangedAt(root, d.id) < file.since)
      ? order
      : null;
  return (await stillHolds(root, order)) ? order : null;
}

/** The sweep of an order's comparisons: no meta.json changed (or gone) since it was written, none appeared. */
export async function stillHolds(root: string, { ids, pending, damaged, since }: StoredOrder): Promise<boolean> {
  // The sweep: one stat per comparison, no read. A meta.json changed (or gone) since, or one that appeared.
  // Synchronous stats, a turn given back now and then so a host's other work (a running comparison's events)
  // does not wait for the whole sweep.
  let swept = 0;
  for (const id of [...ids, ...damaged.map((d) => d.id)]) {
    if (++swept % SWEEP_TURN === 0) await new Promise((resolve) => setImmediate(resolve));
    const at = metaChangedAt(root, id);
    if (at < 0 || at >= since) return false;
  }
  return pending.every((id) => metaChangedAt(root, id) < 0);
}

/**
 * Store the order the thorough path found. `folder`: stampBeforeReading's (null: not to be trusted);
 * `since`: when that path began, less the slack (what changed after it is looked at again).
 */
export async function writeOrder(
  dataDir: string,
  order: HistoryOrder,
  folder: string | null,
  since: number,
): Promise<void> {
  const path = join(dataDir, ORDER_FILE);
  if (folder === null) {
    // Nothing to trust yet: an older order must not be read either (its folder stamp could come back).
    await rm(path, { force: true }).catch(() => undefined);
    return;
  }
  const tmp = `${path}.${process.pid}.tmp`;
  const file: OrderFile = {
    version: ORDER_VERSION,
    folder,
    since,
    ids: order.ids.join('\n'),
    pending: order.pending.join('\n'),
    damaged: order.damaged,
  };
  try {
    await writeFile(tmp, JSON.stringify(file), { mode: PRIVATE_FILE });
    await rename(tmp, path);
  } catch {
    // A read-only or full disk: listing still works, the thorough way.
    await rm(tmp, { force: true }).catch(() => undefined);
  }
}
