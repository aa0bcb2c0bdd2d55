/**
 * ReAct mode: every tool's full schema on every request; the model names the tools it wants each step.
 * Prompt tokens snowball because every result stays in the history — that is what the comparison shows.
 */
import { defineMode, directCalls, type ModeAdapter, type ModeOptions } from './mode.js';
import { schemaOffer } from './offers.js';
import { REACT_SYSTEM_PROMPT } from './prompts.js';
import { toolExposure } from '../tools/index.js';
import { SEED_BASE } from '../tools/seed-tools.js';
import { toolIn, toolsetOf } from './toolsets.js';

export const reactMode = defineMode({
  id: 'react',
  prompts: { parallax: REACT_SYSTEM_PROMPT, seed: SEED_BASE },
  create: createReactMode,
  offers: (toolset) => toolset.tools.map((t) => schemaOffer(t, 'visible')),
  ownTools: () => [],
});

export function createReactMode(opts: ModeOptions): ModeAdapter {
  const toolset = toolsetOf(opts.settings, opts.task, opts.mcpTools);
  const exposed = toolset.tools.map(toolExposure);
  return {
    id: reactMode.id,
    systemPrompt: reactMode.prompts[toolset.id],
    tools: () => exposed,
    handleCall: directCalls(opts, (name) => toolIn(toolset, name)),
  };
}
