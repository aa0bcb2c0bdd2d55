/** The mode factory: one adapter per ModeId. */
import type { ModeId } from '../../../shared/run-spec.js';
import type { ModeAdapter, ModeOptions } from './mode.js';
import { createReactMode } from './react-mode.js';
import { createCodeMode } from './code-mode.js';
import { createHybridMode } from './hybrid-mode.js';
import { createReactSearchMode } from './react-search-mode.js';

const FACTORIES: Record<ModeId, (opts: ModeOptions) => ModeAdapter> = {
  react: createReactMode,
  code: createCodeMode,
  hybrid: createHybridMode,
  'react-search': createReactSearchMode,
};

/** Modes that offer run_code: their worker starts the sandbox thread before the run is released. */
export const SANDBOX_MODES: ReadonlySet<ModeId> = new Set<ModeId>(['code', 'hybrid']);

export function createMode(id: ModeId, opts: ModeOptions): ModeAdapter {
  return FACTORIES[id](opts);
}
