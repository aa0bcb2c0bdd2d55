/**
 * Code Mode: the model gets one tool, run_code, and writes JavaScript programs that call the other tools as
 * plain functions. Only what a program prints returns to the conversation. Each call is recorded as one
 * `code-run` event (plus one `tool-search` event per search_tools call, emitted as it happens).
 */
import { RUN_CODE } from './code/run-code-tool.js';
import { createProgramTool } from './code/program-tool.js';
import type { ModeAdapter, ModeOptions } from './mode.js';
import { toolsetOf } from './toolsets.js';

export { dropCodeSandbox, prewarmCodeSandbox } from './code/program-tool.js';

export function createCodeMode(opts: ModeOptions): ModeAdapter {
  const program = createProgramTool(opts);
  const exposed = [program.exposure];
  return {
    id: 'code',
    systemPrompt: toolsetOf(opts.settings, opts.taskId, opts.mcpTools).systemPrompts.code,
    tools: () => exposed,
    async handleCall(name, args, ctx) {
      if (name !== RUN_CODE) {
        return `Tool "${name}" does not exist. The only tool is ${RUN_CODE}: call it with {"code": "<JavaScript program>"}; other tools are functions inside the program.`;
      }
      return program.call(args, ctx);
    },
    dispose() {
      program.dispose();
    },
  };
}
