/**
 * The simulated model on M3ToolEval: it recognises a task by its instruction, reads the plan from the words
 * (read-plan.ts) or, for web browsing, the goal, and follows it the way of the request's mode: ReAct reads every
 * real tool result before its next calls, Code Mode writes programs and reads what they print.
 */
import type { SimReply } from '../../../sim/types.js';
import type { Conversation } from '../../../sim/policies/conversation.js';
import { m3TaskOf, type M3Task } from '../m3-tasks.js';
import { m3Failure } from './answer.js';
import { codePlan } from './code-policy.js';
import { reactPlan } from './react-policy.js';
import { readPlan } from './read-plan.js';
import { codeWeb } from './web-code.js';
import { reactWeb } from './web-react.js';
import { webGoal } from './web-site.js';

export interface M3SimParams {
  readonly task: M3Task;
}

export function detectM3(text: string): M3SimParams | null {
  const task = m3TaskOf(text);
  return task ? { task } : null;
}

const unread = (task: M3Task): SimReply =>
  m3Failure(`I could not work out how to do this task from its words (${task.name}).`);

export function m3React(conv: Conversation, { task }: M3SimParams): SimReply {
  if (task.domain.id === 'web_browsing') {
    const goal = webGoal(task.instruction);
    return goal ? reactWeb(conv, goal) : unread(task);
  }
  const plan = readPlan(task);
  return plan ? reactPlan(conv, plan, task.domain.tools, task.name) : unread(task);
}

export function m3Code(conv: Conversation, { task }: M3SimParams): SimReply {
  if (task.domain.id === 'web_browsing') {
    const goal = webGoal(task.instruction);
    return goal ? codeWeb(conv, goal) : unread(task);
  }
  const plan = readPlan(task);
  return plan ? codePlan(conv, plan, task.name) : unread(task);
}
