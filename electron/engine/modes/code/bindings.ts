/**
 * The standard Code Mode tool bindings: which tools are global functions (the catalog, listed in the run_code
 * description) and which are hidden until search_tools finds them.
 */
import { ALL_TOOLS } from '../../tools/index.js';
import type { ToolDefinition } from '../../tools/tool.js';

export const CATALOG_TOOL_NAMES: readonly string[] = ['list_dir', 'read_file', 'write_file', 'run_shell'];

export interface ToolBindings {
  readonly tools: readonly ToolDefinition[];
  readonly hiddenTools: readonly ToolDefinition[];
}

/** `catalog`: the names listed as functions (a profile's Toolset.catalog); the other tools are hidden. */
export function standardBindings(
  all: readonly ToolDefinition[] = ALL_TOOLS,
  catalog: readonly string[] = CATALOG_TOOL_NAMES,
): ToolBindings {
  return {
    tools: catalog.map((name) => all.find((t) => t.name === name)).filter((t): t is ToolDefinition => t !== undefined),
    hiddenTools: all.filter((t) => !catalog.includes(t.name)),
  };
}
