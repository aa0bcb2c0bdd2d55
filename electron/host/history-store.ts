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
 *
 * This class is the one door; the parts live beside it: history-meta.ts (reading meta.json), run-log-writer.ts
 * (writing logs and the recording note), run-log-reader.ts (reading logs), history-list.ts with
 * history-index.ts and history-summary.ts (the list, its pages and `latest`).
 */
import { chmod, mkdir, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import type {
  ComparisonListItem,
  ComparisonMeta,
  DamagedComparison,
  HistoryPage,
  HistoryQuery,
  StoredComparison,
} from '../../shared/ipc-contract.js';
import { MODE_LABELS } from '../../shared/modes.js';
import type { StepEvent } from '../../shared/step-event.js';
import { HistoryList, type SweepWhen } from './history-list.js';
import { checkId, readMeta } from './history-meta.js';
import { finishRecording, readRecordingNote, RunLog, startRecording, writeAtomic } from './run-log-writer.js';
import { writeFailureMessage } from './write-failure.js';
import { PRIVATE_DIR } from './private-files.js';

export type { LoadedRun } from './run-log-reader.js';
export { checkId, DamagedMetaError } from './history-meta.js';
export { RunLog, type RecordingNote } from './run-log-writer.js';

type IsLive = (runId: string) => boolean;

export class HistoryStore {
  readonly root: string;
  private readonly listing: HistoryList;

  constructor(
    readonly dataDir: string,
    private readonly onWarning: (message: string) => void = () => {},
    /** A line now and then while a cold index is built (the CLI prints it on stderr). */
    onProgress: (line: string) => void = () => {},
    /** When unfiltered pages check the meta.json files for edits: before answering, just after (a host), or not (history-list.ts). */
    sweep: SweepWhen = 'now',
  ) {
    this.root = join(dataDir, 'comparisons');
    this.listing = new HistoryList(this.root, dataDir, onWarning, onProgress, sweep);
  }

  /** The meta.json sweep a listing started ('after'), done. */
  swept(): Promise<void> {
    return this.listing.swept();
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
      await mkdir(join(dir, 'runs'), { recursive: true, mode: PRIVATE_DIR });
      // The workspaces may have made the folder already: it is the user's alone all the same.
      await chmod(dir, PRIVATE_DIR);
      await startRecording(dir);
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

  /** The comparison's end: the note removed when every run is on disk, else rewritten with those not recorded. */
  finishRecording(id: string, notRecorded: ReadonlyMap<string, string>): Promise<void> {
    return finishRecording(this.dir(id), notRecorded);
  }

  /** The runs a comparison did not record in full, by run id (empty: none known). */
  recordingNote(id: string): Promise<Readonly<Record<string, string>>> {
    return readRecordingNote(this.dir(id));
  }

  readMeta(id: string): Promise<ComparisonMeta> {
    return readMeta(this.root, id);
  }

  /** Everything stored for one comparison. `isLive(runId)`: the run is still going in this host. */
  async open(id: string, isLive: IsLive = () => false): Promise<StoredComparison> {
    const meta = await this.readMeta(id);
    // The log reader brings the event schema (zod): loaded by what reads logs, not by every listing.
    const { neverStarted, readRunLog } = await import('./run-log-reader.js');
    const events: StepEvent[] = [];
    const warnings: string[] = [];
    const interruptedRunIds: string[] = [];
    const several = meta.runs.some((r) => (r.trial ?? 1) > 1);
    const note = await this.recordingNote(id);
    for (const run of meta.runs) {
      const live = isLive(run.runId);
      const loaded = await readRunLog(this.runLogPath(id, run.runId), run.runId, `runs/${run.runId}.jsonl`, { live });
      events.push(...loaded.events);
      const label = `${meta.variants?.find((v) => v.key === run.variant)?.label ?? MODE_LABELS[run.mode] ?? run.mode}${several ? ` #${run.trial ?? 1}` : ''}`;
      const notRecorded = live ? undefined : note[run.runId];
      if (notRecorded !== undefined) {
        // Its log ends where the disk refused it: not a host that stopped, so no torn-line warning.
        interruptedRunIds.push(run.runId);
        warnings.push(
          ...loaded.problems,
          `The ${label} run (${run.runId}) was not recorded: ${notRecorded}. Its ${loaded.events.length} events that reached the disk are kept.`,
        );
        continue;
      }
      warnings.push(...loaded.problems, ...loaded.warnings);
      if (!live && neverStarted(loaded)) {
        interruptedRunIds.push(run.runId);
        warnings.push(
          `The ${label} run (${run.runId}) never started: the host stopped before its round began, so nothing of it was recorded.`,
        );
      } else if (!live && !loaded.events.some((e) => e.type === 'run-finished')) {
        interruptedRunIds.push(run.runId);
        warnings.push(
          `The ${label} run (${run.runId}) has no run-finished event: the host stopped before it ended, ` +
            `so it is shown as interrupted. Its ${loaded.events.length} recorded events are kept.`,
        );
      }
    }
    return {
      meta,
      events,
      warnings,
      interruptedRunIds,
      ...(Object.keys(note).length > 0 ? { notRecorded: note } : {}),
    };
  }

  /**
   * Every comparison whose meta.json is sound, newest first, each with its runs' status and totals and the
   * damage found in its run logs. Damaged comparisons are left out here and listed by listDamaged.
   */
  async list(isLive: IsLive = () => false): Promise<ComparisonListItem[]> {
    return (await this.scan(isLive)).items;
  }

  /** list and listDamaged in one pass (the CLI's `history` shows both); `limit`: only the newest so many. */
  async scan(
    isLive: IsLive = () => false,
    limit = Infinity,
  ): Promise<{ items: ComparisonListItem[]; damaged: DamagedComparison[]; total: number }> {
    const page = await this.page({ offset: 0, limit }, isLive);
    return { items: [...page.items], damaged: page.damaged, total: page.total };
  }

  /** One page of the list (search and filters applied), from the index. */
  page(
    query: HistoryQuery = {},
    isLive: IsLive = () => false,
  ): Promise<HistoryPage & { damaged: DamagedComparison[] }> {
    return this.listing.page(query, isLive);
  }

  /** The newest comparison whose meta.json is sound (by createdAt), without reading any run log; null when none. */
  async latest(): Promise<{ readonly meta: ComparisonMeta } | null> {
    const { meta } = await this.newest();
    return meta ? { meta } : null;
  }

  /** latest and listDamaged in one pass (`report latest` needs both), from the index. */
  newest(): Promise<{ meta: ComparisonMeta | null; damaged: DamagedComparison[] }> {
    return this.listing.newest();
  }

  /** Check every comparison's meta.json against the index now and store the order afresh (hand edits seen at once). */
  reconcile(): Promise<void> {
    return this.listing.reconcile();
  }

  /** Comparisons whose meta.json is damaged, newest first, each with the reason (one stat per comparison). */
  listDamaged(): Promise<DamagedComparison[]> {
    return this.listing.listDamaged();
  }

  /** Rebuild and store a comparison's summary now, and its index entry (the host calls it when the comparison has ended). */
  refreshSummary(id: string): Promise<void> {
    return this.listing.refresh(checkId(id, 'comparison'));
  }

  async delete(id: string): Promise<void> {
    const dir = this.dir(id);
    try {
      await stat(join(dir, 'meta.json'));
    } catch {
      throw new Error(
        `No comparison "${id}" in ${this.root}. It may have been deleted already; refresh the history list.`,
      );
    }
    await rm(dir, { recursive: true, force: true });
    await this.listing.forget(id);
  }
}
