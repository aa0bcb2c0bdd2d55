/**
 * A run's tool profile (shared/toolsets.ts): the tools every mode draws from, the Code Mode catalog and the
 * run_code description. Modes ask here instead of naming tools themselves, so a profile changes what the model
 * is offered in every mode at once; each mode's system prompt per profile is in its own definition
 * (ModeDefinition.prompts, keyed by the profile's id).
 */
import type { RunSettings } from '../../../shared/run-spec.js';
import type { ToolsetId } from '../../../shared/toolsets.js';
import { runCodeDescription } from './code/run-code-tool.js';
import { ALL_TOOLS } from '../tools/index.js';
import { SEED_TOOLS, seedRunCodeDescription } from '../tools/seed-tools.js';
import type { ToolDefinition } from '../tools/tool.js';
import type { TaskTools } from '../run-task.js';
import { CATALOG_TOOL_NAMES } from './code/bindings.js';
import { webSearch } from '../tools/web-search.js';
import { describedTools } from '../tools/tool-descriptions.js';

export interface Toolset {
  readonly id: ToolsetId;
  readonly tools: readonly ToolDefinition[];
  /** The tools Code Mode lists in run_code's catalog (the rest are found with search_tools), by name. */
  readonly catalog: readonly string[];
  runCodeDescription(catalog: readonly ToolDefinition[], returnTypes: boolean): string;
}

const TOOLSETS: Readonly<Record<ToolsetId, Toolset>> = {
  parallax: { id: 'parallax', tools: ALL_TOOLS, catalog: CATALOG_TOOL_NAMES, runCodeDescription },
  seed: { id: 'seed', tools: SEED_TOOLS, catalog: CATALOG_TOOL_NAMES, runCodeDescription: seedRunCodeDescription },
};

const NO_TOOLS: readonly ToolDefinition[] = [];
/** Profiles with a task's tools, by the task's tool list (a run's own list: a task may make its tools per run). */
const withTaskTools = new WeakMap<readonly ToolDefinition[], Map<string, Toolset>>();

/**
 * The run's profile with the tools its built-in task brings (engine/run-task.ts: after the profile's, or
 * instead of them), web_search when the settings name a search backend, and the run's MCP tools (engine/mcp/),
 * appended last; every tool described as `toolDescriptions` says (tools/tool-descriptions.ts).
 */
export function toolsetOf(
  settings: Pick<RunSettings, 'toolset'> & Partial<Pick<RunSettings, 'webSearch' | 'toolDescriptions'>>,
  task?: TaskTools | null,
  mcpTools: readonly ToolDefinition[] = NO_TOOLS,
): Toolset {
  const profile = TOOLSETS[settings.toolset ?? 'parallax'];
  const taskTools = task?.tools ?? NO_TOOLS;
  const instead = task?.offer === 'instead';
  const base: Toolset = instead ? { ...profile, tools: NO_TOOLS, catalog: taskTools.map((t) => t.name) } : profile;
  const extra = [...taskTools];
  const searching = (settings.webSearch ?? 'off') !== 'off';
  if (searching && !extra.includes(webSearch) && !base.tools.some((t) => t.name === webSearch.name))
    extra.push(webSearch);
  const descriptions = settings.toolDescriptions ?? 'full';
  // MCP tools differ per run (each worker lists its own servers), so such a profile is not cached.
  if (mcpTools.length > 0)
    return { ...base, tools: describedTools([...base.tools, ...extra, ...mcpTools], descriptions) };
  if (extra.length === 0 && descriptions === 'full') return base;
  const key = `${base.id}/${instead}/${searching}/${descriptions}`;
  let cached = withTaskTools.get(taskTools);
  if (!cached) withTaskTools.set(taskTools, (cached = new Map()));
  let toolset = cached.get(key);
  if (!toolset) {
    toolset = { ...base, tools: describedTools([...base.tools, ...extra], descriptions) };
    cached.set(key, toolset);
  }
  return toolset;
}

/** A tool of the run's profile by name. */
export function toolIn(toolset: Toolset, name: string): ToolDefinition | undefined {
  return toolset.tools.find((tool) => tool.name === name);
}
