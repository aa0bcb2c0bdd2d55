/**
 * Writing the history as a comparison runs: each run's append-only log (RunLog) and the comparison's recording
 * note, both made to fail loudly: a write the disk refuses marks the run "not recorded" with the cause, later
 * events are not written, and no half-written file is left behind.
 */
import { open, readFile, rename, rm, writeFile, type FileHandle } from 'node:fs/promises';
import { join } from 'node:path';
import type { StepEvent } from '../../shared/step-event.js';
import { PRIVATE_FILE } from './private-files.js';
import { writeCause } from './write-failure.js';

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
        this.handle ??= open(this.path, 'a', PRIVATE_FILE);
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

/** The note of a comparison just created in `dir`: nothing missing yet, with room for the reasons. */
export async function startRecording(dir: string): Promise<void> {
  await writeFile(join(dir, RECORDING_FILE), JSON.stringify({ notRecorded: {} }).padEnd(RECORDING_BYTES - 1) + '\n', {
    mode: PRIVATE_FILE,
  });
}

/**
 * The comparison's end: with every run on disk its recording note is removed; otherwise the note is
 * rewritten in place with the runs not recorded and why (same blocks: this needs no free space).
 */
export async function finishRecording(dir: string, notRecorded: ReadonlyMap<string, string>): Promise<void> {
  const file = join(dir, RECORDING_FILE);
  if (notRecorded.size === 0) {
    await rm(file, { force: true });
    return;
  }
  let text = JSON.stringify({ notRecorded: Object.fromEntries(notRecorded) } satisfies RecordingNote);
  if (text.length > RECORDING_BYTES - 1)
    text = JSON.stringify({
      notRecorded: Object.fromEntries([...notRecorded.keys()].map((k) => [k, 'the history could not be written'])),
    });
  const fh = await open(file, 'r+');
  try {
    await fh.write(text.padEnd(RECORDING_BYTES - 1) + '\n', 0);
    await fh.sync().catch(() => undefined);
  } finally {
    await fh.close();
  }
}

/** The runs a comparison did not record in full, by run id (empty: none known). */
export async function readRecordingNote(dir: string): Promise<Readonly<Record<string, string>>> {
  try {
    const value = JSON.parse(await readFile(join(dir, RECORDING_FILE), 'utf8')) as Partial<RecordingNote> | null;
    const out: Record<string, string> = {};
    if (value && typeof value.notRecorded === 'object' && value.notRecorded !== null) {
      for (const [k, v] of Object.entries(value.notRecorded)) if (typeof v === 'string') out[k] = v.slice(0, 300);
    }
    return out;
  } catch {
    return {};
  }
}

/** Removes a temp file whose write failed: a half-written file is never left behind. */
export async function writeAtomic(file: string, tmp: string, text: string): Promise<void> {
  try {
    await writeFile(tmp, text, { mode: PRIVATE_FILE });
    await rename(tmp, file);
  } catch (err) {
    await rm(tmp, { force: true }).catch(() => undefined);
    throw err;
  }
}
