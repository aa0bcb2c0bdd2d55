/**
 * Test harness: plays the agent side against the simulated model through the real `openai` SDK, running the
 * real tools for ReAct calls and a small record-and-replay JavaScript runner for Code Mode programs (the
 * tools stay real; only the program runner is the test's own). Every request body sent is captured.
 */
import OpenAI from 'openai';
import vm from 'node:vm';
import { DEFAULT_SETTINGS } from '../../../../shared/run-spec.js';
import { ALL_TOOLS, findTool, invokeTool, signatureOf, toolExposure, toolResultText, unknownToolMessage, type ToolDefinition } from '../../../../electron/engine/tools/index.js';

export type Mode = 'react' | 'code';

export interface WireCall { id: string; type: 'function'; function: { name: string; arguments: string } }
export type Msg = Record<string, unknown> & { role: string };

export interface Step {
  text: string;
  calls: WireCall[];
  usage: { prompt_tokens: number; completion_tokens: number; total_tokens: number } | null;
  results: string[];
}

export interface DriveResult {
  answer: string;
  steps: Step[];
  bodies: Record<string, unknown>[];
  messages: Msg[];
}

export interface DriveOptions {
  readonly baseURL: string;
  readonly task: string;
  readonly mode: Mode;
  readonly workspace: string;
  readonly returnTypes?: boolean;
  readonly truncateChars?: number;
  readonly faults?: string[];
  readonly runId?: string;
  readonly maxSteps?: number;
}

const CATALOG = ['list_dir', 'read_file', 'write_file', 'run_shell'];

export function wireTools(mode: Mode, returnTypes = true): Record<string, unknown>[] {
  if (mode === 'react') {
    return ALL_TOOLS.map(toolExposure).map((t) => ({ type: 'function', function: { name: t.name, description: t.description, parameters: t.parameters } }));
  }
  const lines = CATALOG.map((n) => `- ${signatureOf(findTool(n)!, returnTypes)}`);
  const description = [
    'Run a JavaScript program. Tools are synchronous functions; only what print() prints comes back.',
    'Available functions:',
    ...lines,
    '- search_tools(query) finds other tools and returns callable handles; handle.describe() gives the full doc.',
  ].join('\n');
  return [{ type: 'function', function: { name: 'run_code', description, parameters: { type: 'object', properties: { code: { type: 'string' } }, required: ['code'] } } }];
}

/** Same marker text as the engine loop's truncation. */
function truncate(text: string, limit: number): string {
  return text.length <= limit ? text : `${text.slice(0, limit)}\n…[truncated: showing the first ${limit} of ${text.length} characters]`;
}

export function capturingClient(baseURL: string, bodies: Record<string, unknown>[], headers: Record<string, string> = {}, maxRetries = 0): OpenAI {
  return new OpenAI({
    baseURL,
    apiKey: 'sim',
    maxRetries,
    defaultHeaders: headers,
    fetch: async (url, init) => {
      if (typeof init?.body === 'string') bodies.push(JSON.parse(init.body) as Record<string, unknown>);
      return fetch(url, init);
    },
  });
}

export async function drive(opts: DriveOptions): Promise<DriveResult> {
  const bodies: Record<string, unknown>[] = [];
  const headers: Record<string, string> = { 'x-parallax-run-id': opts.runId ?? `run-${Math.random()}` };
  if (opts.faults?.length) headers['x-parallax-sim-faults'] = opts.faults.join(',');
  const client = capturingClient(opts.baseURL, bodies, headers);
  const tools = wireTools(opts.mode, opts.returnTypes ?? true);
  const messages: Msg[] = [
    { role: 'system', content: 'You are a careful agent. Use the tools.' },
    { role: 'user', content: opts.task },
  ];
  const steps: Step[] = [];
  for (let i = 0; i < (opts.maxSteps ?? 10); i++) {
    const stream = await client.chat.completions.create({
      model: 'sim', messages: messages as never, tools: tools as never, stream: true, stream_options: { include_usage: true },
    });
    let text = '';
    const calls: WireCall[] = [];
    let usage: Step['usage'] = null;
    for await (const chunk of stream) {
      if (chunk.usage) usage = chunk.usage;
      const delta = chunk.choices[0]?.delta;
      if (delta?.content) text += delta.content;
      for (const tc of delta?.tool_calls ?? []) {
        calls[tc.index] ??= { id: '', type: 'function', function: { name: '', arguments: '' } };
        if (tc.id) calls[tc.index].id = tc.id;
        if (tc.function?.name) calls[tc.index].function.name += tc.function.name;
        if (tc.function?.arguments) calls[tc.index].function.arguments += tc.function.arguments;
      }
    }
    messages.push(calls.length ? { role: 'assistant', content: text || null, tool_calls: calls } : { role: 'assistant', content: text });
    const step: Step = { text, calls, usage, results: [] };
    steps.push(step);
    if (calls.length === 0) return { answer: text, steps, bodies, messages };
    const offered = tools.map((t) => (t.function as { name: string }).name);
    step.results = await Promise.all(calls.map((c) => runCall(c, offered, opts)));
    calls.forEach((c, k) => messages.push({ role: 'tool', tool_call_id: c.id, content: truncate(step.results[k], opts.truncateChars ?? DEFAULT_SETTINGS.truncateChars) }));
  }
  throw new Error(`no answer after ${opts.maxSteps ?? 10} steps`);
}

