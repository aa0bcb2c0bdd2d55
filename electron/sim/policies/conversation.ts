/**
 * Reads a chat request the way a scripted policy needs it: the task (last user message), the tool calls made
 * since then paired with their results, and which injected faults already happened. Calls broken on purpose
 * by a fault (invalid JSON arguments, a made-up tool name, the endless program) are set aside, so a policy
 * simply makes its intended step again; their error text is kept for the recovery note.
 */
import { textOf, type WireMessage, type WireTool } from '../types.js';
import type { SimModelId } from '../../../shared/sim-models.js';
import { REPEAT_NOTE_LEAD } from '../../engine/tools/repeat-guard.js';
import { CLEARED_LEAD } from '../../engine/history-editor.js';
import { readSummary } from './history-summary.js';

/** The generic forwarder of toolSearch 'call-tool' (engine/modes/react-search-mode.ts). */
export const CALL_TOOL = 'call_tool';

/** The program the 'loop-forever' fault sends instead of the first real one. */
export const ENDLESS_PROGRAM = 'while (true) {}';

export interface CallRecord {
  readonly id: string;
  readonly name: string;
  readonly args: Record<string, unknown>;
  /** The tool message for this call; undefined when none was sent. */
  readonly result: string | undefined;
}

export type FaultMark = 'malformed-args' | 'unknown-tool' | 'loop-forever';

export interface Conversation {
  readonly task: string;
  /** The tools offered, plus (when call_tool is offered) every tool a search listed: all the policy may call. */
  readonly toolNames: ReadonlySet<string>;
  /** Each offered tool's description ('' when it has none). */
  readonly toolDescriptions: ReadonlyMap<string, string>;
  /** The `run_code` description, or '' when run_code is not offered. */
  readonly runCodeDescription: string;
  /** Assistant turns since the task. */
  readonly turns: number;
  /** Calls since the task, in order, without the ones a fault broke. */
  readonly calls: readonly CallRecord[];
  /** Faults whose broken call already appears in the history. */
  readonly injected: ReadonlySet<FaultMark>;
  /** Calls the repeat guard answered with a note instead of running (set aside like the broken ones). */
  readonly repeatNotes: number;
  /**
   * Calls whose result the history knob cleared (a placeholder came back in its place), by callKey, with how
   * many cleared copies there are: they are set aside too, so a policy that needs the result asks for it again.
   */
  readonly clearedCalls: ReadonlyMap<string, number>;
  /** When the latest assistant turn contained a broken call: the error the tool side returned for it. */
  readonly lastFaultError: string | null;
  /** The trial this request belongs to (1-based): trial 1 is the documented real run, later ones vary. */
  readonly trial: number;
  /** The personality the request's model name asks for (shared/sim-models.ts). */
  readonly model: SimModelId;
  /** The first system (or developer) message's text: a mode may say itself there (policies/modes/). */
  readonly systemPrompt: string;
  /**
   * What the task's harness said to the model's answers since the task (a benchmark's "Your answer is
   * incorrect…", loop.ts answerFeedback): user messages that follow a reply without tool calls. Empty: none.
   */
  readonly feedback: readonly string[];
}

/** A user message answering a final answer (a reply without tool calls): the harness speaking, not a new task. */
function isFeedback(messages: readonly WireMessage[], i: number): boolean {
  const before = messages[i - 1];
  return i > 0 && messages[i].role === 'user' && before?.role === 'assistant' && !before.tool_calls?.length;
}

