import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { schemaType } from '../../../../electron/engine/tools/tool.js';
import { SCHEMA_OBJECT_DEPTH, typeOf, typeNameOf } from '../../../../electron/engine/tools/schema-types.js';
import { pythonSignatureOf } from '../../../../electron/engine/sandbox/python/py-signature.js';
import { signatureOf, type ToolDefinition } from '../../../../electron/engine/tools/tool.js';

const py = (schema: unknown): string => typeOf(schema, 'python');

describe('schemaType (TypeScript)', () => {
  it('writes primitives, lists, enums, unions and objects; integer stays an integer', () => {
    expect(schemaType({ type: 'integer' })).toBe('integer');
    expect(schemaType({ type: 'number' })).toBe('number');
    expect(schemaType({ type: 'array', items: { type: 'string' } })).toBe('string[]');
    expect(
      schemaType({
        type: 'array',
        items: {
          type: 'object',
          properties: { oldText: { type: 'string' }, newText: { type: 'string' } },
          required: ['oldText', 'newText'],
        },
      }),
    ).toBe('{oldText: string, newText: string}[]');
    expect(schemaType({ type: 'array', items: { anyOf: [{ type: 'string' }, { type: 'number' }] } })).toBe(
      '(string | number)[]',
    );
    expect(schemaType({ type: ['string', 'null'] })).toBe('string | null');
    expect(schemaType({ enum: ['name', 'size'] })).toBe('"name" | "size"');
    expect(
      schemaType({
        type: 'object',
        properties: { sum: { type: 'number' }, note: { type: 'string' } },
        required: ['sum'],
      }),
    ).toBe('{sum: number, note?: string}');
    expect(schemaType({ properties: { a: { type: 'boolean' } } })).toBe('{a?: boolean}');
    expect(schemaType({ type: 'object', properties: { 'content-type': { type: 'string' } } })).toBe(
      '{"content-type"?: string}',
    );
    expect(schemaType({ type: 'object', additionalProperties: { type: 'integer' } })).toBe('Record<string, integer>');
  });

  it('keeps nested objects to the stated depth, then names them by title or by key', () => {
    expect(SCHEMA_OBJECT_DEPTH).toBe(3);
    const graph = {
      type: 'object',
      properties: {
        entities: {
          type: 'array',
          items: {
            type: 'object',
            properties: { name: { type: 'string' }, observations: { type: 'array', items: { type: 'string' } } },
            required: ['name', 'observations'],
          },
        },
      },
      required: ['entities'],
    };
    expect(schemaType(graph)).toBe('{entities: {name: string, observations: string[]}[]}');
    const deep = {
      type: 'object',
      properties: {
        a: {
          type: 'object',
          properties: {
            b: { type: 'object', properties: { c: { type: 'object', properties: { d: { type: 'string' } } } } },
          },
        },
      },
    };
    expect(schemaType(deep)).toBe('{a?: {b?: {c?: C}}}');
    const titled = {
      type: 'object',
      properties: {
        a: {
          type: 'object',
          properties: {
            b: {
              type: 'object',
              properties: { c: { type: 'object', title: 'Leaf', properties: { d: { type: 'string' } } } },
            },
          },
        },
      },
    };
    expect(schemaType(titled)).toBe('{a?: {b?: {c?: Leaf}}}');
    expect(typeNameOf('entities', true)).toBe('Entity');
    expect(typeNameOf('file_info')).toBe('FileInfo');
    const wide = {
      type: 'object',
      properties: Object.fromEntries(Array.from({ length: 13 }, (_, i) => [`k${i}`, { type: 'string' }])),
    };
    expect(typeOf({ type: 'array', items: wide }, 'typescript', 'rows')).toBe('Row[]');
    expect(schemaType({ $ref: '#/$defs/Entity' })).toBe('Entity');
  });

  it('ends empty or unknown schemas in object or any', () => {
    expect(schemaType({ type: 'object' })).toBe('object');
    expect(schemaType({})).toBe('any');
    expect(schemaType(null)).toBe('any');
  });
});

describe('typeOf (Python)', () => {
  it('writes Python types: str, int, float, bool, None, Literal, list, TypedDict, dict, Optional', () => {
    expect(py({ type: 'string' })).toBe('str');
    expect(py({ type: 'integer' })).toBe('int');
    expect(py({ type: 'number' })).toBe('float');
    expect(py({ type: 'boolean' })).toBe('bool');
    expect(py({ enum: ['error', 'success'] })).toBe('Literal["error", "success"]');
    expect(py({ const: 'image' })).toBe('Literal["image"]');
    expect(py({ type: 'array', items: { type: 'string' } })).toBe('list[str]');
    expect(py({ type: ['string', 'null'] })).toBe('Optional[str]');
    expect(py({ anyOf: [{ type: 'integer' }, { type: 'null' }] })).toBe('Optional[int]');
    expect(py({ type: ['boolean', 'string'] })).toBe('bool | str');
    expect(py({ anyOf: [{ const: 'a' }, { const: 'b' }] })).toBe('Literal["a", "b"]');
    expect(py({ type: 'object' })).toBe('dict[str, Any]');
    expect(py({ type: 'object', additionalProperties: { type: 'number' } })).toBe('dict[str, float]');
    expect(
      py({
        type: 'object',
        properties: { name: { type: 'string' }, tags: { type: 'array', items: { type: 'string' } } },
        required: ['name'],
      }),
    ).toBe('TypedDict[{"name": str, "tags": NotRequired[list[str]]}]');
    expect(py({})).toBe('Any');
  });

  it('writes a signature with Python defaults: None for an optional argument, True/False, lists', () => {
    const tool: ToolDefinition = {
      name: 'srv_tool',
      description: 'x',
      args: z.looseObject({}),
      returns: '{ok: boolean}',
      returnSchema: {
        type: 'object',
        properties: { ok: { type: 'boolean' }, count: { type: 'integer' } },
        required: ['ok'],
      },
      parameters: {
        type: 'object',
        properties: {
          kind: { enum: ['a', 'b'] },
          tail: { type: 'integer' },
          flag: { type: 'boolean', default: false },
          skip: { type: 'array', items: { type: 'string' }, default: [] },
        },
        required: ['kind'],
      },
      run: async () => null,
    };
    expect(pythonSignatureOf(tool)).toBe(
      'def srv_tool(kind: Literal["a", "b"], tail: Optional[int] = None, flag: bool = False, skip: list[str] = []) -> TypedDict[{"ok": bool, "count": NotRequired[int]}]',
    );
    expect(signatureOf(tool)).toBe(
      'srv_tool(kind: "a" | "b", tail?: integer, flag: boolean = false, skip: string[] = []): {ok: boolean}',
    );
  });
});
