/**
 * `runProgram`: run one model-written JavaScript program in the sandbox with a set of tools, and report
 * exactly what happened — printed output, the error (line/column in the model's code), every inner tool
 * call with its size and duration, every search_tools query with its hits, and which limit stopped it.
 */
import type { CodeError, InnerToolCall, LimitHit, SearchHit } from '../../../shared/step-event.js';
import { rankTools, SearchRefused } from '../tool-search/search-in-thread.js';
import type { RankedName } from '../tool-search/rank.js';
import { invokeTool } from '../tools/index.js';
import { parameterNames, parametersOf, signatureOf, type ToolContext, type ToolDefinition } from '../tools/tool.js';
import { checkLimits, type SandboxLimits } from './limits.js';
import { codeErrorOf, formatCodeError, limitHitOf } from './program-error.js';
import type { CallKind, KeptState, ToolManifestEntry } from './protocol.js';
import { Sandbox, type SandboxOutcome, type SandboxRun } from './sandbox.js';
import { pythonSignatureOf } from './python/py-signature.js';

/** The language a program is written in: JavaScript runs in QuickJS, Python in Pyodide (python/). */
import type { ProgramLanguage } from '../../../shared/modes.js';

export type { ProgramLanguage };

/** What runs a program: the QuickJS sandbox or the Pyodide one; both keep the same contract. */
export interface ProgramSandbox {
  run(run: SandboxRun): Promise<SandboxOutcome>;
}

export interface ProgramOptions {
  /** The catalog: global functions in the program. */
  readonly tools: readonly ToolDefinition[];
  /** Reachable only through search_tools handles. */
  readonly hiddenTools?: readonly ToolDefinition[];
  readonly ctx: ToolContext;
  readonly limits: SandboxLimits;
  /** Whether a printed tool handle shows its return type (describe() always does). */
  readonly returnTypes: boolean;
  /** Run on this sandbox (its thread or process is reused); default: one QuickJS sandbox shared by the process. */
  readonly sandbox?: ProgramSandbox;
  /** Default JavaScript; Python needs a Pyodide sandbox (python/py-sandbox.ts) as `sandbox`. */
  readonly language?: ProgramLanguage;
  /** codeState 'persist': the program's variables stay on `sandbox` for its next program. */
  readonly keepState?: boolean;
  /** Called as each search_tools call is answered, before the program goes on. */
  readonly onSearch?: (search: ProgramSearch) => void;
  /**
   * The approval policy, asked before each tool call; `pauseClock` stops the program's time limit while the
   * user decides. A refusal goes back to the program as the tool's error.
   */
  readonly approve?: (
    name: string,
    args: unknown,
    signal: AbortSignal,
    pauseClock: () => () => void,
  ) => Promise<{ readonly ok: true } | { readonly ok: false; readonly message: string }>;
}

export interface ProgramSearch {
  readonly query: string;
  readonly hits: SearchHit[];
}

export interface ProgramResult {
  /** What the program printed (capped, with a marker when cut). */
  readonly output: string;
  readonly error: CodeError | null;
  /** Tool calls inside the program, in order (search_tools calls are in `searches`). */
  readonly toolCalls: InnerToolCall[];
  readonly searches: ProgramSearch[];
  /** UTF-8 bytes of the JSON of every tool result the program received. */
  readonly toolBytes: number;
  /** UTF-8 bytes of `output`: what goes back to the model. */
  readonly printedBytes: number;
  /** Wall time of the program, tool calls included. */
  readonly durationMs: number;
  readonly limitHit: LimitHit;
  /** keepState: what the sandbox keeps after the program; null when it dropped it (a limit stopped the program). */
  readonly kept?: KeptState | null;
}

/** How many hits search_tools returns. */
export const SEARCH_LIMIT = 5;

let shared: Sandbox | null = null;

/** The process-wide sandbox used when no `sandbox` option is given. Its thread does not keep the process alive. */
export function sharedSandbox(): Sandbox {
  shared ??= new Sandbox();
  return shared;
}

export function disposeSharedSandbox(): void {
  shared?.dispose();
  shared = null;
}

const utf8 = (text: string): number => Buffer.byteLength(text, 'utf8');

interface ToolFacts {
  readonly withReturn: string;
  readonly bare: string;
  readonly pyWithReturn: string;
  readonly pyBare: string;
  readonly firstParamType: string | undefined;
}

// Signatures come from the zod schemas via JSON Schema, which is slow enough to matter once per call.
const factsCache = new WeakMap<ToolDefinition, ToolFacts>();

