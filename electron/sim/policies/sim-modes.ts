/**
 * The simulated model's modes: one detector and policy wrapper per mode (sim-mode.ts), each in its own file.
 * The detectors are asked in this order and the first that claims a request wins, so the more particular
 * ones come first and ReAct, which claims anything, comes last. A mode left out does not compile.
 */
import type { ModeId } from '../../../shared/modes.js';
import { codeSim } from './modes/code-mode.js';
import { codePySim } from './modes/code-py-mode.js';
import { hybridSim } from './modes/hybrid-mode.js';
import { reactSim } from './modes/react-mode.js';
import { reactSearchSim } from './modes/react-search-mode.js';
import { reactTextSim } from './modes/react-text-mode.js';
import { textOf, type WireMessage, type WireTool } from '../types.js';
import type { ModeSignals, SimMode } from './sim-mode.js';

const SIM_MODES = [reactTextSim, codePySim, codeSim, hybridSim, reactSearchSim, reactSim] as const;

// Every ModeId has its simulated mode: one left out of SIM_MODES is named by the compiler here. An agent
// column has none of its own: its requests are answered as the mode they look like (its tools, its prompt).
type Missing = Exclude<ModeId, (typeof SIM_MODES)[number]['id'] | 'agent'>;
const complete: [Missing] extends [never] ? true : Missing = true;
void complete;

/** The mode a request is in, from what it offers (ReAct when nothing more particular claims it). */
export function simModeOf(signals: ModeSignals): SimMode {
  return SIM_MODES.find((m) => m.detect(signals)) ?? reactSim;
}

/** The mode of a request as it arrived: its tools, its first system (or developer) message, run_code's description. */
export function requestModeOf(messages: readonly WireMessage[], tools: readonly WireTool[]): SimMode {
  const system = messages.find((m) => m.role === 'system' || m.role === 'developer');
  return simModeOf({
    toolNames: new Set(tools.map((t) => t.function.name)),
    systemPrompt: system ? textOf(system.content) : '',
    runCodeDescription: tools.find((t) => t.function.name === 'run_code')?.function.description ?? '',
  });
}
