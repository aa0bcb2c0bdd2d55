/**
 * A stored suite run, opened: each task's runs from its stored comparison (history), judged by the record's
 * validations, and the leaderboard over them (shared/suite-leaderboard.ts). Figures are always recomputed
 * from the stored events, like a comparison's.
 */
import type { StoredComparison } from '../../shared/ipc-contract.js';
import type { SuiteRecord, SuiteRecordTask } from '../../shared/suite.js';
import { suiteLeaderboard, type SuiteLeaderboard, type SuiteView } from '../../shared/suite-leaderboard.js';
import type { RunSummary } from '../../shared/summary.js';
import { prepareReport } from '../host/reports/report-data.js';
import { paperTable, type PaperTable } from '../../shared/paper-table.js';
import { taskSetOf } from '../../shared/task-set-suites.js';

export interface SuiteTaskData {
  readonly task: SuiteRecordTask;
  readonly runs: readonly (RunSummary & { readonly trial: number })[];
  /** Why the task has no figures (its comparison did not start, or cannot be read). */
  readonly problem: string | null;
}

export interface SuiteData {
  readonly record: SuiteRecord;
  readonly tasks: readonly SuiteTaskData[];
  readonly leaderboard: SuiteLeaderboard;
  /** The task set's table as its paper has it; null for other suites. */
  readonly paper: PaperTable | null;
  readonly simulated: boolean;
  readonly warnings: readonly string[];
}

export async function openSuite(
  record: SuiteRecord,
  open: (comparisonId: string) => Promise<StoredComparison>,
): Promise<SuiteData> {
  const warnings: string[] = [];
  const tasks: SuiteTaskData[] = [];
  for (const task of record.tasks) {
    if (task.comparisonId === null) {
      tasks.push({ task, runs: [], problem: task.error ?? 'did not start' });
      continue;
    }
    let stored: StoredComparison;
    try {
      stored = await open(task.comparisonId);
    } catch (error) {
      tasks.push({ task, runs: [], problem: `comparison ${task.comparisonId}: ${(error as Error).message}` });
      continue;
    }
    for (const w of stored.warnings) warnings.push(`${task.taskId}: ${w}`);
    // Built-in tasks carry their validation in run-finished; custom tasks take the suite's judgement.
    const runs = prepareReport(stored).runs.map((r) => ({
      ...r.summary,
      trial: r.trial,
      validation: task.kind === 'builtin' ? r.summary.validation : (task.validations[r.runId] ?? null),
    }));
    tasks.push({ task, runs, problem: null });
  }
  const leaderboard = suiteLeaderboard(
    tasks.map((t) => ({ taskId: t.task.taskId, runs: t.runs })),
    record.modes,
  );
  const set = record.taskSet ? taskSetOf(record.taskSet) : undefined;
  const paper = set
    ? paperTable(
        tasks.map((t) => ({ taskId: t.task.taskId, runs: t.runs.map((r) => ({ trial: r.trial, summary: r })) })),
        set.modes,
      )
    : null;
  return { record, tasks, leaderboard, paper, simulated: record.provider?.simulated ?? false, warnings };
}

/** What the app shows (suites:open): no events, only the figures. */
export function suiteView(d: SuiteData): SuiteView {
  return {
    record: d.record,
    leaderboard: d.leaderboard,
    simulated: d.simulated,
    problems: d.tasks.filter((t) => t.problem).map((t) => `${t.task.taskId}: ${t.problem}`),
    paper: d.paper,
  };
}
