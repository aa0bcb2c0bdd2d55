/**
 * `<dataDir>/history-index.json`: one small entry per stored comparison (id, date, what search and filters
 * look at, whether it may still change) and the damaged ones, newest first. Listing a page, searching and
 * `latest` read this one file and the folder names instead of every comparison's files.
 *
 * It is never trusted to be complete: each read is reconciled with the folder names (one readdir). A folder it
 * does not name is summarized and added, an entry without a folder is dropped, and entries that may still
 * change (a run not finished here: another process may be running it) are looked at again each time. A
 * missing, damaged or older-version index is rebuilt from the summaries. Two processes writing it at once
 * lose nothing: the last write wins and the next read adds whatever it lacks.
 */
import { readFile, rename, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { ComparisonListItem, DamagedComparison, HistoryQuery } from '../../shared/ipc-contract.js';
import { findTask } from '../../shared/tasks.js';
import { PRIVATE_FILE } from './private-files.js';

export const INDEX_FILE = 'history-index.json';
// 2: entries as arrays (smaller, quicker to parse): [id, createdAt, text, metaStamp, modes, statuses, recheck].
// 3: the text holds what the app's search looks in too (a built-in task's title, "simulated", columns' models).
const INDEX_VERSION = 3;

type Row = [string, number, string, string | null, string[], string[], 0 | 1];
const toRow = (e: IndexEntry): Row => [
  e.id,
  e.createdAt,
  e.text,
  e.metaStamp ?? null,
  [...e.modes],
  [...e.statuses],
  e.recheck ? 1 : 0,
];
function fromRow(r: unknown): IndexEntry | null {
  if (!Array.isArray(r) || r.length !== 7) return null;
  const [id, createdAt, text, metaStamp, modes, statuses, recheck] = r as unknown[];
  if (
    typeof id !== 'string' ||
    !Number.isFinite(createdAt) ||
    typeof text !== 'string' ||
    (metaStamp !== null && typeof metaStamp !== 'string') ||
    !Array.isArray(modes) ||
    !Array.isArray(statuses) ||
    (recheck !== 0 && recheck !== 1)
  )
    return null;
  return {
    id,
    createdAt: createdAt as number,
    text,
    metaStamp: metaStamp as string | null,
    modes: modes as string[],
    statuses: statuses as string[],
    recheck: recheck === 1,
  };
}

export interface IndexEntry {
  readonly id: string;
  readonly createdAt: number;
  /** Lower-case text a search looks in (with the id): task id, title and text, model, provider, columns. */
  readonly text: string;
  readonly modes: readonly string[];
  readonly statuses: readonly string[];
  /** size:mtime of its meta.json when indexed (listDamaged checks it: a meta.json edited or damaged since). */
  readonly metaStamp?: string | null;
  /** Not settled when indexed (a run without its end, a record incomplete): summarized again at each read. */
  readonly recheck: boolean;
}

export interface HistoryIndex {
  entries: IndexEntry[];
  damaged: DamagedComparison[];
}

/** Statuses that can still change: the run may be going on in another process, or end later. */
const UNSETTLED = new Set(['running', 'interrupted', 'never-started']);

export function entryOf(item: ComparisonListItem, metaStamp: string | null): IndexEntry {
  const { meta } = item;
  const title = (meta.task.id && findTask(meta.task.id)?.title) || '';
  const columns = (meta.variants ?? []).flatMap((v) => [v.label, v.model ?? '']);
  const text = [
    meta.task.id ?? '',
    title,
    meta.task.text.slice(0, 500),
    meta.provider.model,
    meta.provider.name,
    meta.provider.simulated ? 'simulated' : '',
    ...columns,
  ]
    .join('\n')
    .toLowerCase();
  const statuses = [...new Set(item.runs.map((r) => r.status))];
  return {
    id: meta.id,
    createdAt: meta.createdAt,
    text,
    metaStamp,
    modes: [...new Set(item.runs.map((r) => r.mode))],
    statuses,
    recheck: statuses.some((s) => UNSETTLED.has(s)) || (item.problems?.length ?? 0) > 0,
  };
}

/** The stored index, or null when it is missing, damaged or of another version (the caller rebuilds it). */
export async function readIndex(dataDir: string): Promise<HistoryIndex | null> {
  try {
    const value = JSON.parse(await readFile(join(dataDir, INDEX_FILE), 'utf8')) as Record<string, unknown> | null;
    if (!value || value.version !== INDEX_VERSION || !Array.isArray(value.entries) || !Array.isArray(value.damaged))
      return null;
    const entries: IndexEntry[] = [];
    for (const row of value.entries) {
      const e = fromRow(row);
      if (!e) return null;
      entries.push(e);
    }
    return {
      entries,
      damaged: (value.damaged as DamagedComparison[]).filter(
        (d) => typeof d?.id === 'string' && typeof d.reason === 'string',
      ),
    };
  } catch {
    return null;
  }
}

/** Written atomically; a failure is not an error (a read-only history still lists, only slower). */
export async function writeIndex(dataDir: string, index: HistoryIndex): Promise<void> {
  const file = join(dataDir, INDEX_FILE);
  const tmp = `${file}.${process.pid}.tmp`;
  try {
    sortIndex(index);
    await writeFile(
      tmp,
      JSON.stringify({ version: INDEX_VERSION, entries: index.entries.map(toRow), damaged: index.damaged }),
      { mode: PRIVATE_FILE },
    );
    await rename(tmp, file);
  } catch {
    await rm(tmp, { force: true }).catch(() => undefined);
  }
}

export function sortIndex(index: HistoryIndex): void {
  index.entries.sort((a, b) => b.createdAt - a.createdAt || (a.id < b.id ? 1 : -1));
  index.damaged.sort((a, b) => b.modifiedAt - a.modifiedAt);
}

/** The list's outcome filter: every run that ended answered, or one that ended otherwise (none ended: neither). */
function outcomeOf(statuses: readonly string[]): 'answered' | 'not-answered' | null {
  const ended = statuses.filter((s) => s !== 'running');
  if (ended.length === 0) return null;
  return ended.every((s) => s === 'answered') ? 'answered' : 'not-answered';
}

/** The entries a query keeps, in the index's order (newest first). */
export function filterEntries(entries: readonly IndexEntry[], query: HistoryQuery): readonly IndexEntry[] {
  const words = (query.search ?? '').toLowerCase().split(/\s+/).filter(Boolean);
  const { mode, status, outcome, since } = query;
  if (words.length === 0 && !mode && !status && !outcome && since === undefined) return entries;
  return entries.filter(
    (e) =>
      words.every((w) => e.text.includes(w) || e.id.toLowerCase().includes(w)) &&
      (!mode || e.modes.includes(mode)) &&
      (!status || e.statuses.includes(status)) &&
      (!outcome || outcomeOf(e.statuses) === outcome) &&
      (since === undefined || e.createdAt >= since),
  );
}
