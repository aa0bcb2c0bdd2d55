/**
 * The agent column (mode "agent"): no loop of Parallax's. Its program runs its own loop and its model requests
 * are recorded by the run's recording proxy (engine/agent/agent-run.ts), which run-engine.ts starts instead of
 * the loop. The definition is here so the registry stays complete: it offers nothing and writes no prompt.
 */
import { TOOLSET_IDS, type ToolsetId } from '../../../shared/toolsets.js';
import { defineMode } from './mode.js';

export const agentMode = defineMode({
  id: 'agent',
  prompts: Object.fromEntries(TOOLSET_IDS.map((id) => [id, ''])) as Record<ToolsetId, string>,
  create() {
    throw new Error('An agent column runs its own program (engine/agent/agent-run.ts), not the loop.');
  },
  offers: () => [],
  ownTools: () => [],
});
