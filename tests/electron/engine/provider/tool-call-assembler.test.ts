import { describe, expect, it } from 'vitest';
import { ToolCallAssembler, type ToolCallFragment } from '../../../../electron/engine/provider/tool-call-assembler.js';

function assemble(fragments: ToolCallFragment[], toolNames: string[] = []) {
  const a = new ToolCallAssembler(new Set(toolNames));
  for (const f of fragments) a.push(f);
  return a.result().map(({ id, name, arguments: args }) => ({ id, name, args }));
}

describe('ToolCallAssembler', () => {
  it('OpenAI: keys fragments by index, id and name once, arguments split anywhere', () => {
    expect(
      assemble([
        { index: 0, id: 'a', type: 'function', function: { name: 'read_file', arguments: '' } },
        { index: 1, id: 'b', type: 'function', function: { name: 'list_dir', arguments: '{"pa' } },
        { index: 0, function: { arguments: '{"path": "x' } },
        { index: 1, function: { arguments: 'th": "."}' } },
        { index: 0, function: { arguments: '.txt"}' } },
      ]),
    ).toEqual([
      { id: 'a', name: 'read_file', args: '{"path": "x.txt"}' },
      { id: 'b', name: 'list_dir', args: '{"path": "."}' },
    ]);
  });

  it('Gemini: no index, whole calls, arguments continued without id or index, a metadata-only fragment by id', () => {
    const a = new ToolCallAssembler();
    a.push({
      id: 'g1',
      type: 'function',
      function: { name: 'read_file', arguments: '{"path":"a"}' },
      extra_content: { google: { thought_signature: 'S1' } },
    });
    a.push({ id: 'g2', type: 'function', function: { name: 'read_file', arguments: '{"path":' } });
    a.push({ function: { arguments: '"b"}' } });
    a.push({ id: 'g2', extra_content: { google: { thought_signature: 'S2' } } });
    const calls = a.result();
    expect(calls.map((c) => [c.id, c.arguments, c.extra])).toEqual([
      ['g1', '{"path":"a"}', { extra_content: { google: { thought_signature: 'S1' } } }],
      ['g2', '{"path":"b"}', { extra_content: { google: { thought_signature: 'S2' } } }],
    ]);
  });

  it('Ollama: index 0 reused for each call with its own id; an id-less continuation goes to the latest', () => {
    expect(
      assemble([
        { index: 0, id: 'o1', function: { name: 'read_file', arguments: '{"path":"a"}' } },
        { index: 0, id: 'o2', function: { name: 'read_file', arguments: '{"path":' } },
        { index: 0, function: { arguments: '"b"}' } },
      ]),
    ).toEqual([
      { id: 'o1', name: 'read_file', args: '{"path":"a"}' },
      { id: 'o2', name: 'read_file', args: '{"path":"b"}' },
    ]);
  });

  it('a second complete call under the same index without an id is a second call; an unchanged repeat is not', () => {
    expect(
      assemble([
        { index: 0, id: 'x', function: { name: 'web_search', arguments: '{"q":"A"}' } },
        { index: 0, function: { arguments: '{"q":"B"}' } },
        { index: 0, function: { name: 'web_search', arguments: '{"q":"B"}' } },
      ]),
    ).toEqual([
      { id: 'x', name: 'web_search', args: '{"q":"A"}' },
      { id: 'call_0', name: 'web_search', args: '{"q":"B"}' },
    ]);
  });

  it('whitespace after complete arguments stays with the call', () => {
    expect(
      assemble([
        { index: 0, id: 'w', function: { name: 'read_file', arguments: '{"path":"a"}' } },
        { index: 0, function: { arguments: '\n' } },
      ]),
    ).toEqual([{ id: 'w', name: 'read_file', args: '{"path":"a"}\n' }]);
  });

  it('the same id sent twice with two complete calls (seen from Gemini) gives two calls, ids kept as sent', () => {
    expect(
      assemble([
        { id: 'function-call-1758', function: { name: 'get_weather', arguments: '{"location":"taipei"}' } },
        { id: 'function-call-1758', function: { name: 'get_weather', arguments: '{"location":"tokyo"}' } },
      ]).map((c) => c.args),
    ).toEqual(['{"location":"taipei"}', '{"location":"tokyo"}']);
  });

  it('names: repeated whole in every fragment, or split across fragments', () => {
    expect(
      assemble([
        { index: 0, id: 'a', function: { name: 'read_file', arguments: '{"p' } },
        { index: 0, function: { name: 'read_file', arguments: '":1}' } },
        { index: 1, id: 'b', function: { name: 'edit_ex', arguments: '' } },
        { index: 1, function: { name: 'isting_file', arguments: '{}' } },
      ]).map((c) => c.name),
    ).toEqual(['read_file', 'edit_existing_file']);
  });

  it('with the offered tool names, tells a split name made of equal pieces from a repeated one', () => {
    expect(
      assemble(
        [
          { index: 0, id: 'a', function: { name: 'go', arguments: '' } },
          { index: 0, function: { name: 'go', arguments: '{}' } },
        ],
        ['gogo'],
      ).map((c) => c.name),
    ).toEqual(['gogo']);
    expect(
      assemble(
        [
          { index: 0, id: 'a', function: { name: 'go', arguments: '' } },
          { index: 0, function: { name: 'go', arguments: '{}' } },
        ],
        ['go'],
      ).map((c) => c.name),
    ).toEqual(['go']);
  });

  it('an id that arrives after the first fragment names the call it belongs to', () => {
    expect(
      assemble([
        { index: 0, function: { name: 'read_file', arguments: '{"path"' } },
        { index: 0, id: 'late', function: { arguments: ': "a"}' } },
      ]),
    ).toEqual([{ id: 'late', name: 'read_file', args: '{"path": "a"}' }]);
  });

  it('arguments sent as an object are kept as their JSON text', () => {
    expect(
      assemble([{ index: 0, id: 'o', function: { name: 'read_file', arguments: { path: 'a.txt' } } }])[0].args,
    ).toBe('{"path":"a.txt"}');
  });

  it('legacy function_call: one call, name then argument pieces, an id made up for the record', () => {
    const a = new ToolCallAssembler();
    a.pushLegacy({ name: 'read_file', arguments: '' });
    a.pushLegacy({ arguments: '{"path":' });
    a.pushLegacy({ arguments: '"a"}' });
    expect(a.isLegacy).toBe(true);
    expect(a.result().map(({ id, name, arguments: x }) => ({ id, name, x }))).toEqual([
      { id: 'call_0', name: 'read_file', x: '{"path":"a"}' },
    ]);
  });

  it("made-up ids never collide with the provider's own", () => {
    const ids = assemble([
      { id: 'call_0', function: { name: 'a', arguments: '{}' } },
      { index: 5, function: { name: 'b', arguments: '{}' } },
    ]).map((c) => c.id);
    expect(new Set(ids).size).toBe(2);
    expect(ids[0]).toBe('call_0');
  });

  it('keeps unknown fields of a call and of its function, merged as whole values', () => {
    const a = new ToolCallAssembler();
    a.push({
      index: 0,
      id: 'k',
      function: { name: 'f', arguments: '{}', thought_signature: 'T' },
      cache_control: { type: 'ephemeral' },
    });
    a.push({ index: 0, extra_content: { google: { thought_signature: 'S' } } });
    a.push({ index: 0, extra_content: { google: { other: 1 } } });
    const [c] = a.result();
    expect(c.functionExtra).toEqual({ thought_signature: 'T' });
    expect(c.extra).toEqual({
      cache_control: { type: 'ephemeral' },
      extra_content: { google: { thought_signature: 'S', other: 1 } },
    });
  });
});
