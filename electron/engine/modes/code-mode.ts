/**
 * Code Mode: the model gets one tool, run_code, and writes JavaScript programs that call the other tools as
 * plain functions. Only what a program prints returns to the conversation. Each call is recorded as one
 * `code-run` event (plus one `tool-search` event per search_tools call, emitted as it happens).
 */
import { RUN_CODE } from './code/run-code-tool.js';
import { createProgramTool } from './code/program-tool.js';
import { defineMode, type ModeAdapter, type ModeOptions } from './mode.js';
import { catalogOffers } from './offers.js';
import { CODE_SYSTEM_PROMPT } from './prompts.js';
import { SEED_BASE } from '../tools/seed-tools.js';
import { toolsetOf } from './toolsets.js';

export { dropCodeSandbox, prewarmCodeSandbox } from './code/program-tool.js';

export const codeMode = defineMode({
  id: 'code',
  prompts: {
    parallax: CODE_SYSTEM_PROMPT,
    seed: `${SEED_BASE} Write JavaScript programs for run_code; only what a program prints comes back to you.`,
  },
  create: createCodeMode,
  offers: (toolset, returnTypes) => catalogOffers(toolset, returnTypes),
  ownTools: () => [RUN_CODE],
  warmUp: 'javascript',
});

export function createCodeMode(opts: ModeOptions): ModeAdapter {
  const program = createProgramTool(opts);
  const exposed = [program.exposure];
  return {
    id: codeMode.id,
    systemPrompt: codeMode.prompts[toolsetOf(opts.settings, opts.task, opts.mcpTools).id],
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
