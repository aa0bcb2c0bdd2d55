/**
 * Picks the scripted policy for a request: the task from the user's words (key phrases of the built-in
 * tasks, so any OpenAI-compatible agent using the same tool names can drive it), the mode from the tools
 * offered (modeOf), the step from the conversation so far, the variation from the trial number. Pure: same
 * request and trial, same reply.
 */
import type { ModeId } from '../../../shared/modes.js';
import { BUILTIN_TASKS } from '../../../shared/tasks.js';
import { answer, type SimReply, type WireMessage, type WireTool } from '../types.js';
import { finalAnswer, SIM_LABEL } from './common.js';
import { plannedKey, readConversation, type Conversation } from './conversation.js';
import type { TimeTitleParams } from './time-and-title.js';
import { catalogQuestion, type CatalogQuestion } from '../../engine/tasks/tool-catalog.js';
import type { WriteErrorsParams } from './write-errors.js';
import type { WebLookupParams } from './web-lookup.js';
import { simModeOf } from './sim-modes.js';
import type { SimModelId } from '../../../shared/sim-models.js';

export type TaskMatch =
  | { readonly id: 'log-stats' }
  | ({ readonly id: 'time-and-title' } & TimeTitleParams)
  | { readonly id: 'weather-f'; readonly city: string }
  | { readonly id: 'calc'; readonly expression: string }
  | { readonly id: 'config-lookup'; readonly file: string }
  | ({ readonly id: 'write-errors' } & WriteErrorsParams)
  | { readonly id: 'missing-file'; readonly file: string }
  | { readonly id: 'owner-chain' }
  | ({ readonly id: 'tool-catalog' } & CatalogQuestion)
  | ({ readonly id: 'web-lookup' } & WebLookupParams);

/** A reply after this many assistant turns is always a plain answer, whatever happened: it never loops. */
export const MAX_TURNS = 8;

export function detectTask(text: string): TaskMatch | null {
  if (/\.txt\b/.test(text) && /\bERROR\b/.test(text) && /\blines?\b/i.test(text)) return { id: 'log-stats' };
  const zone = /\b([A-Z][A-Za-z_]+\/[A-Z][A-Za-z_]+)\b/.exec(text)?.[1];
  if ((zone || /\bwhat time\b/i.test(text)) && /\btitle\b/i.test(text)) {
    const url = /https?:\/\/[^\s"'<>]+/.exec(text)?.[0].replace(/[.,;:!?)]+$/, '') ?? null;
    return { id: 'time-and-title', url, timezone: zone ?? 'Asia/Shanghai' };
  }
  if (/\btemperature\b/i.test(text) && /fahrenheit/i.test(text)) {
    const city = /\bin ([A-Z][\p{L}.'-]*(?: [A-Z][\p{L}.'-]*)*)/u.exec(text)?.[1] ?? 'Beijing';
    return { id: 'weather-f', city };
  }
  const expr = /\b(?:what is|calculate|compute|evaluate)\s+([\d\s+\-*/^().×÷]*\d[\d\s+\-*/^().×÷]*)\??/i.exec(text)?.[1];
  if (expr && /\d\s*[+\-*/^×÷]\s*[\d(]/.test(expr)) {
    return { id: 'calc', expression: expr.replace(/×/g, '*').replace(/÷/g, '/').replace(/\s+/g, ' ').trim() };
  }
  if (/incidents\.log\b/.test(text) && /\bowner\b/i.test(text)) return { id: 'owner-chain' };
  const lit = /\b(?:search|look)\b[\s\S]*?\byear (?:the )?(.+?) was first lit\b/i.exec(text);
  if (lit) return { id: 'web-lookup', subject: lit[1].trim() };
  const catalog = catalogQuestion(text);
  if (catalog) return { id: 'tool-catalog', ...catalog };
  return detectFileTask(text);
}

/** The one-file tasks: a config lookup, writing the ERROR lines, a file named where it is not. */
function detectFileTask(text: string): TaskMatch | null {
  const config = /([\w./-]+\.json)\b/.exec(text)?.[1];
  if (config && /\bport\b/i.test(text)) return { id: 'config-lookup', file: config };
  const logs = [...text.matchAll(/([\w./-]+\.(?:log|txt))\b/g)].map((m) => m[1]);
  if (/\bERROR\b/.test(text) && /\b(into|to) (a new file )?[\w./-]+/i.test(text) && logs.length >= 2) {
    return { id: 'write-errors', source: logs[0], target: logs[1] };
  }
  const notes = /([\w./-]*release[-_ ]?notes[\w.-]*\.\w+)/i.exec(text)?.[1];
  if (notes && /\bversion\b/i.test(text)) return { id: 'missing-file', file: notes };
  return null;
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
export function modeOf(toolNames: ReadonlySet<string>, context: { readonly systemPrompt?: string; readonly runCodeDescription?: string } = {}): ModeId {
  return simModeOf({ toolNames, ...context }).id;
}

/** The request's mode decides, through its policy wrapper (a text mode's request arrives here in native form). */
function decideFor(conv: Conversation, task: TaskMatch): SimReply {
  return simModeOf({ toolNames: conv.toolNames, systemPrompt: conv.systemPrompt, runCodeDescription: conv.runCodeDescription }).decide(conv, task);
}

/**
 * The policy's reply before any fault is injected; `trial` (1-based) picks the variation drawn for that trial, `model`
 * the personality (shared/sim-models.ts).
 */
export function decide(messages: readonly WireMessage[], tools: readonly WireTool[], trial = 1, model: SimModelId = 'sim'): { reply: SimReply; conv: Conversation; policy: boolean } {
  const conv = readConversation(messages, tools, trial, model);
  const task = detectTask(conv.task);
  if (!task) return { reply: unknownTaskAnswer(), conv, policy: false };
  if (conv.turns >= MAX_TURNS) {
    return { reply: finalAnswer([`I could not finish this task in ${MAX_TURNS} steps, so I am stopping here.`]), conv, policy: true };
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
  return finalAnswer([`I had to read ${lost.name} ${lost.arguments} again after its result was cleared from the conversation, and it was cleared again before I could use it, so I cannot finish the task with this little history.`]);
}
