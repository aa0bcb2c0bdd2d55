/**
 * One definition per tool: its argument schema (zod, turned into the JSON schema the model sees), its
 * description (the model's only guide: when to use it, what it returns), its return type for the Code Mode
 * catalog, and its implementation.
 */
import { z } from 'zod';
import type { RunSettings } from '../../../shared/run-spec.js';
import type { ToolLimits } from './limits.js';
import { typeOf } from './schema-types.js';
import type { McpToolRecord } from '../../../shared/mcp-tools.js';
import type { McpContentRecord } from '../../../shared/step-event.js';

/** How far a running tool got, as it reports it (an MCP progress notification). */
export interface ToolProgress {
  readonly progress: number;
  readonly total?: number;
  readonly message?: string;
}

/** The model's call a tool runs for, and where it may report while it runs (the mode records it). */
export interface ToolReporter {
  readonly step: number;
  /** The model's call (for a call inside a program, the run_code call). */
  readonly callId: string;
  readonly inProgram: boolean;
  /** `tool` is the reporting tool's own name. */
  progress(tool: string, report: ToolProgress): void;
  /** An MCP result's blocks with their content annotations, kept on tool-finished (direct calls). */
  content?(blocks: readonly McpContentRecord[]): void;
  /** Present when the model sees images: a result's images go to it as image parts (direct calls only). */
  images?(images: readonly ToolImage[]): void;
  /** Why images are only described as text (no `images`): the model reads none, or the call is in a program. */
  readonly noImages?: string;
}

/** An image a tool returned, as base64 data of one of IMAGE_TYPES (shared/model-capabilities.ts). */
export interface ToolImage {
  readonly mimeType: string;
  readonly data: string;
}

export interface ToolContext {
  /** Absolute, real path of the run's workspace. File tools never leave it. */
  readonly workspace: string;
  readonly signal: AbortSignal;
  readonly settings: RunSettings;
  /** Optional overrides of the tools' limits (timeouts, size caps); unset fields use DEFAULT_TOOL_LIMITS. */
  readonly limits?: Partial<ToolLimits>;
  /** Absent outside a run (tests, `parallax tools`): a tool then reports nothing. */
  readonly report?: ToolReporter;
}

export interface ToolDefinition<S extends z.ZodObject = z.ZodObject, R = unknown> {
  readonly name: string;
  readonly description: string;
  readonly args: S;
  /** The return type as shown in the Code Mode catalog, e.g. `string` or `{status, contentType, title, text}`. */
  readonly returns: string;
  /** Demo tools return made-up data; their output says so. */
  readonly demo?: boolean;
  /**
   * The JSON schema of the arguments as its source gave it (an MCP server's input schema), sent to the model
   * as is; `args` then only checks it. Absent: the schema is generated from `args`.
   */
  readonly parameters?: Record<string, unknown>;
  /** The JSON schema of the result as its source gave it (an MCP output schema): each language writes its own type from it. */
  readonly returnSchema?: Record<string, unknown>;
  /** Where the tool comes from when it is not built in: the MCP server's name. */
  readonly source?: string;
  /** An MCP tool's own name on its server, title and annotations (shared/mcp-tools.ts). */
  readonly mcp?: McpToolRecord;
  /**
   * The last parameter, an array, takes every remaining positional argument of a program's call (Python's
   * `*args`): `f(1, 2, 3)` fills it with [2, 3] after the first. Signatures write it `...args` / `*args`.
   */
  readonly rest?: string;
  /** A direct call's result as the model reads it, when not JSON (a task set's own convention, e.g. Python's str()). */
  resultText?(value: R): string;
  /** The result as a Python literal for a Python program (tuples and 7500.0 stay Python's); undefined: JSON. */
  pythonResult?(value: R): string | undefined;
  /** The return type as Python writes it, when it is not the translation of `returns`. */
  readonly pythonReturns?: string;
  /**
   * In a Python program the name is Python's own built-in, which the tool is (a task set whose `max` tool is
   * Python's max): listed in the catalog, not bound over the built-in, so key= and the rest work as in Python.
   */
  readonly pythonBuiltin?: boolean;
  run(args: z.infer<S>, ctx: ToolContext): Promise<R>;
}

/** Helps inference: `defineTool({...})` keeps the args type tied to the schema. */
export function defineTool<S extends z.ZodObject, R>(def: ToolDefinition<S, R>): ToolDefinition<S, R> {
  return def;
}

/** JSON schema of the arguments, as sent to the model in `tools[].function.parameters`. */
export function parametersOf(tool: ToolDefinition): Record<string, unknown> {
  if (tool.parameters) return tool.parameters;
  const schema = z.toJSONSchema(tool.args, { target: 'draft-7', io: 'input' }) as Record<string, unknown>;
  delete schema.$schema;
  return schema;
}

/** Parameter names in declaration order (positional order for Code Mode calls). */
export function parameterNames(tool: ToolDefinition): string[] {
  if (tool.parameters) return Object.keys((tool.parameters.properties ?? {}) as Record<string, unknown>);
  return Object.keys(tool.args.shape);
}

/** `read_file(path: string): string` — with or without the return type. */
export function signatureOf(tool: ToolDefinition, withReturnType = true): string {
  const props = (parametersOf(tool).properties ?? {}) as Record<string, { type?: string; default?: unknown }>;
  const required = new Set((parametersOf(tool).required as string[] | undefined) ?? []);
  const params = parameterNames(tool).map((name) => {
    const p = props[name] ?? {};
    if (name === tool.rest) return `...${name}: ${schemaType(p, name)}`;
    const type = tool.parameters ? schemaType(p, name) : (p.type ?? 'any');
    if (p.default !== undefined) return `${name}: ${type} = ${JSON.stringify(p.default)}`;
    return required.has(name) ? `${name}: ${type}` : `${name}?: ${type}`;
  });
  return `${tool.name}(${params.join(', ')})${withReturnType ? `: ${tool.returns}` : ''}`;
}

/** A JSON schema as a TypeScript type for signatures (see schema-types.ts for depth and naming). */
export function schemaType(schema: unknown, key = ''): string {
  return typeOf(schema, 'typescript', key);
}

/** An error a tool raises on purpose; its message is written for the model (what went wrong, what to do). */
export class ToolError extends Error {
  override readonly name = 'ToolError';
}
