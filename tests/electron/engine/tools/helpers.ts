/** Shared fixtures for the tool tests: a real temp workspace and a context pointing at it. */
import { setMaxListeners } from 'node:events';
import { mkdirSync, mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { DEFAULT_SETTINGS } from '../../../../shared/run-spec.js';
import type { ToolLimits } from '../../../../electron/engine/tools/limits.js';
import type { ToolContext } from '../../../../electron/engine/tools/tool.js';

export interface TempWorkspace {
  /** The workspace (real path). */
  readonly root: string;
  /** A sibling folder outside the workspace, for escape attempts. */
  readonly outside: string;
  cleanup(): void;
}

export function tempWorkspace(): TempWorkspace {
  const base = realpathSync(mkdtempSync(path.join(tmpdir(), 'parallax-tools-')));
  const root = path.join(base, 'ws');
  const outside = path.join(base, 'outside');
  mkdirSync(root);
  mkdirSync(outside);
  return { root, outside, cleanup: () => rmSync(base, { recursive: true, force: true }) };
}

export function contextFor(
  workspace: string,
  limits?: Partial<ToolLimits>,
  signal = new AbortController().signal,
): ToolContext {
  // A run's signal as runEngine gives it: no listener limit, since every call in flight listens on it.
  setMaxListeners(0, signal);
  return { workspace, signal, settings: DEFAULT_SETTINGS, limits };
}
