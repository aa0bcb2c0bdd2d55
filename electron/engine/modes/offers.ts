/**
 * How a mode shows each tool of a run, for `parallax tools`: a native schema, a line of the text prompt, or a
 * function of the run_code catalog (JavaScript or Python), visible from the first step or found with
 * search_tools. Each mode's definition builds its list from these parts (ModeDefinition.offers).
 */
import type { McpToolAnnotations } from '../../../shared/mcp-tools.js';
import { pythonSignatureOf } from '../sandbox/python/py-signature.js';
import { parametersOf, signatureOf, type ToolDefinition } from '../tools/tool.js';
import { standardBindings } from './code/bindings.js';
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

const base = (tool: ToolDefinition) => ({
  name: tool.name,
  source: tool.source ?? 'built-in',
  description: tool.description,
  ...(tool.mcp?.title ? { title: tool.mcp.title } : {}),
  ...(tool.mcp?.annotations ? { annotations: tool.mcp.annotations } : {}),
});

/** A tool offered with its JSON schema: in the tools parameter, or as a line of a text prompt. */
export const schemaOffer = (
  tool: ToolDefinition,
  offered: ToolOffer['offered'],
  as: 'schema' | 'prompt' = 'schema',
): ToolOffer => ({ ...base(tool), as, offered, parameters: parametersOf(tool) });

/** A tool offered as a function inside programs, with its signature. */
export const functionOffer = (
  tool: ToolDefinition,
  offered: ToolOffer['offered'],
  returnTypes: boolean,
  python = false,
): ToolOffer => ({
  ...base(tool),
  as: python ? 'python-function' : 'function',
  offered,
  signature: python ? pythonSignatureOf(tool, returnTypes) : signatureOf(tool, returnTypes),
});

/** The run_code catalog's functions (visible) and the tools search_tools finds (hidden), as Code Mode splits them. */
export function catalogOffers(toolset: Toolset, returnTypes: boolean, python = false): ToolOffer[] {
  const { tools: catalog, hiddenTools: hidden } = standardBindings(toolset.tools, toolset.catalog);
  return [
    ...catalog.map((t) => functionOffer(t, 'visible', returnTypes, python)),
    ...hidden.map((t) => functionOffer(t, 'search', returnTypes, python)),
  ];
}
