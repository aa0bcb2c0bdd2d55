/**
 * ReAct (text): the classic form of ReAct, for models and servers without native tool calling. No tools
 * parameter: the system prompt lists the tools and the Thought / Action / Action Input / Observation format,
 * the loop parses each reply (text/parse-reply.ts) and sends the results back as "Observation: …". The
 * actions are tool calls like ReAct's: same tools, approval gate, limits, truncation and events.
 */
import type { ModeAdapter, ModeOptions } from './mode.js';
import { reporterOf } from './mode.js';
import { invokeTool, toolExposure, toolResultText } from '../tools/index.js';
import { toolIn, toolsetOf } from './toolsets.js';
import { parseReply } from './text/parse-reply.js';
import { observationMessage, STOP_SEQUENCES, textReActPrompt } from './text/text-prompt.js';

export function createReactTextMode(opts: ModeOptions): ModeAdapter {
  const toolset = toolsetOf(opts.settings, opts.taskId, opts.mcpTools);
  const exposed = toolset.tools.map(toolExposure);
  return {
    id: 'react-text',
    systemPrompt: textReActPrompt(toolset.systemPrompts['react-text'], exposed),
    tools: () => exposed,
    text: { stop: STOP_SEQUENCES, parse: parseReply, observation: observationMessage },
    async handleCall(name, args, ctx) {
      const tool = toolIn(toolset, name);
      if (!tool) throw new Error(`Tool "${name}" is not registered.`);
      const value = await invokeTool(tool, args, { workspace: opts.workspace, settings: opts.settings, signal: ctx.signal, report: reporterOf(ctx) });
      return toolResultText(value);
    },
  };
}
