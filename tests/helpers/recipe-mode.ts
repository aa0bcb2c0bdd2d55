/**
 * A mode added by following docs/architecture.md's "A mode" recipe, in one file: Plan first. Its first step is a
 * planning step (phase 'planning', tool_choice "none": a numbered plan, no call), which is no answer; later steps
 * are ReAct's, with every tool schema. A real mode would add its description to shared/modes.ts, one line to
 * electron/engine/modes/index.ts and, where the simulated model should tell it apart, a detector in
 * electron/sim/policies/modes/; the recipe test hands this one to the engine instead (EngineIO.mode), and the
 * simulated model answers it as the mode its requests look like (ReAct), as it does an agent column.
 */
import type { ModeId } from '../../shared/modes.js';
import {
  defineMode,
  directCalls,
  type ModeAdapter,
  type ModeOptions,
  type StepContext,
} from '../../electron/engine/modes/mode.js';
import { schemaOffer } from '../../electron/engine/modes/offers.js';
import { REACT_SYSTEM_PROMPT } from '../../electron/engine/modes/prompts.js';
import { toolIn, toolsetOf } from '../../electron/engine/modes/toolsets.js';
import { nativeTurn } from '../../electron/engine/modes/turns.js';
import { toolExposure } from '../../electron/engine/tools/index.js';
import { SEED_BASE } from '../../electron/engine/tools/seed-tools.js';

/** The recipe's first step, an entry in shared/modes.ts, is what makes an id a ModeId; a test cannot add one. */
export const PLAN_FIRST = 'plan-first' as ModeId;
/** The kind of step the mode declares: every surface names its step "Step 1 · planning". */
export const PLANNING = 'planning';
export const PLAN_REQUEST =
  'Before any tool call, write a short numbered plan of the steps you will take. Call no tool yet.';

/** The mode's definition; `seen` is told each step's context, so a test can check what prepareStep was given. */
export function planFirstMode(seen: (context: StepContext) => void = () => {}) {
  const definition = defineMode({
    id: PLAN_FIRST,
    prompts: { parallax: REACT_SYSTEM_PROMPT, seed: SEED_BASE },
    create: (opts: ModeOptions): ModeAdapter => {
      const toolset = toolsetOf(opts.settings, opts.task, opts.mcpTools);
      const exposed = toolset.tools.map(toolExposure);
      return {
        id: definition.id,
        systemPrompt: definition.prompts[toolset.id],
        tools: () => exposed,
        prepareStep(context) {
          // A copy: the loop goes on adding to the history after this step.
          seen({ ...context, messages: [...context.messages], steps: [...context.steps] });
          // Only before the first step: a plan; the history decides, so a resumed history is not planned again.
          const planned = context.steps.some((s) => s.phase === PLANNING);
          return planned
            ? {}
            : { phase: PLANNING, toolChoice: 'none', messages: [{ role: 'system', content: PLAN_REQUEST }] };
        },
        readReply(reply, step, client) {
          const turn = nativeTurn(reply, step, client);
          // The plan is no answer: the run stops only on a reply after it.
          return step === 1 ? { ...turn, calls: [], answer: null, results: () => [] } : turn;
        },
        handleCall: directCalls(opts, (name) => toolIn(toolset, name)),
      };
    },
    offers: (toolset) => toolset.tools.map((t) => schemaOffer(t, 'visible')),
    ownTools: () => [],
  });
  return definition;
}
