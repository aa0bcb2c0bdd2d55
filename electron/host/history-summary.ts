/**
 * The history list's summary of one comparison, `<id>/summary.json`: its list item (meta, each run's status,
 * steps and token totals, damage found) and the stamp (size and mtime) of meta.json and of every run log it
 * was built from. Listing then costs one small read and a few stats per comparison instead of reading every
 * run log. A summary whose stamp no longer matches the files (a log appended, meta edited), that is missing,
 * damaged or of another version is ignored, and the list rebuilds it from the logs.
 */
import { constants } from 'node:fs';
import { open, rename, rm, stat, writeFile, type FileHandle } from 'node:fs/promises';
import { join } from 'node:path';
import { ID_PATTERN } from '../../shared/ids.js';
import type { ComparisonListItem, ComparisonMeta } from '../../shared/ipc-contract.js';
import { COLUMN_MODE_IDS } from '../../shared/modes.js';
import { metaWithCurrentNames } from '../../shared/former-setting-names.js';
import { PRIVATE_FILE } from './private-files.js';

export const SUMMARY_FILE = 'summary.json';
/** Bumped when what a summary holds (or how it is computed) changes: older ones are rebuilt. */
// 2: runs carry `passed` (validation).
const SUMMARY_VERSION = 2;
/** A summary is a few KB; a larger file is not one. */
const MAX_SUMMARY_BYTES = 1024 * 1024;

/** size:mtime of each file, in a fixed order: meta.json, then each run's log (null when missing). */
export type Stamp = readonly (string | null)[];

interface SummaryFile {
  readonly version: number;
  readonly stamp: Stamp;
  readonly item: ComparisonListItem;
}

async function stampOne(path: string): Promise<string | null> {
  const info = await stat(path).catch(() => null);
  return info ? `${info.size}:${Math.floor(info.mtimeMs)}` : null;
}

/** The stamp of a comparison's files now (meta.json and the logs of the runs `meta` names). */
export async function stampOf(dir: string, meta: ComparisonMeta): Promise<Stamp> {
  return Promise.all(
    [join(dir, 'meta.json'), ...meta.runs.map((r) => join(dir, 'runs', `${r.runId}.jsonl`))].map(stampOne),
  );
}

/** Read a small regular file without following it into a FIFO or a huge file; null when it is not one. */
export async function readSmallFile(path: string, maxBytes: number): Promise<string | null> {
  let fh: FileHandle | null = null;
  try {
    fh = await open(path, constants.O_RDONLY | constants.O_NONBLOCK);
    const info = await fh.stat();
    if (!info.isFile() || info.size > maxBytes) return null;
    // One read of the size just checked (readFile would stat again): listing does this once per comparison.
    const buffer = Buffer.alloc(info.size);
    const { bytesRead } = await fh.read(buffer, 0, info.size, 0);
    return buffer.toString('utf8', 0, bytesRead);
  } catch {
    return null;
  } finally {
    await fh?.close().catch(() => undefined);
  }
}

const sameStamp = (a: Stamp, b: Stamp): boolean => a.length === b.length && a.every((x, i) => x === b[i]);

function isRun(value: unknown): boolean {
  if (typeof value !== 'object' || value === null) return false;
  const r = value as Record<string, unknown>;
  return (
    typeof r.runId === 'string' &&
    typeof r.mode === 'string' &&
    typeof r.status === 'string' &&
    Number.isFinite(r.totalTokens) &&
    Number.isFinite(r.steps) &&
    (r.column === undefined ||
      (typeof r.column === 'object' &&
        r.column !== null &&
        typeof (r.column as { key?: unknown }).key === 'string' &&
        typeof (r.column as { label?: unknown }).label === 'string'))
  );
}

const MODES: ReadonlySet<string> = new Set(COLUMN_MODE_IDS);
const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const isId = (v: unknown): boolean => typeof v === 'string' && ID_PATTERN.test(v);
const optional = (v: unknown, check: (x: unknown) => boolean): boolean => v === undefined || check(v);

/**
 * The summary's copy of meta.json, checked by hand rather than with the schema (which loads zod, most of a
 * listing's cost). A summary is written only from a meta.json the schema accepted, and is used only while that
 * file's size and time are unchanged; this check rejects a summary torn, damaged or edited into another shape:
 * every field a list item or `latest` is read for has its type, every id is a path-safe id, every mode a mode.
 */
