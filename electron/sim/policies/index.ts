/**
 * Picks the scripted policy for a request: the task from the user's words (key phrases of the built-in
 * tasks, so any OpenAI-compatible agent using the same tool names can drive it), the mode from the tools
 * offered (modeOf), the step from the conversation so far, the variation from the trial number. Pure: same
 * request and trial, same reply.
 */
import { MODES, type ModeId } from '../../../shared/modes.js';
import { BUILTIN_TASKS } from '../../../shared/tasks.js';
import { answer, type SimReply, type WireMessage, type WireTool } from '../types.js';
import { finalAnswer, SIM_LABEL } from './common.js';
import { CALL_TOOL, readConversation, type Conversation } from './conversation.js';
import { codeLogStats, reactLogStats } from './log-stats.js';
import { codeTimeAndTitle, reactTimeAndTitle, type TimeTitleParams } from './time-and-title.js';
import { codeCalc, codeWeather, reactCalc, reactWeather } from './weather-calc.js';
import { codeOwnerChain, reactOwnerChain } from './owner-chain.js';
import { catalogQuestion, type CatalogQuestion } from '../../engine/tasks/tool-catalog.js';
import { codeToolCatalog, reactToolCatalog, searchToolCatalog } from './tool-catalog.js';
import { SEARCH_TOOLS, searchCalc, searchLogStats, searchTimeAndTitle, searchWeather } from './react-search.js';
import { codeConfigLookup, reactConfigLookup } from './config-lookup.js';
import { codeWriteErrors, reactWriteErrors, type WriteErrorsParams } from './write-errors.js';
import { codeMissingFile, reactMissingFile } from './missing-file.js';
import { codeWebLookup, reactWebLookup, searchWebLookup, type WebLookupParams } from './web-lookup.js';
import { isTextReActPrompt } from './react-text.js';
import { programLanguage } from './programs.js';
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
 * The mode, from the tools offered: run_code alone is Code Mode, run_code beside direct tools is Hybrid,
 * search_tools without run_code is ReAct + tool search, none with the Thought / Action format in the system
 * prompt is ReAct (text), anything else is ReAct. run_code alone that asks for Python (its description) is Code
 * Mode (Python).
 */
export function modeOf(toolNames: ReadonlySet<string>, context: { readonly systemPrompt?: string; readonly runCodeDescription?: string } = {}): ModeId {
  if (toolNames.size === 0 && isTextReActPrompt(context.systemPrompt ?? '')) return 'react-text';
  if (toolNames.has('run_code') && toolNames.size === 1 && programLanguage({ runCodeDescription: context.runCodeDescription ?? '' }) === 'python') return 'code-py';
  if (toolNames.has('run_code')) return toolNames.size === 1 ? 'code' : 'hybrid';
  return toolNames.has(SEARCH_TOOLS) ? 'react-search' : 'react';
}

function decideFor(conv: Conversation, task: TaskMatch): SimReply {
  const mode = modeOf(conv.toolNames, { runCodeDescription: conv.runCodeDescription });
  // A mode with the sandbox writes programs (Hybrid's built-in tasks are batch work or need hidden tools).
  if (MODES[mode].usesSandbox) {
    switch (task.id) {
      case 'log-stats':
        return codeLogStats(conv);
      case 'time-and-title':
        return codeTimeAndTitle(conv, task);
      case 'weather-f':
        return codeWeather(conv, task.city);
      case 'calc':
        return codeCalc(conv, task.expression);
      // Hybrid is offered read_file and list_dir directly: a simple look takes a direct call, not a program.
      case 'config-lookup':
        return mode === 'hybrid' ? reactConfigLookup(conv, task.file) : codeConfigLookup(conv, task.file);
      case 'write-errors':
        return codeWriteErrors(conv, task);
      case 'missing-file':
        return mode === 'hybrid' ? reactMissingFile(conv, task.file) : codeMissingFile(conv, task.file);
      case 'owner-chain':
        return codeOwnerChain(conv);
      case 'tool-catalog':
        return codeToolCatalog(conv, task);
      case 'web-lookup':
        return codeWebLookup(conv, task);
    }
  }
  if (mode === 'react-search') {
    switch (task.id) {
      case 'log-stats':
        return searchLogStats(conv);
      case 'time-and-title':
        return searchTimeAndTitle(conv, task);
      case 'weather-f':
        return searchWeather(conv, task.city);
      case 'calc':
        return searchCalc(conv, task.expression);
      case 'tool-catalog':
        return searchToolCatalog(conv, task);
      case 'web-lookup':
        return searchWebLookup(conv, task);
      // The other tasks need only the file tools, offered from the start: ReAct's policy below.
    }
  }
  if (conv.toolNames.size === 0) return finalAnswer(['This task needs tools, and the request offered none.']);
  switch (task.id) {
    case 'log-stats':
      return reactLogStats(conv);
    case 'time-and-title':
      return reactTimeAndTitle(conv, task);
    case 'weather-f':
      return reactWeather(conv, task.city);
    case 'calc':
      return reactCalc(conv, task.expression);
    case 'config-lookup':
      return reactConfigLookup(conv, task.file);
    case 'write-errors':
      return reactWriteErrors(conv, task);
    case 'missing-file':
      return reactMissingFile(conv, task.file);
    case 'owner-chain':
      return reactOwnerChain(conv);
    case 'tool-catalog':
      return reactToolCatalog(conv, task);
    case 'web-lookup':
      return reactWebLookup(conv, task);
  }
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
  return { reply: throughForwarder(decideFor(conv, task), tools), conv, policy: true };
}

/** With call_tool offered, a call of a tool the request does not list goes through it (toolSearch 'call-tool'). */
function throughForwarder(reply: SimReply, tools: readonly WireTool[]): SimReply {
  if (reply.kind !== 'tools' || !tools.some((t) => t.function.name === CALL_TOOL)) return reply;
  const listed = new Set(tools.map((t) => t.function.name));
  return {
    ...reply,
    calls: reply.calls.map((c) => (listed.has(c.name) ? c : { name: CALL_TOOL, arguments: `{"name":${JSON.stringify(c.name)},"arguments":${c.arguments}}` })),
  };
}
