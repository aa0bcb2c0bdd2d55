/**
 * ReAct (text): the classic form of ReAct, for models and servers without native tool calling. No tools
 * parameter: the system prompt lists the tools and the Thought / Action / Action Input / Observation format,
 * its hooks parse each reply (text/parse-reply.ts) and send the results back as "Observation: …". The
 * actions are tool calls like ReAct's: same tools, approval gate, limits, truncation and events.
 */
import { defineMode, directCalls, type ModeAdapter, type ModeOptions } from './mode.js';
import { schemaOffer } from './offers.js';
import { REACT_TEXT_SYSTEM_PROMPT } from './prompts.js';
import { toolExposure } from '../tools/index.js';
import { SEED_BASE } from '../tools/seed-tools.js';
import { toolIn, toolsetOf } from './toolsets.js';
import { parseReply } from './text/parse-reply.js';
import { observationMessage, STOP_SEQUENCES, textReActPrompt } from './text/text-prompt.js';
import { textHooks } from './turns.js';

export const reactTextMode = defineMode({
  id: 'react-text',
  // The opening only: the mode appends the tool list and the format (text/text-prompt.ts); the tutorial's is its own opening.
  prompts: { parallax: REACT_TEXT_SYSTEM_PROMPT, seed: SEED_BASE },
  create: createReactTextMode,
  offers: (toolset) => toolset.tools.map((t) => schemaOffer(t, 'visible', 'prompt')),
  ownTools: () => [],
});

export function createReactTextMode(opts: ModeOptions): ModeAdapter {
  const toolset = toolsetOf(opts.settings, opts.task, opts.mcpTools);
  const exposed = toolset.tools.map(toolExposure);
  return {
    id: reactTextMode.id,
    systemPrompt: textReActPrompt(reactTextMode.prompts[toolset.id], exposed),
    tools: () => exposed,
    ...textHooks({ stop: STOP_SEQUENCES, parse: parseReply, observation: observationMessage }),
    handleCall: directCalls(opts, (name) => toolIn(toolset, name)),
  };
}
