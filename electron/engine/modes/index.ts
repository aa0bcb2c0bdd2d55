/** The mode factory: one adapter per ModeId. */
import type { ModeId } from '../../../shared/run-spec.js';
import type { ModeAdapter, ModeOptions } from './mode.js';
import { createReactMode } from './react-mode.js';
import { createCodeMode } from './code-mode.js';

const FACTORIES: Record<ModeId, (opts: ModeOptions) => ModeAdapter> = {
  react: createReactMode,
  code: createCodeMode,
};

export function createMode(id: ModeId, opts: ModeOptions): ModeAdapter {
  return FACTORIES[id](opts);
}
