/**
 * Test harness: plays the agent side against the simulated model through the real `openai` SDK, running the
 * real tools for ReAct calls and the real Code Mode sandbox for programs (not the engine loop: the test
 * drives the conversation itself). Every request body sent is captured.
 */
import OpenAI from 'openai';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { prepareFixture } from '../../../electron/tasks/fixtures.js';
import { runTaskOf } from '../../../electron/tasks/index.js';
import { DEFAULT_SETTINGS } from '../../../shared/run-spec.js';
import {
  invokeTool,
  toolExposure,
  toolResultText,
  unknownToolMessage,
  warmUpTools,
} from '../../../electron/engine/tools/index.js';
import { standardBindings } from '../../../electron/engine/modes/code/bindings.js';
import { runCodeExposure } from '../../../electron/engine/modes/code/run-code-tool.js';
import { toolsetOf } from '../../../electron/engine/modes/toolsets.js';
import { openRunToolState } from '../../../electron/engine/tools/run-state.js';
import { searchTargetOf } from '../../../electron/engine/tools/search-backends.js';
import {
  disposeSharedSandbox,
  limitsFromSettings,
  programText,
  runProgram,
} from '../../../electron/engine/sandbox/index.js';

export type Mode = 'react' | 'code';

export interface WireCall {
  id: string;
  type: 'function';
  function: { name: string; arguments: string };
}
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
  /**
   * Code Mode program time limit. Default: the app's (10 s), so a program never fails for the machine's load; 3 s
   * with the 'loop-forever' fault, whose endless program the limit is there to stop.
   */
  readonly codeTimeoutMs?: number;
  /** The task's local test page: like the engine, the harness lets fetch_url reach this one origin. */
  readonly fixtureUrl?: string;
  /** The trial sent to the simulated model (x-parallax-sim-trial); absent: no header, which means trial 1. */
  readonly trial?: number;
  /** The built-in task, for the tools it brings to the run (electron/tasks/), as the engine offers them. */
  readonly taskId?: string;
}

/** The tools of a run of `taskId` under the default profile. */
export const runTools = (taskId?: string) => toolsetOf(DEFAULT_SETTINGS, runTaskOf({ id: taskId ?? null })).tools;

export function wireTools(mode: Mode, returnTypes = true, taskId?: string): Record<string, unknown>[] {
  const all = runTools(taskId);
  const exposed =
    mode === 'react' ? all.map(toolExposure) : [runCodeExposure(standardBindings(all).tools, returnTypes)];
  return exposed.map((t) => ({
    type: 'function',
    function: { name: t.name, description: t.description, parameters: t.parameters },
  }));
}

/** Same marker text as the engine loop's truncation. */
function truncate(text: string, limit: number): string {
  return text.length <= limit
    ? text
    : `${text.slice(0, limit)}\n…[truncated: showing the first ${limit} of ${text.length} characters]`;
}

