/**
 * The history list, read the quick way. An unfiltered page and `latest` take the order (history-order.ts)
 * while it still holds: a stat of the comparisons folder (and of each meta.json, unless the sweep is put off
 * or skipped: SweepWhen), no folder listing, no index parsed. Otherwise (and for search and filters) the thorough path: the index (history-index.ts)
 * reconciled with the folder names and swept for meta.json files changed since it was written, then the order
 * stored again. Only the comparisons a page shows are read, each from its summary (history-summary.ts) while
 * fresh, else from its logs. A comparison damaged since it was indexed moves to the damaged list; one the index
 * does not name is summarized and added. Nothing the index lacks is ever hidden.
 */
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { ID_PATTERN } from '../../shared/ids.js';
import type {
  ComparisonListItem,
  ComparisonMeta,
  DamagedComparison,
  HistoryPage,
  HistoryQuery,
} from '../../shared/ipc-contract.js';
import type { StepEvent } from '../../shared/step-event.js';
import { damagedEntry, DamagedMetaError, MissingMetaError, readMeta } from './history-meta.js';
import {
  metaNow,
  readOrder,
  SLACK_MS,
  stampBeforeReading,
  stillHolds,
  writeOrder,
  type StoredOrder,
} from './history-order.js';
import { readFreshSummary, readSummaryMeta, stampOf, writeSummary } from './history-summary.js';
import {
  entryOf,
  filterEntries,
  readIndex,
  sortIndex,
  writeIndex,
  type HistoryIndex,
  type IndexEntry,
} from './history-index.js';
import { readRecordingNote } from './run-log-writer.js';

/** Events the history list reads: enough for each run's status, steps and token totals. */
const LISTED_TYPES: ReadonlySet<StepEvent['type']> = new Set([
  'run-started',
  'model-request',
  'model-response',
  'run-finished',
]);

/** Below this many comparisons to read, an index build is quick and prints no progress. */
const COLD_BUILD = 500;

type IsLive = (runId: string) => boolean;

/**
 * When an unfiltered page's and `newest`'s quick path sweep the meta.json files (one stat each, the one part of
 * it that grows with the history): 'now', before answering; 'after' (a long-lived host: the answer goes out at
 * once, the sweep follows, and an edit it finds sends the next listing down the thorough path); 'none' (the
 * CLI's one-shot `history` and `report latest`: a comparison added or removed, or one damaged, is seen at once;
 * each comparison shown is read as it is now; but a date edited by hand in another one reorders the list and
 * `latest` only at the next thorough read: `parallax history --refresh`, a search, a comparison added or
 * removed, the app's next listing).
 */
export type SweepWhen = 'now' | 'after' | 'none';

export class HistoryList {
  /** 'after': the last sweep found the order stale (the next listing takes the thorough path). */
  private stale = false;
  private sweeping: Promise<void> | null = null;

  constructor(
    private readonly root: string,
    private readonly dataDir: string,
    private readonly onWarning: (message: string) => void,
    private readonly onProgress: (line: string) => void,
    private readonly sweepWhen: SweepWhen = 'now',
  ) {}

  /** The stored order when the quick path may use it (history-order.ts), swept now or after, as configured. */
  private async quickOrder(when: SweepWhen = this.sweepWhen): Promise<StoredOrder | null> {
    if (when === 'now') return readOrder(this.dataDir, this.root);
    if (this.stale) return null;
    return readOrder(this.dataDir, this.root, false);
  }

  /** 'after': the sweep of the order just answered from, begun once the answer has gone (the next turn). */
  private sweepLater(order: StoredOrder): void {
    if (this.sweepWhen !== 'after' || this.sweeping) return;
    this.sweeping = new Promise<void>((resolve) => setImmediate(resolve))
      .then(() => stillHolds(this.root, order))
      .then(
        (holds) => {
          if (!holds) this.stale = true;
        },
        () => {
          this.stale = true;
        },
      )
      .finally(() => (this.sweeping = null));
  }

