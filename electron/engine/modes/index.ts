/**
 * The modes' registry: one definition per ModeId (mode.ts ModeDefinition: adapter, prompts per profile, tool
 * offer), each from its own file. A mode missing here does not compile (`Missing` names it).
 */
import { DEFAULT_SETTINGS } from '../../../shared/run-spec.js';
import type { ModeId } from '../../../shared/modes.js';
import type { ModeAdapter, ModeDefinition, ModeOptions } from './mode.js';
import { reactMode } from './react-mode.js';
import { codeMode, codePyMode } from './code-mode.js';
import { hybridMode } from './hybrid-mode.js';
import { reactSearchMode } from './react-search-mode.js';
import { reactTextMode } from './react-text-mode.js';
import { agentMode } from './agent-mode.js';

const DEFINITIONS = [reactMode, codeMode, hybridMode, reactSearchMode, reactTextMode, codePyMode, agentMode] as const;

// Every ModeId has its definition: a mode left out of DEFINITIONS is named by the compiler here.
type Missing = Exclude<ModeId, (typeof DEFINITIONS)[number]['id']>;
const complete: [Missing] extends [never] ? true : Missing = true;
void complete;

const BY_ID = new Map<ModeId, ModeDefinition>(DEFINITIONS.map((d) => [d.id, d as ModeDefinition]));

export function modeDefinition(id: ModeId): ModeDefinition {
  const definition = BY_ID.get(id);
  if (!definition) throw new Error(`No engine definition for mode "${id}".`);
  return definition;
}

/** Modes that offer search_tools as a tool of their own: it ranks in the compute thread from the first step, so their worker starts it before release. */
export const TOOL_SEARCH_MODES: ReadonlySet<ModeId> = new Set(
  DEFINITIONS.filter((d) => d.ownTools(DEFAULT_SETTINGS).includes('search_tools')).map((d) => d.id),
);

export function createMode(id: ModeId, opts: ModeOptions): ModeAdapter {
  return modeDefinition(id).create(opts);
}