export function readConversation(
  messages: readonly WireMessage[],
  tools: readonly WireTool[],
  trial = 1,
  model: SimModelId = 'sim',
): Conversation {
  const toolNames = new Set(tools.map((t) => t.function.name));
  const runCode = tools.find((t) => t.function.name === 'run_code');
  let start = -1;
  // The history knob's summary (summarize:K) is a user message after the task, not the task.
  for (let i = messages.length - 1; i >= 0; i--) {
    if (messages[i].role === 'user' && !readSummary(messages[i]) && !isFeedback(messages, i)) {
      start = i;
      break;
    }
  }
  const task = start >= 0 ? textOf(messages[start].content) : '';
  const results = new Map<string, string>();
  for (const m of messages.slice(start + 1)) {
    if (m.role === 'tool' && m.tool_call_id) results.set(m.tool_call_id, textOf(m.content));
  }

  const calls: CallRecord[] = [];
  const injected = new Set<FaultMark>();
  let turns = 0;
  let repeatNotes = 0;
  const clearedCalls = new Map<string, number>();
  let lastFaultError: string | null = null;
  for (const m of messages.slice(start + 1)) {
    const summary = readSummary(m);
    if (summary) {
      // Summarised steps still count as turns; a result the summary kept is known, one it only named is re-read.
      turns += summary.steps;
      summary.calls.forEach((c, i) => {
        if (c.result !== null) calls.push({ id: `summary_${i}`, name: c.name, args: c.args, result: c.result });
        else clearedCalls.set(callKey(c.name, c.args), (clearedCalls.get(callKey(c.name, c.args)) ?? 0) + 1);
      });
      continue;
    }
    if (m.role !== 'assistant') continue;
    turns++;
    lastFaultError = null;
    for (const call of m.tool_calls ?? []) {
      const result = results.get(call.id);
      const fault = faultOf(call.function.name, call.function.arguments, toolNames);
      if (fault) {
        injected.add(fault);
        lastFaultError = result ?? '(no result was returned)';
        continue;
      }
      // A repeat the guard did not run: the earlier call, already in the list, holds the result.
      if (result?.startsWith(REPEAT_NOTE_LEAD)) {
        repeatNotes++;
        continue;
      }
      const args = parseArgs(call.function.arguments) ?? {};
      // A forwarded call counts as a call of the tool it names, so the task policies read it unchanged.
      const inner =
        call.function.name === CALL_TOOL &&
        typeof args.name === 'string' &&
        typeof args.arguments === 'object' &&
        args.arguments !== null
          ? { name: args.name, args: args.arguments as Record<string, unknown> }
          : null;
      const record = { id: call.id, name: inner?.name ?? call.function.name, args: inner?.args ?? args, result };
      // Cleared from the history: the model no longer sees what it returned.
      if (result?.startsWith(CLEARED_LEAD)) {
        const key = callKey(record.name, record.args);
        clearedCalls.set(key, (clearedCalls.get(key) ?? 0) + 1);
        continue;
      }
      calls.push(record);
    }
  }
  // With call_tool, the tools a search listed are callable from then on, though they never join `tools`.
  if (toolNames.has(CALL_TOOL)) {
    for (const c of calls) {
      if (c.name === 'search_tools')
        for (const m of (c.result ?? '').matchAll(/^- ([A-Za-z_][\w.-]*)\(/gm)) toolNames.add(m[1]!);
    }
  }
  const system = messages.find((m) => m.role === 'system' || m.role === 'developer');
  const feedback = messages.flatMap((m, i) => (i > start && isFeedback(messages, i) ? [textOf(m.content)] : []));
  return {
    task,
    feedback,
    systemPrompt: system ? textOf(system.content) : '',
    toolNames,
    toolDescriptions: new Map(tools.map((t) => [t.function.name, t.function.description ?? ''])),
    runCodeDescription: runCode?.function.description ?? '',
    turns,
    calls,
    injected,
    repeatNotes,
    clearedCalls,
    lastFaultError,
    trial,
    model,
  };
}

/** A call as the history and the repeat guard tell calls apart: its tool and its arguments. */
export function callKey(name: string, args: Record<string, unknown>): string {
  return `${name} ${JSON.stringify(args)}`;
}

/** A planned call's key, a forwarded call_tool read as the tool it names. */
export function plannedKey(name: string, argsText: string): string {
  const args = parseArgs(argsText) ?? {};
  if (
    name === CALL_TOOL &&
    typeof args.name === 'string' &&
    typeof args.arguments === 'object' &&
    args.arguments !== null
  )
    return callKey(args.name, args.arguments as Record<string, unknown>);
  return callKey(name, args);
}

function faultOf(name: string, args: string, toolNames: ReadonlySet<string>): FaultMark | null {
  if (!toolNames.has(name)) return 'unknown-tool';
  const parsed = parseArgs(args);
  if (parsed === null) return 'malformed-args';
  if (name === 'run_code' && typeof parsed.code === 'string' && parsed.code.trim() === ENDLESS_PROGRAM)
    return 'loop-forever';
  return null;
}

export function parseArgs(text: string): Record<string, unknown> | null {
  try {
    const value: unknown = JSON.parse(text === '' ? '{}' : text);
    return typeof value === 'object' && value !== null && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : null;
  } catch {
    return null;
  }
}

/** The latest call to `name` whose arguments satisfy `match`, if any. */
export function lastCall(
  conv: Conversation,
  name: string,
  match: (args: Record<string, unknown>) => boolean = () => true,
): CallRecord | undefined {
  for (let i = conv.calls.length - 1; i >= 0; i--) {
    const c = conv.calls[i];
    if (c.name === name && match(c.args)) return c;
  }
  return undefined;
}

/** A JSON tool result (ReAct sends non-string values as compact JSON); undefined when it is not JSON. */
export function jsonResult(result: string | undefined): unknown {
  if (result === undefined) return undefined;
  try {
    return JSON.parse(result);
  } catch {
    return undefined;
  }
}

export function objectResult(result: string | undefined): Record<string, unknown> | undefined {
  const value = jsonResult(result);
  return typeof value === 'object' && value !== null && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : undefined;
}

/**
 * A tool result that is plain text rather than JSON (other agents' tools, Parallax's tutorial profile), or
 * undefined when it is JSON, missing, or an error message.
 */
export function textResult(result: string | undefined): string | undefined {
  if (result === undefined || jsonResult(result) !== undefined || /^Error\b/.test(result.trim())) return undefined;
  return result;
}

/** A list of names: a JSON array of strings, or plain text with one name per line. */
export function namesResult(result: string | undefined): string[] | undefined {
  const value = jsonResult(result);
  if (Array.isArray(value)) return value.map(String);
  const text = textResult(result);
  if (text === undefined || looksLikeError(text)) return undefined;
  return text
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '');
}

/**
 * Whether a plain-text tool result (read_file) is an error message rather than content. Tool errors are one
 * short paragraph written for the model; file content read for these tasks spans many lines.
 */
export function looksLikeError(result: string): boolean {
  const text = result.trim();
  // "Error:" as the tool side writes it; a log whose first line is "ERROR …" is content.
  if (/^Error:/.test(text)) return true;
  if (text.includes('\n') || text.length > 600) return false;
  return /(not found|does not exist|no such|is a folder|not a UTF-8|over read_file|outside the workspace|is absolute|invalid|cancelled|not valid JSON|unknown tool|failed)/i.test(
    text,
  );
}

/** First line of an error, for a short note in the next reply. */
export function firstLine(text: string, max = 160): string {
  const line = text.trim().split('\n')[0] ?? '';
  return line.length > max ? `${line.slice(0, max - 1)}…` : line;
}
