/**
 * Runs a suite through the host exactly as `parallax compare` runs one task: one comparison per task (a custom
 * task's fixture folder is its workspace source), then judges each answered run with the task's validator and
 * records the suite run in `<data>/suites/<id>.json` after every task, in suite order. With a concurrency above
 * 1, that many comparisons are in flight at once; the host's scheduler for the provider bounds the rounds of all
 * of them together (electron/host/round-scheduler.ts), so a 429 slows the whole suite.
 */
import { availableParallelism } from 'node:os';
import { defaultConcurrency } from '../../shared/concurrency.js';
import type { ComparisonMeta, StoredComparison } from '../../shared/ipc-contract.js';
import type { ComparisonRequest, ModeId, RunSettingsInput } from '../../shared/run-spec.js';
import type { Validation } from '../../shared/step-event.js';
import type { SuiteRecord, SuiteRecordTask, SuiteTask } from '../../shared/suite.js';
import type { VariantInput } from '../../shared/variants.js';
import type { Host } from '../host/host.js';
import { prepareReport } from '../host/reports/report-data.js';
import type { LoadedSuite } from './load-suite.js';
import { SuiteStore } from './suite-store.js';
import { validateSuiteAnswer } from './validators.js';

export interface RunSuiteOptions {
  readonly host: Host;
  readonly suite: LoadedSuite;
  readonly modes: readonly ModeId[];
  /** The columns of every task's comparison, when the suite runs variants (then `modes` are theirs). */
  readonly variants?: readonly VariantInput[] | null;
  readonly trials: number;
  readonly provider: ComparisonRequest['provider'];
  readonly settings: RunSettingsInput;
  readonly store: SuiteStore;
  /** Rounds in flight at once across the suite (default: the provider's, shared/concurrency.ts). */
  readonly concurrency?: number;
  onTaskStart?(task: SuiteTask, index: number, meta: ComparisonMeta): void;
  onTaskEnd?(task: SuiteTask, index: number, stored: StoredComparison | null, error: string | null): void;
  /** Checked before each task: true stops the suite (the tasks run so far stay recorded). */
  stopped?(): boolean;
}

/** The judgement of every run: the suite validator for custom tasks, the run's own for built-in ones. */
export async function judgeRuns(task: SuiteTask, stored: StoredComparison): Promise<Record<string, Validation | null>> {
  const out: Record<string, Validation | null> = {};
  for (const r of prepareReport(stored).runs) {
    const s = r.summary;
    if (task.kind === 'builtin') out[r.runId] = s.validation;
    else
      out[r.runId] =
        s.status === 'answered' && task.validator ? await validateSuiteAnswer(task.validator, s.answer) : null;
  }
  return out;
}

export async function runSuite(opts: RunSuiteOptions): Promise<SuiteRecord> {
  const { host, suite } = opts;
  const done: (SuiteRecordTask | undefined)[] = [];
  let record: SuiteRecord = {
    version: 1,
    id: SuiteStore.newId(),
    name: suite.name,
    source: suite.source,
    createdAt: Date.now(),
    modes: [...opts.modes],
    ...(opts.variants ? { variants: [...opts.variants] } : {}),
    trials: opts.trials,
    provider: null,
    tasks: [],
    ...(suite.taskSet ? { taskSet: suite.taskSet } : {}),
  };
  // Written after every task, with the tasks ended so far in suite order; writes never overlap.
  let writing = Promise.resolve();
  const save = (): Promise<void> =>
    (writing = writing.then(() =>
      opts.store.write({ ...record, tasks: done.filter((t): t is SuiteRecordTask => t !== undefined) }),
    ));

  const runTask = async (task: SuiteTask, i: number): Promise<void> => {
    const entry = {
      taskId: task.id,
      kind: task.kind,
      text: task.text,
      validator: task.kind === 'custom' ? task.validator : null,
    };
    const request: ComparisonRequest = {
      task: task.kind === 'builtin' ? task.id : task.text,
      modes: opts.modes,
      trials: opts.trials,
      provider: opts.provider,
      settings: opts.settings,
      ...(opts.variants ? { variants: opts.variants } : {}),
      workspaceDir: suite.fixtures.get(task.id) ?? null,
      ...(opts.concurrency !== undefined ? { concurrency: opts.concurrency } : {}),
    };
    let meta: ComparisonMeta;
    try {
      meta = await host['comparison:start'](request);
    } catch (error) {
      const message = (error as Error).message;
      done[i] = { ...entry, comparisonId: null, error: message, validations: {} };
      opts.onTaskEnd?.(task, i, null, message);
      await save();
      return;
    }
    record = { ...record, provider: record.provider ?? meta.provider };
    opts.onTaskStart?.(task, i, meta);
    await host.whenDone(meta.id);
    const stored = await host['history:open'](meta.id);
    done[i] = { ...entry, comparisonId: meta.id, error: null, validations: await judgeRuns(task, stored) };
    await save();
    opts.onTaskEnd?.(task, i, stored, null);
  };

  const lanes = opts.concurrency ?? defaultConcurrency(opts.provider.name === 'simulated', availableParallelism());
  let next = 0;
  const lane = async (): Promise<void> => {
    while (next < suite.tasks.length && !opts.stopped?.()) {
      const i = next++;
      await runTask(suite.tasks[i], i);
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(lanes, suite.tasks.length)) }, lane));
  record = { ...record, tasks: done.filter((t): t is SuiteRecordTask => t !== undefined) };
  await writing;
  await opts.store.write(record);
  return record;
}
