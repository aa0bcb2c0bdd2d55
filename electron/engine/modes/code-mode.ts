/**
 * Code Mode: the model gets one tool, run_code, and writes JavaScript programs that call the other tools as
 * plain functions. Only what a program prints returns to the conversation. Each call is recorded as one
 * `code-run` event (plus one `tool-search` event per search_tools call, emitted as it happens).
 */
import { limitsFromSettings, programText, runProgram, Sandbox } from '../sandbox/index.js';
import { standardBindings } from './code/bindings.js';
import { RUN_CODE, runCodeExposure } from './code/run-code-tool.js';
import type { RunSettings } from '../../../shared/run-spec.js';
import type { ModeAdapter, ModeOptions } from './mode.js';
import { CODE_SYSTEM_PROMPT } from './prompts.js';

let prewarmed: Sandbox | null = null;

/** Start the sandbox thread of the next Code Mode run ahead of time (a worker does it before 'ready'). */
export async function prewarmCodeSandbox(settings: RunSettings): Promise<void> {
  prewarmed?.dispose();
  prewarmed = new Sandbox({ memoryMb: limitsFromSettings(settings).memoryMb });
  await prewarmed.warmUp();
}

export function createCodeMode(opts: ModeOptions): ModeAdapter {
  const { tools, hiddenTools } = standardBindings();
  const exposed = [runCodeExposure(tools, opts.settings.returnTypes)];
  const limits = limitsFromSettings(opts.settings);
  // One sandbox thread per run: the prewarmed one when the worker made it, else one started now, so its
  // start-up is not billed to the first program.
  const sandbox = prewarmed ?? new Sandbox({ memoryMb: limits.memoryMb });
  prewarmed = null;
  void sandbox.warmUp().catch(() => undefined);

  return {
    id: 'code',
    systemPrompt: CODE_SYSTEM_PROMPT,
    tools: () => exposed,
    async handleCall(name, args, ctx) {
      if (name !== RUN_CODE) {
        return `Tool "${name}" does not exist. The only tool is ${RUN_CODE}: call it with {"code": "<JavaScript program>"}; other tools are functions inside the program.`;
      }
      const code = args.code;
      if (typeof code !== 'string' || code.trim() === '') {
        const got = Object.keys(args).length > 0 ? `got ${Object.keys(args).map((k) => `"${k}"`).join(', ')}` : 'got no arguments';
        return `${RUN_CODE} needs {"code": "<JavaScript program>"} with the program as one string (${got}). Send the program again in the "code" field.`;
      }
      const result = await runProgram(code, {
        tools,
        hiddenTools,
        ctx: { workspace: opts.workspace, settings: opts.settings, signal: ctx.signal },
        limits,
        returnTypes: opts.settings.returnTypes,
        sandbox,
        onSearch: (search) => ctx.emit({ type: 'tool-search', step: ctx.step, callId: ctx.callId, query: search.query, hits: search.hits }),
      });
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
      });
      return programText(result);
    },
    dispose() {
      sandbox.dispose();
    },
  };
}