function factsOf(tool: ToolDefinition): ToolFacts {
  let facts = factsCache.get(tool);
  if (!facts) {
    const first = parameterNames(tool)[0] ?? '';
    const props = (parametersOf(tool).properties ?? {}) as Record<string, { type?: string }>;
    facts = {
      withReturn: signatureOf(tool, true),
      bare: signatureOf(tool, false),
      pyWithReturn: pythonSignatureOf(tool, true),
      pyBare: pythonSignatureOf(tool, false),
      firstParamType: props[first]?.type,
    };
    factsCache.set(tool, facts);
  }
  return facts;
}

function manifestOf(
  tools: readonly ToolDefinition[],
  hidden: readonly ToolDefinition[],
  returnTypes: boolean,
  language: ProgramLanguage,
): ToolManifestEntry[] {
  const entry = (tool: ToolDefinition, isHidden: boolean): ToolManifestEntry => {
    const facts = factsOf(tool);
    if (language === 'python') {
      return {
        name: tool.name,
        signature: returnTypes ? facts.pyWithReturn : facts.pyBare,
        describe: `${facts.pyWithReturn}\n${tool.description}`,
        hidden: isHidden,
        params: parameterNames(tool),
      };
    }
    return {
      name: tool.name,
      signature: returnTypes ? facts.withReturn : facts.bare,
      describe: `${facts.withReturn}\n${tool.description}`,
      hidden: isHidden,
    };
  };
  const bound = (t: ToolDefinition) => !(language === 'python' && t.pythonBuiltin);
  return [...tools.filter(bound).map((t) => entry(t, false)), ...hidden.filter(bound).map((t) => entry(t, true))];
}

/**
 * The program's argument list → what invokeTool takes: one plain object is named parameters (no tool takes an
 * object as its first parameter), anything else is positional in schema order.
 */
function toolArgs(tool: ToolDefinition, list: unknown[]): { input: unknown; record: unknown } {
  const first = list[0];
  if (
    list.length === 1 &&
    typeof first === 'object' &&
    first !== null &&
    !Array.isArray(first) &&
    factsOf(tool).firstParamType !== 'object'
  ) {
    return { input: first, record: first };
  }
  const names = parameterNames(tool);
  if (tool.rest !== undefined && names[names.length - 1] === tool.rest) {
    const fixed = names.length - 1;
    return {
      input: list,
      record: {
        ...Object.fromEntries(list.slice(0, fixed).map((value, i) => [names[i], value])),
        [tool.rest]: list.slice(fixed),
      },
    };
  }
  const record = Object.fromEntries(list.map((value, i) => [names[i] ?? `#${i + 1}`, value]));
  return { input: list, record };
}

function noMatchHint(query: string, inCatalog: readonly RankedName[]): string {
  const also =
    inCatalog.length > 0 ? ` Already available as functions: ${inCatalog.map((h) => h.name).join(', ')}.` : '';
  return (
    `search_tools(${JSON.stringify(query)}): no hidden tool matched. Try other English words for what the tool ` +
    `does (e.g. "download web page", "current time"), or search_tools("") to list them all.${also}`
  );
}

/**
 * Models sometimes send the program wrapped in a Markdown code fence. The fence lines become blank lines, so
 * line numbers in errors still match the text the model wrote.
 */
export function unfence(code: string): string {
  const m = /^(\s*)```[\w-]*[^\S\n]*\n([\s\S]*?)\n[^\S\n]*```\s*$/.exec(code);
  return m ? `${m[1]}\n${m[2]}\n` : code;
}