function soundMeta(value: unknown, id: string): value is ComparisonMeta {
  if (
    !isObject(value) ||
    value.id !== id ||
    !Number.isFinite(value.createdAt) ||
    typeof value.workspaceSource !== 'string' ||
    !isObject(value.settings)
  )
    return false;
  const { task, provider, runs, variants } = value;
  if (!isObject(task) || typeof task.text !== 'string' || (task.id !== null && typeof task.id !== 'string'))
    return false;
  if (
    !isObject(provider) ||
    typeof provider.name !== 'string' ||
    typeof provider.baseUrl !== 'string' ||
    typeof provider.model !== 'string' ||
    typeof provider.simulated !== 'boolean'
  )
    return false;
  if (
    !Array.isArray(runs) ||
    runs.length === 0 ||
    new Set(runs.map((r: { runId?: unknown } | null) => r?.runId)).size !== runs.length
  )
    return false;
  const keys = new Set<unknown>();
  if (variants !== undefined) {
    if (!Array.isArray(variants)) return false;
    for (const v of variants as unknown[]) {
      if (
        !isObject(v) ||
        !isId(v.key) ||
        keys.has(v.key) ||
        typeof v.label !== 'string' ||
        v.label === '' ||
        !MODES.has(v.mode as string) ||
        !optional(v.model, (m) => typeof m === 'string') ||
        !optional(v.provider, (p) => typeof p === 'string')
      )
        return false;
      keys.add(v.key);
    }
  }
  return runs.every(
    (r: unknown) =>
      isObject(r) &&
      isId(r.runId) &&
      MODES.has(r.mode as string) &&
      optional(r.trial, (t) => Number.isInteger(t) && (t as number) >= 1) &&
      optional(r.variant, (k) => keys.has(k)),
  );
}

/**
 * The stored list item of comparison `id` when its summary is sound and still matches the files on disk;
 * null otherwise (the caller rebuilds it).
 */
export async function readFreshSummary(dir: string, id: string): Promise<ComparisonListItem | null> {
  return readSummary(dir, id, 'all');
}

/**
 * The meta.json a sound summary holds while meta.json is unchanged (the run logs are not looked at): what
 * `latest` needs, at one stat per comparison instead of one per file.
 */
export async function readSummaryMeta(dir: string, id: string): Promise<ComparisonMeta | null> {
  return (await readSummary(dir, id, 'meta'))?.meta ?? null;
}

async function readSummary(dir: string, id: string, fresh: 'all' | 'meta'): Promise<ComparisonListItem | null> {
  const text = await readSmallFile(join(dir, SUMMARY_FILE), MAX_SUMMARY_BYTES);
  if (text === null) return null;
  let file: SummaryFile;
  try {
    file = JSON.parse(text) as SummaryFile;
  } catch {
    return null;
  }
  if (typeof file !== 'object' || file === null || file.version !== SUMMARY_VERSION || !Array.isArray(file.stamp))
    return null;
  const item = file.item as ComparisonListItem | undefined;
  if (typeof item !== 'object' || item === null || !Array.isArray(item.runs) || !item.runs.every(isRun)) return null;
  if (
    item.problems !== undefined &&
    !(Array.isArray(item.problems) && item.problems.every((p) => typeof p === 'string'))
  )
    return null;
  const meta: unknown = item.meta;
  if (
    !soundMeta(meta, id) ||
    item.runs.length !== meta.runs.length ||
    !item.runs.every((r, i) => r.runId === meta.runs[i].runId)
  )
    return null;
  const now = fresh === 'all' ? await stampOf(dir, meta) : [await stampOne(join(dir, 'meta.json'))];
  if (!sameStamp(fresh === 'all' ? file.stamp : file.stamp.slice(0, 1), now)) return null;
  // A summary written before a setting was renamed holds the meta.json as it was then.
  return { ...item, meta: metaWithCurrentNames(meta) };
}

/**
 * Write the summary of a comparison whose runs have all ended, stamped with the files as they were BEFORE it
 * was computed: a log appended meanwhile then makes it stale rather than wrong. Atomic (temp file + rename).
 */
export async function writeSummary(dir: string, item: ComparisonListItem, stamp: Stamp): Promise<void> {
  const file: SummaryFile = { version: SUMMARY_VERSION, stamp, item };
  const tmp = join(dir, `${SUMMARY_FILE}.${process.pid}.tmp`);
  try {
    await writeFile(tmp, JSON.stringify(file) + '\n', { mode: PRIVATE_FILE });
    await rename(tmp, join(dir, SUMMARY_FILE));
  } catch (err) {
    await rm(tmp, { force: true }).catch(() => undefined);
    throw err;
  }
}
