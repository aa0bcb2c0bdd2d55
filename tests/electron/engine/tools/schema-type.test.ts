/** JSON schemas written as signature types (MCP tools' parameters and return types). */
import { describe, expect, it } from 'vitest';
import { schemaType } from '../../../../electron/engine/tools/tool.js';

describe('schemaType', () => {
  it('writes primitives, lists, enums, unions and objects as the catalog does', () => {
    expect(schemaType({ type: 'integer' })).toBe('number');
    expect(schemaType({ type: 'array', items: { type: 'string' } })).toBe('string[]');
    expect(schemaType({ type: 'array', items: { type: 'object', properties: { oldText: { type: 'string' }, newText: { type: 'string' } }, required: ['oldText', 'newText'] } }))
      .toBe('{oldText: string, newText: string}[]');
    expect(schemaType({ type: 'array', items: { anyOf: [{ type: 'string' }, { type: 'number' }] } })).toBe('(string | number)[]');
    expect(schemaType({ type: ['string', 'null'] })).toBe('string | null');
    expect(schemaType({ enum: ['name', 'size'] })).toBe('"name" | "size"');
    expect(schemaType({ type: 'object', properties: { sum: { type: 'number' }, note: { type: 'string' } }, required: ['sum'] })).toBe('{sum: number, note?: string}');
    expect(schemaType({ properties: { a: { type: 'boolean' } } })).toBe('{a?: boolean}');
  });

  it('ends deep, empty or unknown schemas in object or any', () => {
    expect(schemaType({ type: 'object' })).toBe('object');
    expect(schemaType({ type: 'object', properties: { a: { type: 'object', properties: { b: { type: 'object', properties: { c: { type: 'string' } } } } } } })).toBe('{a?: {b?: object}}');
    expect(schemaType({})).toBe('any');
    expect(schemaType(null)).toBe('any');
  });
});
