/**
 * Picks the scripted policy for a request: the task from the user's words (each built-in task's detector,
 * electron/tasks/, so any OpenAI-compatible agent using the same tool names can drive it), the mode from the
 * tools offered (modeOf), the step from the conversation so far, the variation from the trial number. Pure:
 * same request and trial, same reply.
 */
import type { ModeId } from '../../../shared/modes.js';
import { BUILTIN_TASKS } from '../../../shared/tasks.js';
import { answer, type SimReply, type WireMessage, type WireTool } from '../types.js';
import { finalAnswer, SIM_LABEL } from './common.js';
import { plannedKey, readConversation, type Conversation } from './conversation.js';
import { simModeOf } from './sim-modes.js';
import type { SimModelId } from '../../../shared/sim-models.js';
import { TASKS } from '../../tasks/index.js';
import type { SimTaskMatch, Task } from '../../tasks/task.js';

/** A reply after this many assistant turns is always a plain answer, whatever happened: it never loops. */
export const MAX_TURNS = 8;

/** The first task (in the registry's order) whose detector claims the words, with what varies in it. */
export function matchTask(text: string, tasks: readonly Task[] = TASKS): SimTaskMatch | null {
  for (const task of tasks) {
    const match = task.simMatch(text);
    if (match) return match;
  }
  return null;
}

/** The task the words ask for, as its id and parameters (`{ id: 'calc', expression: '2 + 2' }`), or null. */
export function detectTask(text: string, tasks: readonly Task[] = TASKS): ({ readonly id: string } & object) | null {
  const match = matchTask(text, tasks);
  return match ? { id: match.task.id, ...match.params } : null;
}

export function unknownTaskAnswer(): SimReply {
  return answer(
    [
      "I am Parallax's simulated model: an offline stand-in that follows scripted policies, not a language model.",
      'I only know the built-in tasks:',
      ...BUILTIN_TASKS.map((t) => `- ${t.id}: ${t.title}`),
      'To run any other task, choose a real OpenAI-compatible provider (OpenAI, DeepSeek, OpenRouter, or a local Ollama, LM Studio or vLLM) with its model and API key.',
      '',
      SIM_LABEL,
    ].join('\n'),
  );
}

/**
 * The mode, from the tools offered (sim-modes.ts: each mode's detector): run_code alone is Code Mode (Python
 * when its description asks for it), run_code beside direct tools is Hybrid, search_tools without run_code is
 * ReAct + tool search, none with the Thought / Action format in the system prompt is ReAct (text), anything
 * else is ReAct.
 */
export function modeOf(
  toolNames: ReadonlySet<string>,
  context: { readonly systemPrompt?: string; readonly runCodeDescription?: string } = {},
): ModeId {
  return simModeOf({ toolNames, ...context }).id;
}

/**
 * The request's mode decides which of the task's policies replies: the task's own for that mode, else its
 * family's (a text mode's request arrives here in native form); the mode may then adjust the reply.
 */
function decideFor(conv: Conversation, task: SimTaskMatch): SimReply {
  const mode = simModeOf({
    toolNames: conv.toolNames,
    systemPrompt: conv.systemPrompt,
    runCodeDescription: conv.runCodeDescription,
  });
  // ReAct's policies call tools by name: a request that offers none gets a plain refusal.
  if (mode.family === 'react' && conv.toolNames.size === 0)
    return finalAnswer(['This task needs tools, and the request offered none.']);
  const reply = task.policy(mode.id, mode.family)(conv);
  return mode.adjust ? mode.adjust(reply, conv) : reply;
}

/**
 * The policy's reply before any fault is injected; `trial` (1-based) picks the variation drawn for that trial, `model`
 * the personality (shared/sim-models.ts).
 */
export function decide(
  messages: readonly WireMessage[],
  tools: readonly WireTool[],
  trial = 1,
  model: SimModelId = 'sim',
  tasks: readonly Task[] = TASKS,
): { reply: SimReply; conv: Conversation; policy: boolean } {
  const conv = readConversation(messages, tools, trial, model);
  const task = matchTask(conv.task, tasks);
  if (!task) return { reply: unknownTaskAnswer(), conv, policy: false };
  // A harness's feedback on an answer (loop.ts answerFeedback) bounds its own turns: those are not loops.
  if (conv.turns - conv.feedback.length >= MAX_TURNS) {
    return {
      reply: finalAnswer([`I could not finish this task in ${MAX_TURNS} steps, so I am stopping here.`]),
      conv,
      policy: true,
    };
  }
  return { reply: forgetful(decideFor(conv, task), conv), conv, policy: true };
}

/**
 * With the history cleared (a placeholder where a result was), the policy asks again for what it needs, as a
 * model re-reads; a result it already had to re-read once and lost again is out of reach, so it stops and says
 * so instead of reading the same thing over and over.
 */
function forgetful(reply: SimReply, conv: Conversation): SimReply {
  if (reply.kind !== 'tools' || conv.clearedCalls.size === 0) return reply;
  const lost = reply.calls.find((c) => (conv.clearedCalls.get(plannedKey(c.name, c.arguments)) ?? 0) >= 2);
  if (!lost) return reply;
  return finalAnswer([
    `I had to read ${lost.name} ${lost.arguments} again after its result was cleared from the conversation, and it was cleared again before I could use it, so I cannot finish the task with this little history.`,
  ]);
}
