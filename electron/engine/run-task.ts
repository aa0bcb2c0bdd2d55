/**
 * What the engine needs of a run's built-in task: the tools it brings and how its answer is judged. The
 * engine knows no task by name; each task is one definition in electron/tasks/ (which the engine never
 * imports), and whoever starts a run (the worker, `parallax run`) hands the engine that task's RunTask.
 */
import type { Validation } from '../../shared/step-event.js';
import type { ToolDefinition } from './tools/tool.js';

export interface ValidateContext {
  /** The run's workspace as the run left it. */
  readonly workspace: string;
  /** The task's text as the model read it (a fixture page's URL filled in). */
  readonly taskText: string;
  /** The moment the answer is judged against (default: now). */
  readonly now?: Date;
  /** The run's fixture server (tasks that read its pages). */
  readonly fixtureUrl?: string | null;
}

/**
 * How a task's tools are offered. 'beside': after the profile's, hidden in Code Mode and ReAct + tool search
 * until search_tools finds them. 'instead': the run's only tools (a benchmark that brings its own: the
 * profile's would be tools its tasks never had, some with the same names), listed in Code Mode's catalog;
 * ReAct + tool search still finds them by search.
 */
export type TaskToolOffer = 'beside' | 'instead';

/** The tools a run's task brings and how they are offered (modes/toolsets.ts reads them). */
export interface TaskTools {
  /** Made for this run (a tool may keep state for it, as a browser keeps its page). */
  readonly tools: readonly ToolDefinition[];
  readonly offer: TaskToolOffer;
}

export interface RunTask extends TaskTools {
  readonly id: string;
  /** The task's harness on a final answer: its feedback when wrong (the run goes on), else null. */
  answerFeedback?(answer: string): Promise<string | null>;
  /** The answer judged against the truth recomputed now; a judge that throws is reported as a failed check. */
  validate(answer: string, ctx: ValidateContext): Promise<Validation>;
}
