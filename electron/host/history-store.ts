/**
 * History on disk, no database: <dataDir>/comparisons/<id>/meta.json plus runs/<runId>.jsonl, one StepEvent
 * per line, appended as events arrive and fsynced when the run ends. Nothing lives only in memory, so a
 * host that dies leaves readable history: runs without run-finished load as interrupted, and a torn last
 * line is skipped with a warning.
 */
import { mkdir, open, readdir, readFile, rename, rm, stat, writeFile, type FileHandle } from 'node:fs/promises';
import { join } from 'node:path';
import type { ComparisonListItem, ComparisonMeta, StoredComparison } from '../../shared/ipc-contract.js';
import { MODE_LABELS } from '../../shared/run-spec.js';
import { isStepEvent, type StepEvent } from '../../shared/step-event.js';
import { summarizeRun } from '../../shared/summary.js';

const ID_PATTERN = /^[A-Za-z0-9][A-Za-z0-9_-]{0,127}$/;

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

  constructor(readonly path: string, private readonly onError: (message: string) => void) {}

  append(events: readonly StepEvent[]): void {
    if (events.length === 0 || this.closed) return;
    const text = events.map((e) => JSON.stringify(e)).join('\n') + '\n';
    this.chain = this.chain.then(async () => {
      try {
        this.handle ??= open(this.path, 'a');
        await (await this.handle).write(text);
      } catch (err) {
        this.onError(`Could not write ${events.length} events to ${this.path}: ${(err as Error).message}`);
      }
    });
  }

  /** Flush to disk and close; later appends are ignored. */
  finish(): Promise<void> {
    if (this.closed) return this.chain;
    this.closed = true;
    this.chain = this.chain.then(async () => {
      if (!this.handle) return;
      try {
        const fh = await this.handle;
        await fh.sync();
        await fh.close();
      } catch (err) {
        this.onError(`Could not sync ${this.path}: ${(err as Error).message}`);
      }
    });
    return this.chain;
  }
}

export interface LoadedRun {
  readonly events: StepEvent[];
  readonly warnings: string[];
}

/** Parse one run's JSONL. `live`: the run is still being written, so a partial last line is expected. */
export function parseRunLog(text: string, runId: string, file: string, live = false): LoadedRun {
  const events: StepEvent[] = [];
  const warnings: string[] = [];
  const lines = text.split('\n');
  const lastIndex = lines.length - 1;
  lines.forEach((line, i) => {
    if (line.trim() === '') return;
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch {
      if (i === lastIndex) {
        if (!live) warnings.push(`${file}: skipped a torn last line (${line.length} characters) — the host stopped while writing it; the ${events.length} events before it are intact.`);
      } else {
        warnings.push(`${file}: skipped unreadable line ${i + 1}.`);
      }
      return;
    }
    if (!isStepEvent(value) || value.runId !== runId) {
      warnings.push(`${file}: skipped line ${i + 1}, which is not a step event of run ${runId}.`);
      return;
    }
    const expected = events.length === 0 ? 0 : events[events.length - 1].seq + 1;
    if (value.seq !== expected) warnings.push(`${file}: seq jumps from ${expected - 1} to ${value.seq} at line ${i + 1}; some events are missing.`);
    events.push(value);
  });
  return { events, warnings };
}

export class HistoryStore {
  readonly root: string;

  constructor(readonly dataDir: string, private readonly onWarning: (message: string) => void = () => {}) {
    this.root = join(dataDir, 'comparisons');
  }

  dir(id: string): string {
    return join(this.root, checkId(id, 'comparison'));
  }

  runLogPath(id: string, runId: string): string {
    return join(this.dir(id), 'runs', `${checkId(runId, 'run')}.jsonl`);
  }

  /** Create the comparison's folder and write its meta.json atomically. */
  async create(meta: ComparisonMeta): Promise<void> {
    const dir = this.dir(meta.id);
    await mkdir(join(dir, 'runs'), { recursive: true });
    const tmp = join(dir, 'meta.json.tmp');
    await writeFile(tmp, JSON.stringify(meta, null, 2) + '\n');
    await rename(tmp, join(dir, 'meta.json'));
  }

