/**
 * Hybrid mode: the common file tools are offered directly, as in ReAct, and run_code is
 * offered beside them, as in Code Mode (same sandbox, catalog and search_tools). The model picks per step: a
 * direct call for a simple look, a program for batch work. Calls are told apart by name only.
 */
import { toolExposure, type ToolDefinition } from '../tools/index.js';
import { SEED_BASE } from '../tools/seed-tools.js';
import { createProgramTool } from './code/program-tool.js';
import { RUN_CODE } from './code/run-code-tool.js';
import { defineMode, directCalls, type ModeAdapter, type ModeOptions } from './mode.js';
import { catalogOffers, schemaOffer } from './offers.js';
import { HYBRID_SYSTEM_PROMPT } from './prompts.js';
import { toolIn, toolsetOf } from './toolsets.js';

export const HYBRID_DIRECT_TOOL_NAMES: readonly string[] = ['list_dir', 'read_file'];

export const hybridMode = defineMode({
  id: 'hybrid',
  prompts: {
    parallax: HYBRID_SYSTEM_PROMPT,
    seed: `${SEED_BASE} Call simple tools directly; for batch work write a JavaScript program for run_code.`,
  },
  create: createHybridMode,
  offers: (toolset, returnTypes) => [
    ...toolset.tools.filter((t) => HYBRID_DIRECT_TOOL_NAMES.includes(t.name)).map((t) => schemaOffer(t, 'visible')),
    ...catalogOffers(toolset, returnTypes),
  ],
  ownTools: () => [RUN_CODE],
});

export function createHybridMode(opts: ModeOptions): ModeAdapter {
  const toolset = toolsetOf(opts.settings, opts.task, opts.mcpTools);
  const direct = HYBRID_DIRECT_TOOL_NAMES.map((name) => toolIn(toolset, name)).filter(
    (t): t is ToolDefinition => t !== undefined,
  );
  const program = createProgramTool(opts);
  const exposed = [...direct.map(toolExposure), program.exposure];
  const call = directCalls(opts, (name) => direct.find((t) => t.name === name), 'Hybrid');
  return {
    id: hybridMode.id,
    systemPrompt: hybridMode.prompts[toolset.id],
    tools: () => exposed,
    handleCall: (name, args, ctx) => (name === RUN_CODE ? program.call(args, ctx) : call(name, args, ctx)),
    dispose() {
      program.dispose();
    },
  };
}
