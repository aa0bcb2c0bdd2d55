/**
 * M3ToolEval's tools as Parallax tools, made afresh for each run (web browsing's browser is the run's own):
 * the original names and descriptions, parameters typed as the originals document them (a `*args` parameter is
 * an array, and takes the rest of a program's positional arguments), and results shown as the original
 * harness shows them: a direct call reads Python's str() of the result, cut at 2,000 characters as the harness
 * cuts it; a Python program gets the Python value itself; a JavaScript program gets it as JSON.
 */
import { z } from 'zod';
import { ToolError, type ToolDefinition } from '../../engine/tools/tool.js';
import type { M3Param, M3Session, M3Tool } from './m3-tool.js';
import { fromJson, PyError, repr, str, toJson, type PyValue } from './py-value.js';

/** The harness's cut of a shown result. */
export const RESULT_LIMIT = 2000;

/** A ported tool's result: its Python value, written as JSON for everyone who reads JSON. */
export class PyResult {
  constructor(readonly value: PyValue) {}
  toJSON(): unknown {
    return toJson(this.value);
  }
}

function schemaOf(type: M3Param['type']): z.ZodType {
  if (type === 'str') return z.string();
  if (type === 'float') return z.number();
  if (type === 'int') return z.number().int();
  return z.unknown();
}

/** The text a direct call returns: str(result), cut as the harness cuts it. */
export function shownResult(value: PyValue): string {
  const text = str(value);
  return text.length > RESULT_LIMIT ? `${text.slice(0, RESULT_LIMIT)}...\n[Output Truncated]` : text;
}

/**
 * An argument as the original receives it from JSON. JSON.parse cannot tell 7500.0 from 7500, which json.loads
 * can, so a whole number given where the original documents a float is taken as the float (the model writes
 * back results such as 7500.0 that way); elsewhere a whole number is an int.
 */
function argument(type: M3Param['type'], raw: unknown): PyValue {
  return type === 'float' && typeof raw === 'number' ? raw : fromJson(raw);
}

function definition(tool: M3Tool, session: M3Session): ToolDefinition {
  const shape = Object.fromEntries(
    tool.params.map((p) => [p.name, p.variadic ? z.array(schemaOf(p.type)).default([]) : schemaOf(p.type)]),
  );
  const variadic = tool.params.find((p) => p.variadic);
  return {
    name: tool.name,
    description: tool.description,
    args: z.object(shape),
    returns: tool.returns,
    pythonReturns: tool.pythonReturns,
    ...(variadic ? { rest: variadic.name } : {}),
    ...(tool.pythonBuiltin ? { pythonBuiltin: true } : {}),
    resultText: (value: unknown) => (value instanceof PyResult ? shownResult(value.value) : String(value)),
    pythonResult: (value: unknown) => (value instanceof PyResult ? repr(value.value) : undefined),
    async run(args: Record<string, unknown>) {
      const values = tool.params.flatMap((p) =>
        (p.variadic ? ((args[p.name] as unknown[] | undefined) ?? []) : [args[p.name]]).map((raw) =>
          argument(p.type, raw),
        ),
      );
      try {
        return new PyResult(tool.run(values, session));
      } catch (error) {
        if (error instanceof PyError) throw new ToolError(`${error.pyType}: ${error.message}`);
        throw error;
      }
    },
  } as ToolDefinition;
}

/** The domain's tools for one run: one session (browser) shared by them, none shared with another run. */
export function m3ToolDefinitions(tools: readonly M3Tool[]): ToolDefinition[] {
  const session: M3Session = {};
  return tools.map((t) => definition(t, session));
}
