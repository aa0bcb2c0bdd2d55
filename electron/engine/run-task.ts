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

export interface RunTask {
  readonly id: string;
  /** Tools the task brings on top of the run's profile, made for this run (a tool may keep state for it). */
  readonly tools: readonly ToolDefinition[];
  /** The task's tools are all the run offers, in every mode (Code Mode's catalog lists them all). */
  readonly ownToolsOnly?: boolean;
  /** The task's harness on a final answer: its feedback when wrong (the run goes on), else null. */
  answerFeedback?(answer: string): Promise<string | null>;
  /** The answer judged against the truth recomputed now; a judge that throws is reported as a failed check. */
  validate(answer: string, ctx: ValidateContext): Promise<Validation>;
}
