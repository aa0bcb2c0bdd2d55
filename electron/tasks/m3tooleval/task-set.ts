/**
 * M3ToolEval registered as a task set (electron/tasks/task-set.ts): per domain, its tasks, its tools made per
 * run and only those offered, the paper's scoring and the harness's feedback on a wrong answer, and the
 * simulated model's policies (ReAct + tool search first finds the tools its plan needs).
 */
import type { Validation } from '../../../shared/step-event.js';
import { findTools } from '../../sim/policies/react-search.js';
import type { Conversation } from '../../sim/policies/conversation.js';
import { defineDomain, defineTaskSet, type SetTask } from '../task-set.js';
import { M3_DOMAINS, M3_TASKS, type M3Task } from './m3-tasks.js';
import { str } from './py-value.js';
import { answerFeedback, kindOf, scoreAnswer } from './score.js';
import { m3Code, m3React } from './sim/index.js';
import { readPlan } from './sim/read-plan.js';
import { m3ToolDefinitions } from './tool-definitions.js';

interface M3SetTask extends SetTask {
  readonly m3: M3Task;
}

/** The paper's verdict in words: what was expected, what the answer read as, which step matched or why none did. */
export function m3Validation(answer: string, task: M3Task): Validation {
  const s = scoreAnswer(answer, task.expected);
  const expected = `${task.expectedRepr} (${kindOf(task.expected)})`;
  return {
    ok: s.ok,
    detail: s.ok
      ? `Expected ${expected}; the answer "${s.answer}" matches by M3ToolEval's scoring: ${s.how}.`
      : `Expected ${expected}; the answer read as "${s.answer}" does not match by M3ToolEval's scoring (exact match after its normalisation): ${s.how}.`,
  };
}

/** The tools a task's plan calls (web browsing: the browser's), which ReAct + tool search looks for first. */
function neededTools(task: M3Task): string[] {
  if (task.domain.id === 'web_browsing') return ['view', 'scroll_down', 'click_url', 'calculator'];
  return [...new Set((readPlan(task)?.steps ?? []).flatMap((s) => (s.tool ? [s.tool] : [])))];
}

const sim = {
  react: (conv: Conversation, t: M3SetTask) => m3React(conv, { task: t.m3 }),
  code: (conv: Conversation, t: M3SetTask) => m3Code(conv, { task: t.m3 }),
  modes: {
    'react-search': (conv: Conversation, t: M3SetTask) =>
      findTools(conv, neededTools(t.m3)) ?? m3React(conv, { task: t.m3 }),
  },
};

export const M3TOOLEVAL = defineTaskSet(
  ...M3_DOMAINS.map((domain) =>
    defineDomain<M3SetTask>({
      tasks: M3_TASKS.filter((t) => t.domain === domain).map((t) => ({
        id: t.id,
        instruction: t.instruction,
        expected: str(t.expected),
        m3: t,
      })),
      tools: () => m3ToolDefinitions(domain.tools),
      toolOffer: 'instead',
      score: (answer, t) => m3Validation(answer, t.m3),
      feedback: (answer, t) => answerFeedback(answer, t.m3.expected),
      sim,
    }),
  ),
);
