/**
 * ReAct mode: every tool's full schema on every request; the model names the tools it wants each step.
 * Prompt tokens snowball because every result stays in the history — that is what the comparison shows.
 */
import type { ModeAdapter, ModeOptions } from './mode.js';
import { REACT_SYSTEM_PROMPT } from './prompts.js';
import { ALL_TOOLS, findTool, invokeTool, toolExposure, toolResultText } from '../tools/index.js';

export function createReactMode(opts: ModeOptions): ModeAdapter {
  const exposed = ALL_TOOLS.map(toolExposure);
  return {
    id: 'react',
    systemPrompt: REACT_SYSTEM_PROMPT,
    tools: () => exposed,
    async handleCall(name, args, ctx) {
      const tool = findTool(name);
      // The loop only passes names from tools(), so this is a programming error, not a model error.
      if (!tool) throw new Error(`Tool "${name}" is not registered.`);
      const value = await invokeTool(tool, args, { workspace: opts.workspace, settings: opts.settings, signal: ctx.signal });
      return toolResultText(value);
    },
  };
}