  /** The sweep started by the last quick listing, if one is going ('after'). */
  swept(): Promise<void> {
    return this.sweeping ?? Promise.resolve();
  }

  /** One page of the list from the index: the page's comparisons are read, the others only counted. */
  async page(query: HistoryQuery, isLive: IsLive): Promise<HistoryPage & { damaged: DamagedComparison[] }> {
    const offset = Math.max(0, Math.floor(Number(query.offset) || 0));
    const limit =
      query.limit === Infinity ? Infinity : Math.min(200, Math.max(1, Math.floor(Number(query.limit) || 50)));
    const unfiltered =
      !query.search?.trim() && !query.mode && !query.status && !query.outcome && query.since === undefined;
    const order = unfiltered ? await this.quickOrder() : null;
    if (order) {
      const slice = order.ids.slice(offset, limit === Infinity ? undefined : offset + limit);
      const read = await mapLimit(slice, (id) =>
        this.summarize(id, isLive).catch((err: unknown) => {
          if (err instanceof DamagedMetaError) return null;
          throw err;
        }),
      );
      const items = read.filter((item): item is ComparisonListItem => item !== null);
      const end = offset + slice.length;
      const total = order.ids.length;
      // One changed or went while being read: the thorough path below finds out how.
      if (items.length === slice.length) {
        this.sweepLater(order);
        return {
          items,
          total,
          stored: total,
          nextOffset: end < total ? end : null,
          damagedCount: order.damaged.length,
          damaged: [...order.damaged],
        };
      }
    }
    const { index, items: known } = await this.indexed(isLive, new Set(), unfiltered);
    const matching = filterEntries(index.entries, query);
    const slice = matching.slice(offset, limit === Infinity ? undefined : offset + limit);
    let changed = false;
    const read = await mapLimit(slice, async (entry) => {
      const item = known.get(entry.id);
      if (item) return item;
      try {
        return await this.summarize(entry.id, isLive);
      } catch (err) {
        if (!(err instanceof DamagedMetaError)) throw err;
        // Damaged since it was indexed: listed with the damaged from now on.
        index.damaged.push(await damagedEntry(this.root, entry.id, err));
        changed = true;
        return null;
      }
    });
    const items = read.filter((item): item is ComparisonListItem => item !== null);
    if (changed) {
      const gone = new Set(index.damaged.map((d) => d.id));
      index.entries = index.entries.filter((e) => !gone.has(e.id));
      await writeIndex(this.dataDir, index);
    }
    const end = offset + slice.length;
    return {
      items,
      total: matching.length,
      stored: index.entries.length,
      nextOffset: end < matching.length ? end : null,
      damagedCount: index.damaged.length,
      damaged: index.damaged,
    };
  }

  /** The newest comparison whose meta.json is sound, and the damaged ones (`report latest` needs both). */
  async newest(): Promise<{ meta: ComparisonMeta | null; damaged: DamagedComparison[] }> {
    // The same rule as an unfiltered page's (SweepWhen): `latest` and the list's first line always agree.
    const order = await this.quickOrder();
    if (order) {
      const first = order.ids[0];
      const meta = first === undefined ? null : await this.readNewest(first).catch(() => null);
      if (first === undefined || meta) {
        this.sweepLater(order);
        return { meta, damaged: [...order.damaged] };
      }
    }
    const { index } = await this.indexed(() => false, new Set(), true);
    for (const entry of index.entries) {
      try {
        return { meta: await this.readNewest(entry.id), damaged: index.damaged };
      } catch (err) {
        // Damaged or removed since it was indexed: the next one is the newest readable.
        if (err instanceof DamagedMetaError) index.damaged.push(await damagedEntry(this.root, entry.id, err));
      }
    }
    return { meta: null, damaged: index.damaged };
  }

  /** Comparisons whose meta.json is damaged (damage done after indexing is found by the sweep: one stat each). */
  async listDamaged(): Promise<DamagedComparison[]> {
    const order = await this.quickOrder();
    if (order) this.sweepLater(order);
    return order ? [...order.damaged] : (await this.indexed(() => false, new Set(), true)).index.damaged;
  }

