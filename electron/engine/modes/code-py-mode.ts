/**
 * Code Mode (Python): Code Mode's contract — one run_code tool, only printed output returns, a fresh namespace
 * per call, the tools as plain synchronous functions, search_tools handles — with programs in Python, run by
 * Pyodide in a contained child process (sandbox/python/). Recorded exactly like Code Mode: one `code-run`
 * event per call, one `tool-search` event per search_tools call.
 */
import { RUN_CODE } from './code/run-code-tool.js';
import { createProgramTool } from './code/program-tool.js';
import { defineMode, type ModeAdapter, type ModeOptions } from './mode.js';
import { catalogOffers } from './offers.js';
import { CODE_PY_SYSTEM_PROMPT } from './prompts.js';
import { SEED_BASE } from '../tools/seed-tools.js';
import { toolsetOf } from './toolsets.js';

export { prewarmPythonSandbox, pythonPrewarmed } from './code/program-tool.js';

export const codePyMode = defineMode({
  id: 'code-py',
  prompts: {
    parallax: CODE_PY_SYSTEM_PROMPT,
    seed: `${SEED_BASE} Write Python programs for run_code; only what a program prints comes back to you.`,
  },
  create: createCodePyMode,
  offers: (toolset, returnTypes) => catalogOffers(toolset, returnTypes, true),
  ownTools: () => [RUN_CODE],
  // Its programs run in Pyodide, not QuickJS: its worker loads Python (~2 s) instead.
  warmUp: 'python',
});

export function createCodePyMode(opts: ModeOptions): ModeAdapter {
  const program = createProgramTool(opts, 'python');
  const exposed = [program.exposure];
  return {
    id: codePyMode.id,
    systemPrompt: codePyMode.prompts[toolsetOf(opts.settings, opts.task, opts.mcpTools).id],
    tools: () => exposed,
    async handleCall(name, args, ctx) {
      if (name !== RUN_CODE) {
        return `Tool "${name}" does not exist. The only tool is ${RUN_CODE}: call it with {"code": "<Python program>"}; other tools are functions inside the program.`;
      }
      return program.call(args, ctx);
    },
    dispose() {
      program.dispose();
    },
  };
}
