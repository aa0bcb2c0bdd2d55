/**
 * The run_code tool as a mode carries it: its exposure (with the catalog), the run's sandbox thread, and one
 * call → one `code-run` event (plus a `tool-search` event per search_tools call inside the program). Code Mode
 * offers only this tool; Hybrid offers it beside direct tools. Both share this, so a program runs the same way.
 */
import type { RunSettings } from '../../../../shared/run-spec.js';
import type { ToolExposure } from '../../../../shared/step-event.js';
import {
  limitsFromSettings,
  programText,
  runProgram,
  Sandbox,
  type ProgramLanguage,
  type ProgramSandbox,
} from '../../sandbox/index.js';
import { PySandbox } from '../../sandbox/python/py-sandbox.js';
import { pyRunCodeExposure } from './py-run-code-tool.js';
import type { CallContext, ModeOptions } from '../mode.js';
import { reporterOf } from '../mode.js';
import { standardBindings } from './bindings.js';
import { toolsetOf } from '../toolsets.js';
import { RUN_CODE, runCodeExposure } from './run-code-tool.js';
import { codeStateText, persistErrorNote, withCodeState } from './code-state.js';
import type { CodeState } from '../../../../shared/step-event.js';

let prewarmed: { readonly sandbox: Sandbox; readonly memoryMb: number } | null = null;

/**
 * Start the sandbox thread of the next run that uses run_code ahead of time (a worker does it before 'ready').
 * One already started for the same memory limit (a pooled worker's, made with the default settings) is kept.
 */
export async function prewarmCodeSandbox(settings: RunSettings): Promise<void> {
  const { memoryMb } = limitsFromSettings(settings);
  if (prewarmed?.memoryMb !== memoryMb) {
    prewarmed?.sandbox.dispose();
    prewarmed = { sandbox: new Sandbox({ memoryMb }), memoryMb };
  }
  await prewarmed.sandbox.warmUp();
}

/** Stop a sandbox thread started ahead of time that no run will use (a pooled worker given a ReAct run). */
export function dropCodeSandbox(): void {
  prewarmed?.sandbox.dispose();
  prewarmed = null;
}

let prewarmedPython: PySandbox | null = null;

/**
 * Start the Pyodide child of the next Code Mode (Python) run ahead of time (a worker does it before 'ready'),
 * so loading Python is paid before the run is released, not in its first step. Resolves to what it cost.
 */
export async function prewarmPythonSandbox(): Promise<{ loadMs: number; rssBytes: number; containment: string }> {
  prewarmedPython ??= new PySandbox();
  return prewarmedPython.warmUp();
}

/** Stop a Pyodide child started ahead that no run will use (a worker hinted for Python given another run). */
export function dropPythonSandbox(): void {
  prewarmedPython?.dispose();
  prewarmedPython = null;
}

/** Whether a Pyodide child waits for the next run (tests: a Code Mode (Python) worker has one before release). */
export function pythonPrewarmed(): boolean {
  return prewarmedPython?.processesStarted === 1;
}

export interface ProgramTool {
  readonly exposure: ToolExposure;
  /** Run the program in `args.code`; returns the text for the model (printed output, then any error). */
  call(args: Record<string, unknown>, ctx: CallContext): Promise<string>;
  dispose(): void;
}

function sandboxFor(
  language: ProgramLanguage,
  memoryMb: number,
): ProgramSandbox & { warmUp(): Promise<unknown>; dispose(): void } {
  if (language === 'python') {
    const sandbox = prewarmedPython ?? new PySandbox();
    prewarmedPython = null;
    return sandbox;
  }
  const sandbox = prewarmed?.memoryMb === memoryMb ? prewarmed.sandbox : new Sandbox({ memoryMb });
  if (prewarmed && prewarmed.sandbox !== sandbox) prewarmed.sandbox.dispose();
  prewarmed = null;
  return sandbox;
}

export function createProgramTool(opts: ModeOptions, language: ProgramLanguage = 'javascript'): ProgramTool {
  const toolset = toolsetOf(opts.settings, opts.task, opts.mcpTools);
  const { tools, hiddenTools } = standardBindings(toolset.tools, toolset.catalog);
  const codeState = opts.settings.codeState ?? 'fresh';
  const base =
    language === 'python'
      ? pyRunCodeExposure(tools, opts.settings.returnTypes)
      : runCodeExposure(tools, opts.settings.returnTypes, toolset.runCodeDescription);
  const exposure = { ...base, description: withCodeState(base.description, codeState) };
  const keepState = codeState === 'persist';
  /** Names the sandbox held after the previous program (codeState 'persist'), to say what a limit took. */
  let stored: string[] = [];
  const limits = limitsFromSettings(opts.settings);
  // One sandbox per run: the prewarmed one when the worker made it, else one started now, so its start-up
  // is not billed to the first program.
  const sandbox = sandboxFor(language, limits.memoryMb);
  // Python's load (~2 s of CPU, ~200 MB) starts only when asked: a worker prewarms it before release
  // (prewarmPythonSandbox); a mode made only to read its prompt and tools never pays it.
  if (language === 'javascript') void sandbox.warmUp().catch(() => undefined);
  const languageName = language === 'python' ? 'Python' : 'JavaScript';

  return {
    exposure,
    async call(args, ctx) {
      const code = args.code;
      if (typeof code !== 'string' || code.trim() === '') {
        const got =
          Object.keys(args).length > 0
            ? `got ${Object.keys(args)
                .map((k) => `"${k}"`)
                .join(', ')}`
            : 'got no arguments';
        return `${RUN_CODE} needs {"code": "<${languageName} program>"} with the program as one string (${got}). Send the program again in the "code" field.`;
      }
      const result = await runProgram(code, {
        tools,
        hiddenTools,
        ctx: { workspace: opts.workspace, settings: opts.settings, signal: ctx.signal, report: reporterOf(ctx, true) },
        limits,
        returnTypes: opts.settings.returnTypes,
        sandbox,
        language,
        keepState,
        ...(opts.approvals
          ? {
              approve: (name: string, callArgs: unknown, signal: AbortSignal, pauseClock: () => () => void) =>
                opts.approvals!.check(
                  name,
                  callArgs,
                  { step: ctx.step, callId: ctx.callId, inProgram: true },
                  signal,
                  pauseClock,
                ),
            }
          : {}),
        onSearch: (search) =>
          ctx.emit({ type: 'tool-search', step: ctx.step, callId: ctx.callId, query: search.query, hits: search.hits }),
      });
      // A sandbox that dropped its context (a limit) or was replaced (killed) reports nothing kept.
      const before = stored;
      const state: CodeState | null = keepState
        ? result.kept
          ? { variables: result.kept.variables, memoryBytes: result.kept.memoryBytes, lost: false }
          : { variables: [], memoryBytes: null, lost: before.length > 0 }
        : null;
      stored = state ? state.variables.map((v) => v.name) : [];
      ctx.emit({
        type: 'code-run',
        step: ctx.step,
        callId: ctx.callId,
        code,
        output: result.output,
        error: result.error,
        toolCalls: result.toolCalls,
        toolBytes: result.toolBytes,
        printedBytes: result.printedBytes,
        durationMs: result.durationMs,
        limitHit: result.limitHit,
        ...(state ? { state } : {}),
      });
      if (!state) return programText(result);
      const note = language === 'javascript' ? persistErrorNote(result.error, code) : null;
      return `${programText(result)}\n${codeStateText(state, before, note)}`;
    },
    dispose() {
      sandbox.dispose();
    },
  };
}