  openRunLog(id: string, runId: string): RunLog {
    return new RunLog(this.runLogPath(id, runId), this.onWarning);
  }

  async readMeta(id: string): Promise<ComparisonMeta> {
    const file = join(this.dir(id), 'meta.json');
    let text: string;
    try {
      text = await readFile(file, 'utf8');
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') throw new Error(`No comparison "${id}" in ${this.root}. It may have been deleted; refresh the history list.`);
      throw err;
    }
    try {
      return JSON.parse(text) as ComparisonMeta;
    } catch {
      throw new Error(`${file} is not valid JSON; the comparison cannot be opened. Delete it, or repair the file by hand.`);
    }
  }

  private async loadRun(id: string, runId: string, live: boolean): Promise<LoadedRun> {
    const file = this.runLogPath(id, runId);
    let text = '';
    try {
      text = await readFile(file, 'utf8');
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
    }
    return parseRunLog(text, runId, `runs/${runId}.jsonl`, live);
  }

  /** Everything stored for one comparison. `isLive(runId)`: the run is still going in this host. */
  async open(id: string, isLive: (runId: string) => boolean = () => false): Promise<StoredComparison> {
    const meta = await this.readMeta(id);
    const events: StepEvent[] = [];
    const warnings: string[] = [];
    const interruptedRunIds: string[] = [];
    const several = meta.runs.some((r) => (r.trial ?? 1) > 1);
    for (const run of meta.runs) {
      const live = isLive(run.runId);
      const loaded = await this.loadRun(id, run.runId, live);
      events.push(...loaded.events);
      warnings.push(...loaded.warnings);
      if (!live && !loaded.events.some((e) => e.type === 'run-finished')) {
        interruptedRunIds.push(run.runId);
        warnings.push(
          `The ${MODE_LABELS[run.mode] ?? run.mode}${several ? ` #${run.trial ?? 1}` : ''} run (${run.runId}) has no run-finished event: the host stopped before it ended, ` +
            `so it is shown as interrupted. Its ${loaded.events.length} recorded events are kept.`,
        );
      }
    }
    return { meta, events, warnings, interruptedRunIds };
  }

  /** Every comparison, newest first. Unreadable folders are skipped with a warning. */
  async list(isLive: (runId: string) => boolean = () => false): Promise<ComparisonListItem[]> {
    let names: string[];
    try {
      names = await readdir(this.root);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return [];
      throw err;
    }
    const items: ComparisonListItem[] = [];
    for (const name of names) {
      if (!ID_PATTERN.test(name)) continue;
      // A folder without meta.json is a comparison still being set up (or one whose set-up failed): not listed.
      if (!(await stat(join(this.root, name, 'meta.json')).catch(() => null))) continue;
      let meta: ComparisonMeta;
      try {
        meta = await this.readMeta(name);
      } catch (err) {
        this.onWarning(`Skipped ${join(this.root, name)}: ${(err as Error).message}`);
        continue;
      }
      const runs = [];
      for (const run of meta.runs) {
        const live = isLive(run.runId);
        const { events } = await this.loadRun(name, run.runId, live);
        const summary = summarizeRun(events);
        const status = summary.status === 'running' && !live ? 'interrupted' : summary.status;
        runs.push({ runId: run.runId, mode: run.mode, status, totalTokens: summary.totals.total, steps: summary.totals.steps, usageSource: summary.usageSource });
      }
      items.push({ meta, runs });
    }
    return items.sort((a, b) => b.meta.createdAt - a.meta.createdAt);
  }

  async delete(id: string): Promise<void> {
    const dir = this.dir(id);
    try {
      await stat(join(dir, 'meta.json'));
    } catch {
      throw new Error(`No comparison "${id}" in ${this.root}. It may have been deleted already; refresh the history list.`);
    }
    await rm(dir, { recursive: true, force: true });
  }
}