  /**
   * Rebuild and store a comparison's summary now, its index entry and the order (the host calls it when the
   * comparison has ended, so the next listing, in any process, takes the quick path).
   */
  async refresh(id: string): Promise<void> {
    const item = await this.summarize(id, () => false, true);
    // No index yet: the next listing builds it, with this comparison.
    if (item && (await readIndex(this.dataDir))) await this.indexed(() => false, new Set([id]), true);
  }

  /** A comparison removed: its index entry goes with it. */
  async forget(id: string): Promise<void> {
    const index = await readIndex(this.dataDir);
    if (index)
      await writeIndex(this.dataDir, {
        entries: index.entries.filter((e) => e.id !== id),
        damaged: index.damaged.filter((d) => d.id !== id),
      });
  }

  /**
   * The thorough read now: every comparison's meta.json checked against the index (one stat each), what changed
   * read again, and the order stored afresh (`parallax history --refresh`: hand edits are seen at once).
   */
  async reconcile(): Promise<void> {
    await this.indexed(() => false, new Set(), true);
  }

  /** The meta.json of the newest comparison: its summary's copy while meta.json is unchanged, else the file. */
  private async readNewest(id: string): Promise<ComparisonMeta> {
    return (await readSummaryMeta(join(this.root, id), id)) ?? (await readMeta(this.root, id));
  }

