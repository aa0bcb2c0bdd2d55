/**
 * What a mode offers of a run's tools, tool by tool: how the model sees it (a native schema, a function in the
 * run_code catalog, a line of the text prompt) and whether it is visible from the first step or found with
 * search_tools. `parallax tools` prints it; the split is the adapters' own (standardBindings, Hybrid's direct
 * tools), read from the same constants.
 */
import type { ModeId } from '../../../shared/modes.js';
import type { McpToolAnnotations } from '../../../shared/mcp-tools.js';
import { pythonSignatureOf } from '../sandbox/python/py-signature.js';
import { parametersOf, signatureOf, type ToolDefinition } from '../tools/tool.js';
import { standardBindings } from './code/bindings.js';
import { RUN_CODE } from './code/run-code-tool.js';
import { HYBRID_DIRECT_TOOL_NAMES } from './hybrid-mode.js';
import type { Toolset } from './toolsets.js';

export type OfferedAs = 'schema' | 'prompt' | 'function' | 'python-function';

export interface ToolOffer {
  readonly name: string;
  /** 'built-in', or the MCP server the tool comes from. */
  readonly source: string;
  readonly as: OfferedAs;
  /** Visible from the first step, or hidden until search_tools finds it. */
  readonly offered: 'visible' | 'search';
  readonly description: string;
  /** The JSON schema of its arguments (schema and prompt), or its signature (functions). */
  readonly parameters?: Record<string, unknown>;
  readonly signature?: string;
  /** An MCP tool's title and annotations as its server gave them. */
  readonly title?: string;
  readonly annotations?: McpToolAnnotations;
}

/** The mode's own tools (run_code, search_tools), which no profile lists. */
export const MODE_TOOLS: Readonly<Record<ModeId, readonly string[]>> = {
  react: [], 'react-text': [], 'react-search': ['search_tools'], code: [RUN_CODE], hybrid: [RUN_CODE], 'code-py': [RUN_CODE],
};

export function toolOffers(mode: ModeId, toolset: Toolset, returnTypes: boolean): ToolOffer[] {
  const base = (tool: ToolDefinition) => ({
    name: tool.name, source: tool.source ?? 'built-in', description: tool.description,
    ...(tool.mcp?.title ? { title: tool.mcp.title } : {}), ...(tool.mcp?.annotations ? { annotations: tool.mcp.annotations } : {}),
  });
  const schema = (tool: ToolDefinition, offered: ToolOffer['offered'], as: OfferedAs = 'schema'): ToolOffer => ({ ...base(tool), as, offered, parameters: parametersOf(tool) });
  const fn = (tool: ToolDefinition, offered: ToolOffer['offered'], python = false): ToolOffer => ({
    ...base(tool), as: python ? 'python-function' : 'function', offered, signature: python ? pythonSignatureOf(tool, returnTypes) : signatureOf(tool, returnTypes),
  });
  const { tools: catalog, hiddenTools: hidden } = standardBindings(toolset.tools);
  switch (mode) {
    case 'react':
      return toolset.tools.map((t) => schema(t, 'visible'));
    case 'react-text':
      return toolset.tools.map((t) => schema(t, 'visible', 'prompt'));
    case 'react-search':
      return [...catalog.map((t) => schema(t, 'visible')), ...hidden.map((t) => schema(t, 'search'))];
    case 'code':
    case 'code-py':
      return [...catalog.map((t) => fn(t, 'visible', mode === 'code-py')), ...hidden.map((t) => fn(t, 'search', mode === 'code-py'))];
    case 'hybrid': {
      const direct = toolset.tools.filter((t) => HYBRID_DIRECT_TOOL_NAMES.includes(t.name)).map((t) => schema(t, 'visible'));
      return [...direct, ...catalog.map((t) => fn(t, 'visible')), ...hidden.map((t) => fn(t, 'search'))];
    }
  }
}
