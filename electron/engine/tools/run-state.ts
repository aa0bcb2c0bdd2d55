/**
 * What the tools keep per run: the workspace write budget (bytes write_file and run_shell may still add) and
 * the origins fetch_url may reach although they are local (the run's own fixture page). A run's state is
 * keyed by its workspace, which no other run shares; the engine opens it when the run starts.
 */
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { ShellBudget } from '../sandbox/shell-budget.js';
import { limitsOf } from './limits.js';
import type { SearchTarget } from './search-backends.js';
import type { ToolContext } from './tool.js';

export interface RunToolState {
  /** Bytes added to the workspace so far (write_file's bytes, and what run_shell commands added). */
  written: number;
  /** Exact origins (e.g. "http://127.0.0.1:4312") fetch_url may reach even though they are local. */
  readonly localOrigins: Set<string>;
  /** Where web_search goes in this run (null: the run offers no web_search). */
  readonly search: SearchTarget | null;
  /** What the run's run_shell commands take together: turns, processes, memory (sandbox/shell-budget.ts). */
  readonly shell: ShellBudget;
}

const states = new Map<string, RunToolState>();

export function openRunToolState(
  workspace: string,
  options: { localOrigins?: readonly string[]; search?: SearchTarget | null } = {},
): RunToolState {
  const state: RunToolState = {
    written: 0,
    localOrigins: new Set(options.localOrigins ?? []),
    search: options.search ?? null,
    shell: new ShellBudget(),
  };
  states.set(workspace, state);
  return state;
}

export function closeRunToolState(workspace: string): void {
  states.delete(workspace);
}

export function runToolState(ctx: Pick<ToolContext, 'workspace'>): RunToolState {
  let state = states.get(ctx.workspace);
  if (!state) {
    state = { written: 0, localOrigins: new Set(), search: null, shell: new ShellBudget() };
    states.set(ctx.workspace, state);
  }
  return state;
}

/** Bytes of the write budget left for this run. */
export function writeBudgetLeft(ctx: Pick<ToolContext, 'workspace' | 'limits'>): number {
  return Math.max(0, limitsOf(ctx).workspaceWriteBytes - runToolState(ctx).written);
}

/** Most entries summed by `workspaceBytes`; a bigger workspace is measured by the file system's free space. */
const MAX_ENTRIES = 20_000;

/** Total size of the regular files under `root` (links not followed); null when it has too many entries. */
export async function workspaceBytes(root: string): Promise<number | null> {
  let total = 0;
  let seen = 0;
  const queue = [root];
  while (queue.length > 0) {
    const dir = queue.pop()!;
    const entries = await fs.readdir(dir, { withFileTypes: true }).catch(() => []);
    for (const entry of entries) {
      if (++seen > MAX_ENTRIES) return null;
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) queue.push(full);
      else if (entry.isFile())
        total += await fs.lstat(full).then(
          (s) => s.size,
          () => 0,
        );
    }
  }
  return total;
}