  /** Folders named like a comparison (one without a meta.json is still being set up: it is not listed). */
  private async folders(): Promise<string[]> {
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
   * The index reconciled with the folders on disk: folders it does not name (and entries that may still change,
   * damaged ones, those in `recheck` and those whose meta.json changed since they were indexed: the sweep) are
   * summarized now, entries whose folder is gone are dropped. `storeOrder`: write the order too (the quick path
   * found it stale). `items`: the list items this read built, so a page need not read them again.
   */
  private async indexed(
    isLive: IsLive,
    recheck: ReadonlySet<string> = new Set(),
    storeOrder = false,
  ): Promise<{ index: HistoryIndex; items: Map<string, ComparisonListItem> }> {
    const began = Date.now();
    // This path sweeps every entry itself: what made the order stale is found here.
    this.stale = false;
    // Stamped before the names are read: a folder added meanwhile changes it, so the order is not trusted.
    const folder = await stampBeforeReading(this.root, began);
    const since = began - SLACK_MS;
    const names = await this.folders();
    const stored = await readIndex(this.dataDir);
    const present = new Set(names);
    const kept: IndexEntry[] = [];
    const settled = new Set<string>();
    let changed = stored === null;
    for (const e of stored?.entries ?? []) {
      if (!present.has(e.id)) changed = true;
      else if (!e.recheck && !recheck.has(e.id) && !settled.has(e.id)) {
        // The sweep: a meta.json edited (a date changed by hand), damaged or replaced since, or changed too
        // close to now to be sure it was read as it is, is read again.
        const now = metaNow(this.root, e.id);
        if (now === null || now.stamp !== (e.metaStamp ?? null) || now.changedAt >= since) continue;
        kept.push(e);
        settled.add(e.id);
      }
    }
    const before = new Map((stored?.entries ?? []).filter((e) => !settled.has(e.id)).map((e) => [e.id, e]));
    const wasDamaged = new Map((stored?.damaged ?? []).map((d) => [d.id, d.reason]));
    const todo = names.filter((n) => !settled.has(n));
    const items = new Map<string, ComparisonListItem>();
    const damaged: DamagedComparison[] = [];
    const pending: string[] = [];
    const cold = todo.length >= COLD_BUILD;
    const count = (n: number) => n.toLocaleString('en-US');
    let done = 0;
    if (cold) this.onProgress(`Indexing the history: ${count(todo.length)} comparisons to read in ${this.root}…`);
    await mapLimit(todo, async (name) => {
      try {
        const item = await this.summarize(name, isLive);
        if (item) {
          items.set(name, item);
          const entry = entryOf(item, metaNow(this.root, name)?.stamp ?? null);
          kept.push(entry);
          const was = before.get(name);
          if (!was || JSON.stringify(was) !== JSON.stringify(entry)) changed = true;
        } else pending.push(name);
      } catch (err) {
        if (!(err instanceof DamagedMetaError)) throw err;
        const entry = await damagedEntry(this.root, name, err);
        damaged.push(entry);
        if (wasDamaged.get(name) !== entry.reason) changed = true;
      }
      if (cold && ++done % 2000 === 0)
        this.onProgress(`Indexing the history: ${count(done)} of ${count(todo.length)}…`);
    });
    if (cold)
      this.onProgress(
        `Indexed ${count(todo.length)} comparisons; the next listing reads the index (${join(this.dataDir, 'history-index.json')}).`,
      );
    if ((stored?.damaged.length ?? 0) !== damaged.length) changed = true;
    const index: HistoryIndex = { entries: kept, damaged };
    // Kept entries are in the stored order already; only added ones need sorting in.
    if (todo.length > 0) sortIndex(index);
    if (changed) await writeIndex(this.dataDir, index);
    if (changed || storeOrder)
      await writeOrder(
        this.dataDir,
        { ids: index.entries.map((e) => e.id), damaged: index.damaged, pending },
        folder,
        since,
      );
    return { index, items };
  }

  /** One comparison's list item: from its summary while fresh, else from its logs (then stored when settled). */
  private async summarize(name: string, isLive: IsLive, rebuild = false): Promise<ComparisonListItem | null> {
    const dir = join(this.root, name);
    const fresh = rebuild ? null : await readFreshSummary(dir, name);
    if (fresh && !fresh.meta.runs.some((r) => isLive(r.runId))) return fresh;
    let meta: ComparisonMeta;
    try {
      meta = await readMeta(this.root, name);
    } catch (err) {
      // No meta.json: a comparison still being set up (or just deleted), not listed. A damaged one: the caller's.
      if (err instanceof DamagedMetaError && !rebuild) throw err;
      if (!rebuild && !(err instanceof DamagedMetaError) && !(err instanceof MissingMetaError))
        this.onWarning(`Skipped ${dir}: ${(err as Error).message}`);
      return null;
    }
    const stamp = await stampOf(dir, meta);
    // Reading logs brings the event schema and the totals (zod, prices): loaded only when a summary is rebuilt.
    const [{ neverStarted, readRunLog }, { summarizeRun }] = await Promise.all([
      import('./run-log-reader.js'),
      import('../../shared/summary.js'),
    ]);
    const runs = [];
    const problems: string[] = [];
    const note = await readRecordingNote(dir);
    for (const [runId, why] of Object.entries(note))
      if (!isLive(runId)) problems.push(`Run ${runId} was not recorded: ${why}.`);
    let settled = true;
    for (const run of meta.runs) {
      const live = isLive(run.runId);
      // The list needs statuses and token totals only: tool outputs and programs are checked, not kept.
      const loaded = await readRunLog(join(dir, 'runs', `${run.runId}.jsonl`), run.runId, `runs/${run.runId}.jsonl`, {
        live,
        keep: (e) => LISTED_TYPES.has(e.type),
      });
      problems.push(...loaded.problems);
      const summary = summarizeRun(loaded.events);
      const status =
        summary.status === 'running' && !live
          ? neverStarted(loaded)
            ? 'never-started'
            : 'interrupted'
          : summary.status;
      if (live) settled = false;
      const variant = meta.variants?.find((v) => v.key === run.variant);
      runs.push({
        runId: run.runId,
        mode: run.mode,
        ...(variant ? { column: { key: variant.key, label: variant.label } } : {}),
        status,
        totalTokens: summary.totals.total,
        steps: summary.totals.steps,
        usageSource: summary.usageSource,
        passed: summary.validation ? summary.validation.ok : null,
      });
    }
    const item: ComparisonListItem = { meta, runs, ...(problems.length > 0 ? { problems } : {}) };
    // A read-only history still lists; it is only slower next time.
    if (settled) await writeSummary(dir, item, stamp).catch(() => undefined);
    return item;
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
