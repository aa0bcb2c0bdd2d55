/** The registry: order, lookup, argument validation, error wrapping and the texts sent to the model. */
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  ALL_TOOLS,
  findTool,
  invokeTool,
  toolExposure,
  toolResultText,
  unknownToolMessage,
} from '../../../../electron/engine/tools/index.js';
import { defineTool, ToolError } from '../../../../electron/engine/tools/tool.js';
import { contextFor } from './helpers.js';

const ctx = () => contextFor(process.cwd());
const failure = async (promise: Promise<unknown>): Promise<ToolError> => {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ToolError);
  return error as ToolError;
};

describe('registry', () => {
  it('holds every tool in the documented order, each with a short description and described parameters', () => {
    expect(ALL_TOOLS.map((t) => t.name)).toEqual([
      'list_dir',
      'read_file',
      'write_file',
      'run_shell',
      'fetch_url',
      'current_time',
      'calculator',
      'get_weather',
    ]);
    for (const tool of ALL_TOOLS) {
      expect(findTool(tool.name)).toBe(tool);
      const sentences = tool.description.split(/(?<=[.!?])\s+(?=[A-Z])/).length;
      expect(sentences, tool.name).toBeLessThanOrEqual(3);
      const props = toolExposure(tool).parameters.properties as Record<string, { description?: string }>;
      for (const [name, prop] of Object.entries(props)) expect(prop.description, `${tool.name}.${name}`).toBeTruthy();
    }
    expect(findTool('nope')).toBeUndefined();
  });

  it('exposes name, description and a JSON schema with required fields and defaults', () => {
    const exposure = toolExposure(findTool('write_file')!);
    expect(exposure.name).toBe('write_file');
    expect(exposure.parameters).toMatchObject({ type: 'object', required: ['path', 'content'] });
    expect(exposure.parameters).not.toHaveProperty('$schema');
    const listDir = toolExposure(findTool('list_dir')!).parameters as {
      required?: string[];
      properties: { path: { default: string } };
    };
    expect(listDir.required ?? []).toEqual([]);
    expect(listDir.properties.path.default).toBe('.');
  });
});

describe('invokeTool', () => {
  const readFile = findTool('read_file')!;

  it('names a missing argument, the expected type and the signature', async () => {
    const error = await failure(invokeTool(readFile, {}, ctx()));
    expect(error.message).toBe(
      'Invalid arguments for read_file: missing required argument "path" (string). ' +
        'Signature: read_file(path: string): string. Call it like {"path": "…"}.',
    );
  });

  it('names a wrong-typed argument and what was given, and mentions unknown ones', async () => {
    const error = await failure(invokeTool(readFile, { path: 42, file: 'a.txt' }, ctx()));
    expect(error.message).toContain('argument "path" must be a string, got number (42)');
    expect(error.message).toContain('unexpected argument "file"');
    const calc = await failure(invokeTool(findTool('calculator')!, { expression: ['1+1'] }, ctx()));
    expect(calc.message).toContain('argument "expression" must be a string, got array (["1+1"])');
  });

  it('takes positional arrays in declaration order and refuses too many or a bare value', async () => {
    expect(await invokeTool(findTool('calculator')!, ['6*7'], ctx())).toBe(42);
    expect((await failure(invokeTool(readFile, ['a', 'b'], ctx()))).message).toContain(
      'takes at most 1 argument but got 2',
    );
    expect((await failure(invokeTool(readFile, 'a.txt', ctx()))).message).toContain(
      'as an object of named fields, e.g. {"path": "…"}, not a string',
    );
  });

  it('uses defaults when arguments are absent', async () => {
    const result = (await invokeTool(findTool('current_time')!, undefined, ctx())) as { timezone: string };
    expect(result.timezone).toBe('UTC');
  });

  it('wraps unexpected errors as "<name> failed: <message>" and keeps ToolErrors as they are', async () => {
    const boom = defineTool({
      name: 'boom',
      description: 'Fails.',
      args: z.object({ kind: z.string().describe('which failure') }),
      returns: 'never',
      async run({ kind }) {
        if (kind === 'tool') throw new ToolError('a message for the model');
        throw new TypeError('x is not a function');
      },
    });
    const wrapped = await failure(invokeTool(boom, { kind: 'bug' }, ctx()));
    expect(wrapped.message).toBe('boom failed: x is not a function');
    expect(wrapped.cause).toBeInstanceOf(TypeError);
    expect((await failure(invokeTool(boom, { kind: 'tool' }, ctx()))).message).toBe('a message for the model');
  });

  it('does not start a tool once the run is cancelled', async () => {
    const controller = new AbortController();
    controller.abort();
    const error = await failure(
      invokeTool(findTool('calculator')!, { expression: '1' }, contextFor(process.cwd(), undefined, controller.signal)),
    );
    expect(error.message).toContain('cancelled');
  });
});

describe('texts for the model', () => {
  it('toolResultText: strings as they are, the rest as compact JSON', () => {
    expect(toolResultText('a\nb')).toBe('a\nb');
    expect(toolResultText(56877)).toBe('56877');
    expect(toolResultText(['a.txt', 'logs/'])).toBe('["a.txt","logs/"]');
    expect(toolResultText({ status: 200, title: 'T' })).toBe('{"status":200,"title":"T"}');
    expect(toolResultText(null)).toBe('null');
    expect(toolResultText(undefined)).toBe('');
  });

  it('unknownToolMessage lists the tools and suggests a near match', () => {
    expect(unknownToolMessage('foo', ['a', 'b', 'c'])).toBe(
      'Tool "foo" does not exist. Available tools: a, b, c. Call one of these by its exact name.',
    );
    expect(unknownToolMessage('readFile', ['list_dir', 'read_file'])).toContain('Did you mean "read_file"?');
  });
});
