/**
 * Plan-and-Execute: step 1 asks for a numbered plan with tools switched off (tool_choice "none"); the plan is
 * no answer, so the run goes on; later steps are ReAct's, with every tool schema, following the plan.
 */
import { defineMode, directCalls, type ModeAdapter, type ModeOptions } from './mode.js';
import { schemaOffer } from './offers.js';
import { REACT_SYSTEM_PROMPT } from './prompts.js';
import { toolExposure } from '../tools/index.js';
import { SEED_BASE } from '../tools/seed-tools.js';
import { toolIn, toolsetOf } from './toolsets.js';
import { nativeTurn } from './turns.js';

const PLAN_REQUEST = 'Before any tool call, write a short numbered plan of the steps you will take. Call no tool yet.';
const EXECUTE = 'Now carry out the plan, one step at a time, calling the tools it needs.';

export const planExecuteMode = defineMode({
  id: 'plan-execute',
  prompts: { parallax: `${REACT_SYSTEM_PROMPT} You plan first, then execute. ${PLAN_REQUEST}`, seed: `${SEED_BASE} Plan first, then execute.` },
  create: createPlanExecuteMode,
  offers: (toolset) => toolset.tools.map((t) => schemaOffer(t, 'visible')),
  ownTools: () => [],
});

export function createPlanExecuteMode(opts: ModeOptions): ModeAdapter {
  const toolset = toolsetOf(opts.settings, opts.taskId, opts.mcpTools);
  const exposed = toolset.tools.map(toolExposure);
  return {
    id: planExecuteMode.id,
    systemPrompt: planExecuteMode.prompts[toolset.id],
    tools: () => exposed,
    prepareStep: (step) => (step === 1 ? { toolChoice: 'none' } : step === 2 ? { messages: [{ role: 'system', content: EXECUTE }] } : {}),
    readReply(reply, step, client) {
      const turn = nativeTurn(reply, step, client);
      // The plan is not the answer: the run stops only on a reply after it.
      return step === 1 ? { ...turn, calls: [], answer: null, results: () => [] } : turn;
    },
    handleCall: directCalls(opts, (name) => toolIn(toolset, name)),
  };
}
