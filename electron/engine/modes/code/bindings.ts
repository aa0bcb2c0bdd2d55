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

export function standardBindings(all: readonly ToolDefinition[] = ALL_TOOLS): ToolBindings {
  return {
    tools: CATALOG_TOOL_NAMES.map((name) => all.find((t) => t.name === name)).filter((t): t is ToolDefinition => t !== undefined),
    hiddenTools: all.filter((t) => !CATALOG_TOOL_NAMES.includes(t.name)),
  };
}
