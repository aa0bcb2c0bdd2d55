/**
 * History on disk, no database: <dataDir>/comparisons/<id>/meta.json plus runs/<runId>.jsonl, one StepEvent
 * per line, appended as events arrive and fsynced when the run ends. Nothing lives only in memory, so a
 * host that dies leaves readable history: runs without run-finished load as interrupted, and a torn last
 * line is skipped with a warning.
 *
 * Every file is checked on load with the one schema (shared/comparison-meta-schema.ts,
 * shared/step-event-schema.ts). A comparison whose meta.json is damaged is listed apart (listDamaged) with the
 * reason; damaged lines in a run log are skipped and listed as the comparison's problems. Neither ever hides
 * the other comparisons.
 */
import { constants } from 'node:fs';
import { mkdir, open, readdir, readFile, rename, rm, stat, writeFile, type FileHandle } from 'node:fs/promises';
import { join } from 'node:path';
import { checkComparisonMeta, ID_PATTERN } from '../../shared/comparison-meta-schema.js';
import type { ComparisonListItem, ComparisonMeta, DamagedComparison, HistoryPage, HistoryQuery, StoredComparison } from '../../shared/ipc-contract.js';
import { MODE_LABELS } from '../../shared/run-spec.js';
import type { StepEvent } from '../../shared/step-event.js';
import { summarizeRun } from '../../shared/summary.js';
import { readRunLog, type LoadedRun } from './run-log-reader.js';
import { readFreshSummary, readSummaryMeta, stampOf, writeSummary } from './history-summary.js';
import { writeCause, writeFailureMessage } from './write-failure.js';
import { entryOf, filterEntries, readIndex, sortIndex, writeIndex, type HistoryIndex, type IndexEntry } from './history-index.js';

export { parseRunLog, type LoadedRun } from './run-log-reader.js';

/** meta.json is a few KB; anything far larger is not one, and is not read into memory. */
const MAX_META_BYTES = 1024 * 1024;

/** A comparison's meta.json exists but cannot be used: the comparison is listed as damaged. */
export class DamagedMetaError extends Error {
  override readonly name = 'DamagedMetaError';
  constructor(readonly id: string, readonly reason: string) {
    super(`Comparison ${id} is damaged: its meta.json ${reason}. It cannot be opened; delete it from the history list (or remove its folder).`);
  }
}

/** A comparison folder without meta.json: deleted, or still being set up. */
class MissingMetaError extends Error {}

export function checkId(id: string, what: string): string {
  if (typeof id !== 'string' || !ID_PATTERN.test(id)) {
    throw new Error(`"${String(id)}" is not a valid ${what} id (letters, digits, '-' and '_' only). Pick one from the history list.`);
  }
  return id;
}

/** One run's append-only log. Writes are chained so batches land in arrival order. */
export class RunLog {
  private handle: Promise<FileHandle> | null = null;
  private chain: Promise<void> = Promise.resolve();
  private closed = false;
  /** Why the record is incomplete (the first write that failed); later events are not written. */
  failure: string | null = null;

  constructor(
    readonly path: string,
    private readonly onError: (message: string) => void,
    private readonly onFailure: (cause: string) => void = () => {},
  ) {}

  private fail(what: string, err: unknown): void {
    if (this.failure) return;
    this.failure = writeCause(err);
    this.onError(`${what} ${this.path}: ${this.failure}.`);
    this.onFailure(this.failure);
  }

  append(events: readonly StepEvent[]): void {
    if (events.length === 0 || this.closed) return;
    const text = events.map((e) => JSON.stringify(e)).join('\n') + '\n';
    this.chain = this.chain.then(async () => {
      if (this.failure) return;
      try {
        this.handle ??= open(this.path, 'a');
        const fh = await this.handle;
        // A nearly full disk takes part of a write without an error: the rest is written (or refused) next.
        const bytes = Buffer.from(text);
        for (let at = 0; at < bytes.length; ) {
          const { bytesWritten } = await fh.write(bytes, at);
          if (bytesWritten === 0) throw Object.assign(new Error('no space left on device'), { code: 'ENOSPC' });
          at += bytesWritten;
        }
      } catch (err) {
        this.fail(`Could not write ${events.length} events to`, err);
      }
    });
  }

