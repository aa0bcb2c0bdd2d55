/**
 * A built-in task is one definition: the files of its workspace, the tools it brings, how its answer is
 * judged, and how the simulated model does it in each mode. The registry (index.ts) lists each definition
 * once; the task's card (title, text, what it exercises), which every runtime shows, is in shared/tasks.ts.
 * A set of tasks that share tools (a benchmark's domains) is made of the same definitions (task-set.ts).
 */
import type { ModeId } from '../../shared/modes.js';
import type { Validation } from '../../shared/step-event.js';
import type { TaskToolOffer, ValidateContext } from '../engine/run-task.js';
import type { ToolDefinition } from '../engine/tools/tool.js';
import type { Conversation } from '../sim/policies/conversation.js';
import type { SimReply } from '../sim/types.js';

/** A file of a task's workspace; its name may hold folders (`services/billing.json`). */
export interface WorkspaceFile {
  readonly name: string;
  readonly content: string;
}

/** Which task policies a simulated mode follows unless the task names one of its own for that mode. */
export type PolicyFamily = 'react' | 'code';

/**
 * How the simulated model does the task. `detect` reads the task (and what varies in it: a city, a file
 * name) from the user's words, as any agent may phrase it; the policies then decide each reply from the
 * conversation so far, reading the real tool results, so the answer is right for whatever the workspace holds.
 * Policies are methods, so a definition's parameters stay its own (the registry holds them erased).
 */
export interface TaskSim<P> {
  /** The task's parameters when the words ask for this task, else null. */
  detect(text: string): P | null;
  /** ReAct's policy: tools called by name (ReAct, ReAct (text); the other modes unless they say otherwise). */
  react(conv: Conversation, params: P): SimReply;
  /** Code Mode's policy: programs for run_code, in the language its description asks for (Code Mode, Python, Hybrid). */
  code(conv: Conversation, params: P): SimReply;
  /** A mode that does this task otherwise than its family: ReAct + tool search searching first, Hybrid looking directly. */
  readonly modes?: Partial<Readonly<Record<ModeId, SimPolicy<P>>>>;
}

export type SimPolicy<P> = (conv: Conversation, params: P) => SimReply;

export interface TaskDefinition<Id extends string, P extends object> {
  /** The id of its card in shared/tasks.ts (what `--task`, suites and records name). */
  readonly id: Id;
  /** The workspace's files for a seed (the same seed, the same bytes); absent: an empty workspace. */
  workspace?(seed: number): readonly WorkspaceFile[];
  /** Tools the task brings to its runs, made once per run; every mode offers them its own way. */
  tools?(): readonly ToolDefinition[];
  /** Whether they come after the profile's tools (default) or instead of them (engine/run-task.ts). */
  readonly toolOffer?: TaskToolOffer;
  /** The answer judged against the truth recomputed at validation time, never against a stored run. */
  validate(answer: string, ctx: ValidateContext): Validation | Promise<Validation>;
  /** A harness that answers a wrong answer and lets the run go on (loop.ts answerFeedback): its words, or null. */
  answerFeedback?(answer: string): string | null;
  readonly sim: TaskSim<P>;
}

/** A task the simulated model recognised: its parameters, and its policy for a mode bound to them. */
export interface SimTaskMatch {
  readonly task: Task;
  readonly params: object;
  policy(mode: ModeId, family: PolicyFamily): (conv: Conversation) => SimReply;
}

/** A definition as the registry holds it: the same parts, its parameters bound in `simMatch`. */
export interface Task<Id extends string = string> {
  readonly id: Id;
  workspace?(seed: number): readonly WorkspaceFile[];
  tools?(): readonly ToolDefinition[];
  readonly toolOffer?: TaskToolOffer;
  validate(answer: string, ctx: ValidateContext): Validation | Promise<Validation>;
  answerFeedback?(answer: string): string | null;
  /** The task as the simulated model reads it from the user's words, or null when the words are another task. */
  simMatch(text: string): SimTaskMatch | null;
}

/** A task's definition, its id kept as a literal so the registry can check that every card has one. */
export function defineTask<const Id extends string, P extends object>(definition: TaskDefinition<Id, P>): Task<Id> {
  const { sim, ...parts } = definition;
  const task: Task<Id> = {
    ...parts,
    simMatch(text) {
      const params = sim.detect(text);
      if (params === null) return null;
      return {
        task,
        params,
        policy: (mode, family) => {
          const own = sim.modes?.[mode];
          return own
            ? (conv) => own(conv, params)
            : family === 'react'
              ? (conv) => sim.react(conv, params)
              : (conv) => sim.code(conv, params);
        },
      };
    },
  };
  return task;
}
