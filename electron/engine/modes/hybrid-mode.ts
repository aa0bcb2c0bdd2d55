/**
 * Hybrid mode: the common file tools are offered directly, as in ReAct, and run_code is
 * offered beside them, as in Code Mode (same sandbox, catalog and search_tools). The model picks per step: a
 * direct call for a simple look, a program for batch work. Calls are told apart by name only.
 */
import { invokeTool, toolExposure, toolResultText, type ToolDefinition } from '../tools/index.js';
import { createProgramTool } from './code/program-tool.js';
import { RUN_CODE } from './code/run-code-tool.js';
import type { ModeAdapter, ModeOptions } from './mode.js';
import { reporterOf } from './mode.js';
import { toolIn, toolsetOf } from './toolsets.js';

export const HYBRID_DIRECT_TOOL_NAMES: readonly string[] = ['list_dir', 'read_file'];

export function createHybridMode(opts: ModeOptions): ModeAdapter {
  const toolset = toolsetOf(opts.settings, opts.taskId, opts.mcpTools);
  const direct = HYBRID_DIRECT_TOOL_NAMES.map((name) => toolIn(toolset, name)).filter((t): t is ToolDefinition => t !== undefined);
  const program = createProgramTool(opts);
  const exposed = [...direct.map(toolExposure), program.exposure];
  return {
    id: 'hybrid',
    systemPrompt: toolset.systemPrompts.hybrid,
    tools: () => exposed,
    async handleCall(name, args, ctx) {
      if (name === RUN_CODE) return program.call(args, ctx);
      const tool = direct.find((t) => t.name === name);
      // The loop only passes names from tools(), so this is a programming error, not a model error.
      if (!tool) throw new Error(`Tool "${name}" is not registered in Hybrid mode.`);
      const value = await invokeTool(tool, args, { workspace: opts.workspace, settings: opts.settings, signal: ctx.signal, report: reporterOf(ctx) });
      return toolResultText(value);
    },
    dispose() {
      program.dispose();
    },
  };
}