  /** Flush to disk and close; later appends are ignored. */
  finish(): Promise<void> {
    if (this.closed) return this.chain;
    this.closed = true;
    this.chain = this.chain.then(async () => {
      if (!this.handle) return;
      let fh: FileHandle | null = null;
      try {
        fh = await this.handle;
        if (!this.failure) await fh.sync();
      } catch (err) {
        this.fail('Could not sync', err);
      } finally {
        await fh?.close().catch(() => undefined);
      }
    });
    return this.chain;
  }
}

/**
 * `recording.json` sits in a comparison's folder from its creation until every run is on disk. Written when
 * there is room (padded, so the reasons fit in the same blocks later: rewriting it needs no new space), removed
 * when the comparison is complete. Present afterwards with reasons: those runs were not recorded in full.
 */
const RECORDING_FILE = 'recording.json';
const RECORDING_BYTES = 4096;

export interface RecordingNote {
  /** Runs whose record is incomplete, each with why (e.g. "the disk is full (ENOSPC)"). */
  readonly notRecorded: Readonly<Record<string, string>>;
}

/** Removes a temp file whose write failed: a half-written file is never left behind. */
async function writeAtomic(file: string, tmp: string, text: string): Promise<void> {
  try {
    await writeFile(tmp, text);
    await rename(tmp, file);
  } catch (err) {
    await rm(tmp, { force: true }).catch(() => undefined);
    throw err;
  }
}

/** A run whose log holds nothing and showed no damage: its round never began (a log that cannot be read is damage). */
function neverStarted(loaded: LoadedRun): boolean {
  return loaded.events.length === 0 && loaded.problems.length === 0 && loaded.warnings.length === 0;
}

/** Events the history list reads: enough for each run's status, steps and token totals. */
const LISTED_TYPES: ReadonlySet<StepEvent['type']> = new Set(['run-started', 'model-request', 'model-response', 'run-finished']);

export class HistoryStore {
  readonly root: string;

  constructor(
    readonly dataDir: string,
    private readonly onWarning: (message: string) => void = () => {},
    /** A line now and then while a cold index is built (the CLI prints it on stderr). */
    private readonly onProgress: (line: string) => void = () => {},
  ) {
    this.root = join(dataDir, 'comparisons');
  }

  dir(id: string): string {
    return join(this.root, checkId(id, 'comparison'));
  }

  runLogPath(id: string, runId: string): string {
    return join(this.dir(id), 'runs', `${checkId(runId, 'run')}.jsonl`);
  }

  /** Create the comparison's folder, its recording note and its meta.json (atomically). */
  async create(meta: ComparisonMeta): Promise<void> {
    const dir = this.dir(meta.id);
    try {
      await mkdir(join(dir, 'runs'), { recursive: true });
      await writeFile(join(dir, RECORDING_FILE), JSON.stringify({ notRecorded: {} }).padEnd(RECORDING_BYTES - 1) + '\n');
      await writeAtomic(join(dir, 'meta.json'), join(dir, 'meta.json.tmp'), JSON.stringify(meta, null, 2) + '\n');
    } catch (err) {
      throw new Error(writeFailureMessage(this.root, err), { cause: err });
    }
  }

  /** Rewrite a comparison's meta.json atomically (what it learned while running, e.g. that it was throttled). */
  async writeMeta(meta: ComparisonMeta): Promise<void> {
    const dir = this.dir(meta.id);
    await writeAtomic(join(dir, 'meta.json'), join(dir, 'meta.json.tmp'), JSON.stringify(meta, null, 2) + '\n');
  }

  openRunLog(id: string, runId: string, onFailure?: (cause: string) => void): RunLog {
    return new RunLog(this.runLogPath(id, runId), this.onWarning, onFailure);
  }

