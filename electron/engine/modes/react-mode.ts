/**
 * ReAct mode: every tool's full schema on every request; the model names the tools it wants each step.
 * Prompt tokens snowball because every result stays in the history — that is what the comparison shows.
 */
import type { ModeAdapter, ModeOptions } from './mode.js';
import { reporterOf } from './mode.js';
import { invokeTool, toolExposure, toolResultText } from '../tools/index.js';
import { toolIn, toolsetOf } from './toolsets.js';

export function createReactMode(opts: ModeOptions): ModeAdapter {
  const toolset = toolsetOf(opts.settings, opts.taskId, opts.mcpTools);
  const exposed = toolset.tools.map(toolExposure);
  return {
    id: 'react',
    systemPrompt: toolset.systemPrompts.react,
    tools: () => exposed,
    async handleCall(name, args, ctx) {
      const tool = toolIn(toolset, name);
      // The loop only passes names from tools(), so this is a programming error, not a model error.
      if (!tool) throw new Error(`Tool "${name}" is not registered.`);
      const value = await invokeTool(tool, args, { workspace: opts.workspace, settings: opts.settings, signal: ctx.signal, report: reporterOf(ctx) });
      return toolResultText(value);
    },
  };
}