export function capturingClient(
  baseURL: string,
  bodies: Record<string, unknown>[],
  headers: Record<string, string> = {},
  maxRetries = 0,
): OpenAI {
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
  await warmUpTools(); // as a worker does before a run (once per process)
  // As run-engine.ts opens it: the fixture origin, and where web_search goes for this task.
  const search = searchTargetOf({
    taskId: opts.taskId ?? null,
    backend: 'off',
    url: null,
    fixtureUrl: opts.fixtureUrl,
    key: null,
  });
  openRunToolState(opts.workspace, { localOrigins: opts.fixtureUrl ? [new URL(opts.fixtureUrl).origin] : [], search });
  const bodies: Record<string, unknown>[] = [];
  const headers: Record<string, string> = { 'x-parallax-run-id': opts.runId ?? `run-${Math.random()}` };
  if (opts.faults?.length) headers['x-parallax-sim-faults'] = opts.faults.join(',');
  if (opts.trial !== undefined) headers['x-parallax-sim-trial'] = String(opts.trial);
  const client = capturingClient(opts.baseURL, bodies, headers);
  const tools = wireTools(opts.mode, opts.returnTypes ?? true, opts.taskId);
  const messages: Msg[] = [
    { role: 'system', content: 'You are a careful agent. Use the tools.' },
    { role: 'user', content: opts.task },
  ];
  const steps: Step[] = [];
  for (let i = 0; i < (opts.maxSteps ?? 10); i++) {
    const stream = await client.chat.completions.create({
      model: 'sim',
      messages: messages as never,
      tools: tools as never,
      stream: true,
      stream_options: { include_usage: true },
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
    messages.push(
      calls.length
        ? { role: 'assistant', content: text || null, tool_calls: calls }
        : { role: 'assistant', content: text },
    );
    const step: Step = { text, calls, usage, results: [] };
    steps.push(step);
    if (calls.length === 0) return { answer: text, steps, bodies, messages };
    const offered = tools.map((t) => (t.function as { name: string }).name);
    step.results = await Promise.all(calls.map((c) => runCall(c, offered, opts)));
    calls.forEach((c, k) =>
      messages.push({
        role: 'tool',
        tool_call_id: c.id,
        content: truncate(step.results[k], opts.truncateChars ?? DEFAULT_SETTINGS.truncateChars),
      }),
    );
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
  if (call.function.name === 'run_code')
    return runCode(
      String(args.code),
      opts.workspace,
      opts.codeTimeoutMs ?? (opts.faults?.includes('loop-forever') ? 3000 : DEFAULT_SETTINGS.codeTimeoutMs),
      opts.returnTypes ?? true,
      opts.taskId,
    );
  try {
    return toolResultText(
      await invokeTool(
        runTools(opts.taskId).find((t) => t.name === call.function.name)!,
        args,
        toolCtx(opts.workspace),
      ),
    );
  } catch (e) {
    return `Error: ${(e as Error).message}`;
  }
}

function toolCtx(workspace: string) {
  return { workspace, settings: DEFAULT_SETTINGS, signal: new AbortController().signal };
}

/** Runs a program in the real Code Mode sandbox with the standard bindings, as Code Mode does. */
async function runCode(
  code: string,
  workspace: string,
  codeTimeoutMs: number,
  returnTypes: boolean,
  taskId?: string,
): Promise<string> {
  const settings = { ...DEFAULT_SETTINGS, codeTimeoutMs, returnTypes };
  const { tools, hiddenTools } = standardBindings(runTools(taskId));
  const result = await runProgram(code, {
    tools,
    hiddenTools,
    ctx: { ...toolCtx(workspace), settings },
    limits: limitsFromSettings(settings),
    returnTypes,
  });
  return programText(result);
}

export function closeSandbox(): void {
  disposeSharedSandbox();
}

/** The first trial (1..1000) whose drawn style satisfies `match`, found from the policy's own draw. */
export function trialWhere<T>(styleOf: (trial: number) => T, match: (style: T) => boolean): number {
  for (let trial = 1; trial <= 1000; trial++) if (match(styleOf(trial))) return trial;
  throw new Error('no trial in 1..1000 draws that style');
}

/** Fresh task fixtures in temporary folders, removed together by `removeAll` (call it in afterAll). */
export function fixtureFolders(prefix: string) {
  const dirs: string[] = [];
  return {
    async workspaceFor(taskId: string, seed?: number): Promise<string> {
      const dir = await mkdtemp(path.join(tmpdir(), `${prefix}-${taskId}-`));
      dirs.push(dir);
      await prepareFixture(taskId, dir, seed);
      return dir;
    },
    /** An empty temporary folder, removed with the others. */
    async emptyFolder(name: string): Promise<string> {
      const dir = await mkdtemp(path.join(tmpdir(), `${prefix}-${name}-`));
      dirs.push(dir);
      return dir;
    },
    removeAll: () => Promise.all(dirs.map((d) => rm(d, { recursive: true, force: true }))),
  };
}

/** The tool names a step called, in order. */
export const toolNames = (step: { calls: { function: { name: string } }[] }) => step.calls.map((c) => c.function.name);