  /**
   * The comparison's end: with every run on disk its recording note is removed; otherwise the note is
   * rewritten in place with the runs not recorded and why (same blocks: this needs no free space).
   */
  async finishRecording(id: string, notRecorded: ReadonlyMap<string, string>): Promise<void> {
    const file = join(this.dir(id), RECORDING_FILE);
    if (notRecorded.size === 0) {
      await rm(file, { force: true });
      return;
    }
    let text = JSON.stringify({ notRecorded: Object.fromEntries(notRecorded) } satisfies RecordingNote);
    if (text.length > RECORDING_BYTES - 1) text = JSON.stringify({ notRecorded: Object.fromEntries([...notRecorded.keys()].map((k) => [k, 'the history could not be written'])) });
    const fh = await open(file, 'r+');
    try {
      await fh.write(text.padEnd(RECORDING_BYTES - 1) + '\n', 0);
      await fh.sync().catch(() => undefined);
    } finally {
      await fh.close();
    }
  }

  /** The runs a comparison did not record in full, by run id (empty: none known). */
  async recordingNote(id: string): Promise<Readonly<Record<string, string>>> {
    try {
      const text = await readFile(join(this.dir(id), RECORDING_FILE), 'utf8');
      const value = JSON.parse(text) as Partial<RecordingNote> | null;
      const out: Record<string, string> = {};
      if (value && typeof value.notRecorded === 'object' && value.notRecorded !== null) {
        for (const [k, v] of Object.entries(value.notRecorded)) if (typeof v === 'string') out[k] = v.slice(0, 300);
      }
      return out;
    } catch {
      return {};
    }
  }