async function runCall(call: WireCall, offered: string[], opts: DriveOptions): Promise<string> {
  if (!offered.includes(call.function.name)) return `Error: ${unknownToolMessage(call.function.name, offered)}`;
  let args: Record<string, unknown>;
  try {
    args = JSON.parse(call.function.arguments || '{}') as Record<string, unknown>;
  } catch (e) {
    return `Error: ${call.function.name}: The arguments are not valid JSON (${(e as Error).message}).`;
  }
  if (call.function.name === 'run_code') return runProgram(String(args.code), opts.workspace);
  try {
    return toolResultText(await invokeTool(findTool(call.function.name)!, args, toolCtx(opts.workspace)));
  } catch (e) {
    return `Error: ${(e as Error).message}`;
  }
}

function toolCtx(workspace: string) {
  return { workspace, settings: DEFAULT_SETTINGS, signal: new AbortController().signal };
}

const MISS = Symbol('tool result not recorded yet');

/**
 * Runs a program with synchronous tool functions by record and replay: a run stops at the first tool call
 * whose result is not known yet, the call runs for real, and the program starts again with it known.
 */
export async function runProgram(code: string, workspace: string, timeoutMs = 500): Promise<string> {
  const known = new Map<string, { ok: true; value: unknown } | { ok: false; error: string }>();
  for (let round = 0; round < 50; round++) {
    const out: string[] = [];
    let pending: { key: string; tool: ToolDefinition; args: unknown } | null = null;
    const call = (tool: ToolDefinition, a: unknown[]): unknown => {
      const args = a.length === 1 && typeof a[0] === 'object' && a[0] !== null && !Array.isArray(a[0]) ? a[0] : a;
      const key = `${tool.name}:${JSON.stringify(args)}`;
      const hit = known.get(key);
      if (!hit) {
        pending = { key, tool, args };
        throw MISS;
      }
      if (!hit.ok) throw new Error(hit.error);
      return structuredClone(hit.value);
    };
    const fn = (tool: ToolDefinition) => Object.assign((...a: unknown[]) => call(tool, a), { describe: () => `${signatureOf(tool)}\n${tool.description}` });
    const format = (v: unknown): string => (typeof v === 'object' && v !== null ? JSON.stringify(v) : String(v));
    const print = (...xs: unknown[]): void => void out.push(xs.map(format).join(' '));
    const context: Record<string, unknown> = { print, console: { log: print } };
    for (const name of CATALOG) context[name] = fn(findTool(name)!);
    context.search_tools = (query: string) => {
      const words = query.toLowerCase().match(/\w+/g) ?? [];
      return ALL_TOOLS.map((t) => ({ t, score: words.filter((w) => `${t.name.replace(/_/g, ' ')} ${t.description}`.toLowerCase().includes(w)).length }))
        .filter((s) => s.score > 0).sort((a, b) => b.score - a.score).slice(0, 5).map((s) => fn(s.t));
    };
    try {
      vm.runInNewContext(code, context, { filename: 'program.js', timeout: timeoutMs });
    } catch (error) {
      if (error === MISS && pending) {
        const { key, tool, args } = pending as { key: string; tool: ToolDefinition; args: unknown };
        try {
          known.set(key, { ok: true, value: await invokeTool(tool, args, toolCtx(workspace)) });
        } catch (e) {
          known.set(key, { ok: false, error: (e as Error).message });
        }
        continue;
      }
      const e = error as Error;
      if (/timed out/.test(e.message)) return `${out.join('\n')}\nError: the program ran longer than ${timeoutMs} ms and was stopped.`.trim();
      const where = /program\.js:(\d+):(\d+)/.exec(e.stack ?? '') ?? /program\.js:(\d+)()/.exec(e.stack ?? '');
      return `${out.join('\n')}\nError at line ${where?.[1] ?? '?'}, column ${where?.[2] || '?'}: ${e.name}: ${e.message}`.trim();
    }
    return out.join('\n') || '(no output: use print() to return results)';
  }
  throw new Error('program made too many tool calls');
}