export async function runProgram(code: string, opts: ProgramOptions): Promise<ProgramResult> {
  const language = opts.language ?? 'javascript';
  if (typeof code !== 'string')
    throw new TypeError(`runProgram: code must be a string of ${language === 'python' ? 'Python' : 'JavaScript'}.`);
  if (language === 'python' && !opts.sandbox)
    throw new TypeError('runProgram: a Python program needs a Pyodide sandbox (PySandbox) as the sandbox option.');
  const limits = checkLimits(opts.limits);
  const hidden = opts.hiddenTools ?? [];
  const byName = new Map([...opts.tools, ...hidden].map((t) => [t.name, t]));
  const toolCalls: InnerToolCall[] = [];
  const searches: ProgramSearch[] = [];
  let toolBytes = 0;
  // Each inner call's start is recorded from here, so a waterfall can place it inside its run_code.
  const programStart = performance.now();
  const sinceStart = (at: number) => Math.round(Math.max(0, at - programStart));

  const onCall = async (
    kind: CallKind,
    name: string,
    argsText: string,
    signal: AbortSignal,
    pauseClock: () => () => void,
  ): Promise<string> => {
    let list: unknown[];
    try {
      const parsed: unknown = JSON.parse(argsText);
      list = Array.isArray(parsed) ? parsed : [];
    } catch {
      list = [];
    }
    if (kind === 'search') {
      const query = typeof list[0] === 'string' ? list[0] : '';
      let ranked: RankedName[];
      let inCatalog: RankedName[] = [];
      try {
        // An empty query lists every hidden tool, as the no-match hint promises.
        ranked = await rankTools(query, hidden, query.trim() === '' ? hidden.length : SEARCH_LIMIT, {
          signal,
          timeoutMs: opts.ctx.limits?.searchTimeoutMs,
        });
        if (ranked.length === 0)
          inCatalog = (await rankTools(query, opts.tools, 3, { signal })).filter((h) => h.score > 0);
      } catch (error) {
        if (!(error instanceof SearchRefused)) throw error;
        const search = { query, hits: [] };
        searches.push(search);
        opts.onSearch?.(search);
        return JSON.stringify({ ok: false, error: error.message });
      }
      // The recorded hits show signatures as the model would see them printed (return types per the setting).
      const hits = ranked.flatMap((r) => {
        const tool = byName.get(r.name);
        if (!tool) return [];
        const signature =
          language === 'python' ? pythonSignatureOf(tool, opts.returnTypes) : signatureOf(tool, opts.returnTypes);
        return [{ name: r.name, score: r.score, signature }];
      });
      const search = { query, hits };
      searches.push(search);
      opts.onSearch?.(search);
      const hint = hits.length === 0 ? noMatchHint(query, inCatalog) : null;
      return JSON.stringify({ ok: true, value: { names: hits.map((h) => h.name), hint } });
    }
    const tool = byName.get(name);
    if (!tool) return JSON.stringify({ ok: false, error: `tool "${name}" does not exist` });
    const { input, record } = toolArgs(tool, list);
    if (opts.approve) {
      let verdict: Awaited<ReturnType<NonNullable<ProgramOptions['approve']>>>;
      try {
        verdict = await opts.approve(name, record, AbortSignal.any([opts.ctx.signal, signal]), pauseClock);
      } catch (error) {
        verdict = { ok: false, message: error instanceof Error ? error.message : String(error) };
      }
      if (!verdict.ok) {
        toolCalls.push({
          name,
          args: record,
          durationMs: 0,
          startMs: sinceStart(performance.now()),
          resultBytes: 0,
          error: verdict.message,
        });
        return JSON.stringify({ ok: false, error: verdict.message });
      }
    }
    const started = performance.now();
    try {
      const value = await invokeTool(
        tool,
        input,
        { ...opts.ctx, signal: AbortSignal.any([opts.ctx.signal, signal]) },
        { language },
      );
      const json = JSON.stringify(value);
      const bytes = json === undefined ? 0 : utf8(json);
      toolBytes += bytes;
      toolCalls.push({
        name,
        args: record,
        durationMs: performance.now() - started,
        startMs: sinceStart(started),
        resultBytes: bytes,
        error: null,
      });
      // A tool that speaks Python gives Python its result as a literal as well (read with ast.literal_eval).
      const py = language === 'python' ? tool.pythonResult?.(value) : undefined;
      if (py !== undefined && json !== undefined) return `{"ok":true,"value":${json},"py":${JSON.stringify(py)}}`;
      return json === undefined ? '{"ok":true}' : `{"ok":true,"value":${json}}`;
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      toolCalls.push({
        name,
        args: record,
        durationMs: performance.now() - started,
        startMs: sinceStart(started),
        resultBytes: 0,
        error: message,
      });
      return JSON.stringify({ ok: false, error: message });
    }
  };

  const outcome = await (opts.sandbox ?? sharedSandbox()).run({
    code: unfence(code),
    tools: manifestOf(opts.tools, hidden, opts.returnTypes, language),
    limits,
    onCall,
    signal: opts.ctx.signal,
    ...(opts.keepState ? { keepState: true } : {}),
  });
  return {
    output: outcome.output,
    error: codeErrorOf(
      outcome,
      code,
      limits,
      hidden.map((t) => t.name),
    ),
    toolCalls,
    searches,
    toolBytes,
    printedBytes: utf8(outcome.output),
    durationMs: outcome.durationMs,
    limitHit: limitHitOf(outcome),
    ...(opts.keepState ? { kept: outcome.state ?? null } : {}),
  };
}

export const NO_OUTPUT = '(no output — print the results you need)';

/** The text returned to the model: printed output, then the error line; a reminder when both are empty. */
export function programText(result: Pick<ProgramResult, 'output' | 'error'>): string {
  const output = result.output.replace(/\n$/, '');
  const error = result.error ? formatCodeError(result.error) : '';
  if (!output && !error) return NO_OUTPUT;
  return output && error ? `${output}\n${error}` : output || error;
}