  async readMeta(id: string): Promise<ComparisonMeta> {
    const file = join(this.dir(id), 'meta.json');
    let text: string;
    let fh: FileHandle | null = null;
    try {
      // Non-blocking and checked before reading: a FIFO or a huge file in its place cannot hang or flood the host.
      fh = await open(file, constants.O_RDONLY | constants.O_NONBLOCK);
      const info = await fh.stat();
      if (!info.isFile()) throw new DamagedMetaError(id, 'is not a regular file');
      if (info.size > MAX_META_BYTES) throw new DamagedMetaError(id, `is ${info.size} bytes, far more than a comparison record holds`);
      text = await fh.readFile('utf8');
    } catch (err) {
      if (err instanceof DamagedMetaError) throw err;
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') throw new MissingMetaError(`No comparison "${id}" in ${this.root}. It may have been deleted; refresh the history list.`);
      throw new DamagedMetaError(id, `could not be read (${(err as NodeJS.ErrnoException).code ?? (err as Error).message})`);
    } finally {
      await fh?.close().catch(() => undefined);
    }
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      throw new DamagedMetaError(id, 'is not valid JSON');
    }
    const checked = checkComparisonMeta(value);
    if (!checked.ok) throw new DamagedMetaError(id, `is not a valid comparison record (${checked.problem})`);
    if (checked.meta.id !== id) throw new DamagedMetaError(id, `names another comparison (${JSON.stringify(checked.meta.id)})`);
    return checked.meta;
  }

  private loadRun(id: string, runId: string, live: boolean, keep?: (e: StepEvent) => boolean): Promise<LoadedRun> {
    return readRunLog(this.runLogPath(id, runId), runId, `runs/${runId}.jsonl`, { live, keep });
  }

  /** Everything stored for one comparison. `isLive(runId)`: the run is still going in this host. */
  async open(id: string, isLive: (runId: string) => boolean = () => false): Promise<StoredComparison> {
    const meta = await this.readMeta(id);
    const events: StepEvent[] = [];
    const warnings: string[] = [];
    const interruptedRunIds: string[] = [];
    const several = meta.runs.some((r) => (r.trial ?? 1) > 1);
    const note = await this.recordingNote(id);
    for (const run of meta.runs) {
      const live = isLive(run.runId);
      const loaded = await this.loadRun(id, run.runId, live);
      events.push(...loaded.events);
      const label = `${meta.variants?.find((v) => v.key === run.variant)?.label ?? MODE_LABELS[run.mode] ?? run.mode}${several ? ` #${run.trial ?? 1}` : ''}`;
      const notRecorded = live ? undefined : note[run.runId];
      if (notRecorded !== undefined) {
        // Its log ends where the disk refused it: not a host that stopped, so no torn-line warning.
        interruptedRunIds.push(run.runId);
        warnings.push(...loaded.problems, `The ${label} run (${run.runId}) was not recorded: ${notRecorded}. Its ${loaded.events.length} events that reached the disk are kept.`);
        continue;
      }
      warnings.push(...loaded.problems, ...loaded.warnings);
      if (!live && neverStarted(loaded)) {
        interruptedRunIds.push(run.runId);
        warnings.push(`The ${label} run (${run.runId}) never started: the host stopped before its round began, so nothing of it was recorded.`);
      } else if (!live && !loaded.events.some((e) => e.type === 'run-finished')) {
        interruptedRunIds.push(run.runId);
        warnings.push(
          `The ${label} run (${run.runId}) has no run-finished event: the host stopped before it ended, ` +
            `so it is shown as interrupted. Its ${loaded.events.length} recorded events are kept.`,
        );
      }
    }
    return { meta, events, warnings, interruptedRunIds, ...(Object.keys(note).length > 0 ? { notRecorded: note } : {}) };
  }

  /** Folders named like a comparison (one without a meta.json is still being set up: it is not listed). */
  private async comparisonFolders(): Promise<string[]> {
    let names: string[];
    try {
      names = await readdir(this.root);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return [];
      throw err;
    }
    return names.filter((name) => ID_PATTERN.test(name));
  }

  /**
   * Every comparison whose meta.json is sound, newest first, each with its runs' status and totals and the
   * damage found in its run logs. Damaged comparisons are left out here and listed by listDamaged. Each
   * comparison's summary.json is used while it matches the files; otherwise the logs are read and it is rebuilt.
   */
  async list(isLive: (runId: string) => boolean = () => false): Promise<ComparisonListItem[]> {
    return (await this.scan(isLive)).items;
  }

  /** list and listDamaged in one pass (the CLI's `history` shows both); `limit`: only the newest so many. */
  async scan(isLive: (runId: string) => boolean = () => false, limit = Infinity): Promise<{ items: ComparisonListItem[]; damaged: DamagedComparison[]; total: number }> {
    const page = await this.page({ offset: 0, limit }, isLive);
    return { items: [...page.items], damaged: page.damaged, total: page.total };
  }

  /** One page of the list from the index: the page's comparisons are read, the others only counted. */
  async page(query: HistoryQuery = {}, isLive: (runId: string) => boolean = () => false): Promise<HistoryPage & { damaged: DamagedComparison[] }> {
    const offset = Math.max(0, Math.floor(Number(query.offset) || 0));
    const limit = query.limit === Infinity ? Infinity : Math.min(200, Math.max(1, Math.floor(Number(query.limit) || 50)));
    const { index, items: known } = await this.indexed(isLive);
    const matching = filterEntries(index.entries, query);
    const items: ComparisonListItem[] = [];
    let changed = false;
    const slice = matching.slice(offset, limit === Infinity ? undefined : offset + limit);
    const read = await mapLimit(slice, async (entry) => {
      const item = known.get(entry.id);
      if (item) return item;
      try {
        return await this.summarize(entry.id, isLive);
      } catch (err) {
        if (!(err instanceof DamagedMetaError)) throw err;
        // Damaged since it was indexed: listed with the damaged from now on.
        index.damaged.push(await this.damagedEntry(entry.id, err));
        changed = true;
        return null;
      }
    });
    for (const item of read) if (item) items.push(item);
    if (changed) {
      const gone = new Set(index.damaged.map((d) => d.id));
      index.entries = index.entries.filter((e) => !gone.has(e.id));
      await writeIndex(this.dataDir, index);
    }
    const end = offset + slice.length;
    return { items, total: matching.length, nextOffset: end < matching.length ? end : null, damagedCount: index.damaged.length, damaged: index.damaged };
  }

  /**
   * The index reconciled with the folders on disk: folders it does not name (and entries that may still change,
   * and damaged ones) are summarized now, entries whose folder is gone are dropped. `items`: the list items
   * this read built, so a page need not read them again.
   */
  private async metaStamp(id: string): Promise<string | null> {
    const info = await stat(join(this.root, id, 'meta.json')).catch(() => null);
    return info ? `${info.size}:${Math.floor(info.mtimeMs)}` : null;
  }

  private async indexed(isLive: (runId: string) => boolean, recheck: ReadonlySet<string> = new Set()): Promise<{ index: HistoryIndex; items: Map<string, ComparisonListItem> }> {
    const names = await this.comparisonFolders();
    const stored = await readIndex(this.dataDir);
    const present = new Set(names);
    const kept: IndexEntry[] = [];
    const settled = new Set<string>();
    let changed = stored === null;
    for (const e of stored?.entries ?? []) {
      if (!present.has(e.id)) changed = true;
      else if (!e.recheck && !recheck.has(e.id) && !settled.has(e.id)) {
        kept.push(e);
        settled.add(e.id);
      }
    }
    const before = new Map((stored?.entries ?? []).filter((e) => e.recheck || recheck.has(e.id)).map((e) => [e.id, e]));
    const wasDamaged = new Map((stored?.damaged ?? []).map((d) => [d.id, d.reason]));
    const todo = names.filter((n) => !settled.has(n));
    const items = new Map<string, ComparisonListItem>();
    const damaged: DamagedComparison[] = [];
    const cold = todo.length >= 500;
    let done = 0;
    if (cold) this.onProgress(`Indexing the history: ${todo.length.toLocaleString('en-US')} comparisons to read in ${this.root}…`);
    await mapLimit(todo, async (name) => {
      try {
        const item = await this.summarize(name, isLive);
        if (item) {
          items.set(name, item);
          const entry = entryOf(item, await this.metaStamp(name));
          kept.push(entry);
          const was = before.get(name);
          if (!was || JSON.stringify(was) !== JSON.stringify(entry)) changed = true;
        }
      } catch (err) {
        if (!(err instanceof DamagedMetaError)) throw err;
        const entry = await this.damagedEntry(name, err);
        damaged.push(entry);
        if (wasDamaged.get(name) !== entry.reason) changed = true;
      }
      if (cold && ++done % 2000 === 0) this.onProgress(`Indexing the history: ${done.toLocaleString('en-US')} of ${todo.length.toLocaleString('en-US')}…`);
    });
    if (cold) this.onProgress(`Indexed ${todo.length.toLocaleString('en-US')} comparisons; the next listing reads the index (${this.dataDir}/history-index.json).`);
    if ((stored?.damaged.length ?? 0) !== damaged.length) changed = true;
    const index: HistoryIndex = { entries: kept, damaged };
    // Kept entries are in the stored order already; only added ones need sorting in.
    if (todo.length > 0) sortIndex(index);
    if (changed) await writeIndex(this.dataDir, index);
    return { index, items };
  }

  /** The newest comparison whose meta.json is sound (by createdAt), without reading any run log; null when none. */
  async latest(): Promise<{ readonly meta: ComparisonMeta } | null> {
    const { meta } = await this.newest();
    return meta ? { meta } : null;
  }

  /** latest and listDamaged in one pass (`report latest` needs both), from the index. */
  async newest(): Promise<{ meta: ComparisonMeta | null; damaged: DamagedComparison[] }> {
    const { index } = await this.indexed(() => false);
    for (const entry of index.entries) {
      try {
        const meta = (await readSummaryMeta(join(this.root, entry.id), entry.id)) ?? (await this.readMeta(entry.id));
        return { meta, damaged: index.damaged };
      } catch (err) {
        // Damaged or removed since it was indexed: the next one is the newest readable.
        if (err instanceof DamagedMetaError) index.damaged.push(await this.damagedEntry(entry.id, err));
      }
    }
    return { meta: null, damaged: index.damaged };
  }

  private async damagedEntry(name: string, err: DamagedMetaError): Promise<DamagedComparison> {
    const modifiedAt = (await stat(join(this.root, name)).catch(() => null))?.mtimeMs ?? 0;
    return { id: name, reason: `meta.json ${err.reason}`, modifiedAt: Math.round(modifiedAt) };
  }

  /** Rebuild and store a comparison's summary now, and its index entry (the host calls it when the comparison has ended). */
  async refreshSummary(id: string): Promise<void> {
    const item = await this.summarize(checkId(id, 'comparison'), () => false, true);
    const index = await readIndex(this.dataDir);
    // No index yet: the next listing builds it, with this comparison.
    if (!item || !index) return;
    index.entries = [...index.entries.filter((e) => e.id !== id), entryOf(item, await this.metaStamp(id))];
    await writeIndex(this.dataDir, index);
  }

  /** One comparison's list item: from its summary while fresh, else from its logs (then stored when settled). */
  private async summarize(name: string, isLive: (runId: string) => boolean, rebuild = false): Promise<ComparisonListItem | null> {
    const dir = join(this.root, name);
    const fresh = rebuild ? null : await readFreshSummary(dir, name);
    if (fresh && !fresh.meta.runs.some((r) => isLive(r.runId))) return fresh;
    let meta: ComparisonMeta;
    try {
      meta = await this.readMeta(name);
    } catch (err) {
      // No meta.json: a comparison still being set up (or just deleted), not listed. A damaged one: the caller's.
      if (err instanceof DamagedMetaError && !rebuild) throw err;
      if (!rebuild && !(err instanceof DamagedMetaError) && !(err instanceof MissingMetaError)) this.onWarning(`Skipped ${dir}: ${(err as Error).message}`);
      return null;
    }
    const stamp = await stampOf(dir, meta);
    const runs = [];
    const problems: string[] = [];
    const note = await this.recordingNote(name);
    for (const [runId, why] of Object.entries(note)) if (!isLive(runId)) problems.push(`Run ${runId} was not recorded: ${why}.`);
    let settled = true;
    for (const run of meta.runs) {
      const live = isLive(run.runId);
      // The list needs statuses and token totals only: tool outputs and programs are checked, not kept.
      const loaded = await this.loadRun(name, run.runId, live, (e) => LISTED_TYPES.has(e.type));
      problems.push(...loaded.problems);
      const summary = summarizeRun(loaded.events);
      const status = summary.status === 'running' && !live ? (neverStarted(loaded) ? 'never-started' : 'interrupted') : summary.status;
      if (live) settled = false;
      const variant = meta.variants?.find((v) => v.key === run.variant);
      runs.push({
        runId: run.runId, mode: run.mode, ...(variant ? { column: { key: variant.key, label: variant.label } } : {}), status, totalTokens: summary.totals.total, steps: summary.totals.steps, usageSource: summary.usageSource,
        passed: summary.validation ? summary.validation.ok : null,
      });
    }
    const item: ComparisonListItem = { meta, runs, ...(problems.length > 0 ? { problems } : {}) };
    // A read-only history still lists; it is only slower next time.
    if (settled) await writeSummary(dir, item, stamp).catch(() => undefined);
    return item;
  }

  /**
   * Comparisons whose meta.json is damaged, newest first, each with the reason. Thorough (one stat per
   * comparison): a meta.json changed since it was indexed is read again, so damage done later is found.
   */
  async listDamaged(): Promise<DamagedComparison[]> {
    const { index } = await this.indexed(() => false);
    const changed = new Set<string>();
    await mapLimit(index.entries, async (e) => {
      if ((await this.metaStamp(e.id)) !== (e.metaStamp ?? null)) changed.add(e.id);
    });
    return changed.size === 0 ? index.damaged : (await this.indexed(() => false, changed)).index.damaged;
  }

  async delete(id: string): Promise<void> {
    const dir = this.dir(id);
    try {
      await stat(join(dir, 'meta.json'));
    } catch {
      throw new Error(`No comparison "${id}" in ${this.root}. It may have been deleted already; refresh the history list.`);
    }
    await rm(dir, { recursive: true, force: true });
    const index = await readIndex(this.dataDir);
    if (index) await writeIndex(this.dataDir, { entries: index.entries.filter((e) => e.id !== id), damaged: index.damaged.filter((d) => d.id !== id) });
  }
}

/**
 * `fn` over every item, at most `limit` at a time, results in order. Listing is many small file operations:
 * running a few at once keeps the file system's thread pool busy instead of waiting on each in turn.
 */
async function mapLimit<T, R>(items: readonly T[], fn: (item: T) => Promise<R>, limit = 16): Promise<R[]> {
  const results = new Array<R>(items.length);
  let next = 0;
  const lane = async (): Promise<void> => {
    while (next < items.length) {
      const i = next++;
      results[i] = await fn(items[i]);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, lane));
  return results;
}
