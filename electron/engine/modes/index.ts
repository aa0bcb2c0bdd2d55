/** The mode factory: one adapter per ModeId (the compiler asks for a new mode's adapter here). */
import { MODE_IDS, MODES, type ModeId } from '../../../shared/modes.js';
import type { ModeAdapter, ModeOptions } from './mode.js';
import { createReactMode } from './react-mode.js';
import { createCodeMode } from './code-mode.js';
import { createHybridMode } from './hybrid-mode.js';
import { createReactSearchMode } from './react-search-mode.js';
import { createReactTextMode } from './react-text-mode.js';
import { createCodePyMode } from './code-py-mode.js';

const FACTORIES: Record<ModeId, (opts: ModeOptions) => ModeAdapter> = {
  react: createReactMode,
  code: createCodeMode,
  hybrid: createHybridMode,
  'react-search': createReactSearchMode,
  'react-text': createReactTextMode,
  'code-py': createCodePyMode,
};

/** Modes that offer run_code (shared/modes.ts): their worker starts the sandbox thread before the run is released. */
export const SANDBOX_MODES: ReadonlySet<ModeId> = new Set(MODE_IDS.filter((m) => MODES[m].usesSandbox));

/** Modes whose search_tools ranks in the compute thread from the first step: their worker starts it before release. */
export const TOOL_SEARCH_MODES: ReadonlySet<ModeId> = new Set<ModeId>(['react-search']);

export function createMode(id: ModeId, opts: ModeOptions): ModeAdapter {
  return FACTORIES[id](opts);
}
