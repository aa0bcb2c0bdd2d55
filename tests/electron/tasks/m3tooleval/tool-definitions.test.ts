/**
 * The ported tools as Parallax offers them: the schemas a model reads, a variadic parameter filled from a
 * program's positional arguments, the signatures in both languages, results as the original harness shows them
 * (Python's str(), cut at 2,000 characters), the Python literal a Python program receives, errors in Python's
 * words, and one browser per run.
 */
import { describe, expect, it } from 'vitest';
import { invokeTool, parametersOf, signatureOf, ToolError } from '../../../../electron/engine/tools/index.js';
import { pythonSignatureOf } from '../../../../electron/engine/sandbox/python/py-signature.js';
import { M3_DOMAINS } from '../../../../electron/tasks/m3tooleval/m3-tasks.js';
import { m3ToolDefinitions, RESULT_LIMIT } from '../../../../electron/tasks/m3tooleval/tool-definitions.js';
import { DEFAULT_SETTINGS } from '../../../../shared/run-spec.js';

const ctx = { workspace: '/nonexistent', settings: DEFAULT_SETTINGS, signal: new AbortController().signal };
const toolsOf = (domain: string) => m3ToolDefinitions(M3_DOMAINS.find((d) => d.id === domain)!.tools);
const tool = (domain: string, name: string) => toolsOf(domain).find((t) => t.name === name)!;

describe('M3ToolEval tools as Parallax tools', () => {
  it('describe their parameters as the originals document them', () => {
    expect(parametersOf(tool('travel_itinerary_planning', 'find_flights'))).toMatchObject({
      type: 'object',
      required: ['from_location', 'to_location', 'date'],
      properties: { from_location: { type: 'string' }, to_location: { type: 'string' }, date: { type: 'string' } },
    });
    expect(parametersOf(tool('travel_itinerary_planning', 'budget_calculator')).properties).toMatchObject({
      num_nights: { type: 'integer' },
      flight_price: { type: 'number' },
    });
    expect(parametersOf(tool('travel_itinerary_planning', 'book_hotel')).properties).toMatchObject({
      preferences: { type: 'array', items: { type: 'string' } },
    });
    expect(tool('web_browsing', 'view').description).toContain(
      'You should call this when you want to see the rendered content',
    );
  });

  it('write signatures with the variadic parameter in each language', () => {
    expect(signatureOf(tool('dna_sequencer', 'find_max_nucleotide'))).toBe(
      'find_max_nucleotide(...args: any[]): [string, number]',
    );
    expect(pythonSignatureOf(tool('dna_sequencer', 'find_max_nucleotide'))).toBe(
      'def find_max_nucleotide(*args) -> (str, int)',
    );
    expect(pythonSignatureOf(tool('travel_itinerary_planning', 'book_hotel'))).toBe(
      'def book_hotel(location: str, *preferences: str) -> List[Dict]',
    );
    expect(signatureOf(tool('travel_itinerary_planning', 'book_hotel'))).toMatch(
      /^book_hotel\(location: string, \.\.\.preferences: string\[\]\): /,
    );
  });

  it("take a program's positional arguments, the rest going to the variadic parameter", async () => {
    const book = tool('travel_itinerary_planning', 'book_hotel');
    const found = await invokeTool(book, ['"C"', 'wifi', 'pool'], ctx, { language: 'python' });
    expect(book.resultText!(found as never)).toBe(
      "[{'location': '\"C\"', 'preferences': ['wifi', 'pool'], 'price_per_night': 110, 'rating': 5}]",
    );
    const most = tool('dna_sequencer', 'find_max_nucleotide');
    const pair = await invokeTool(most, ['A', 4, 'G', 3, 'C', 4], ctx, { language: 'javascript' });
    expect(most.resultText!(pair as never)).toBe("('A', 4)");
    expect(most.pythonResult!(pair as never)).toBe("('A', 4)");
    expect(JSON.stringify(pair)).toBe('["A",4]');
    expect(
      tool('travel_itinerary_planning', 'sum').resultText!(
        (await invokeTool(tool('travel_itinerary_planning', 'sum'), [], ctx)) as never,
      ),
    ).toBe('0');
  });

  it("show results as Python does, floats with their .0, cut at the harness's 2,000 characters", async () => {
    const convert = tool('trade_calculator', 'convert_currency');
    expect(
      convert.resultText!((await invokeTool(convert, { base_price: 5000, conversion_rate: 1.5 }, ctx)) as never),
    ).toBe('7500.0');
    const calc = tool('trade_calculator', 'calculator');
    const long = calc.resultText!((await invokeTool(calc, { expression: '10 ** 3000' }, ctx)) as never);
    expect(long).toHaveLength(RESULT_LIMIT + '...\n[Output Truncated]'.length);
    expect(long.endsWith('0...\n[Output Truncated]')).toBe(true);
    expect(calc.resultText!((await invokeTool(calc, { expression: 'import os' }, ctx)) as never)).toBe(
      'Failed to evaluate expression: import os',
    );
  });

  it("raise the original's errors as tool errors in Python's words", async () => {
    await expect(
      invokeTool(
        tool('travel_itinerary_planning', 'find_flights'),
        { from_location: 'X', to_location: 'A', date: '2023-12-25' },
        ctx,
      ),
    ).rejects.toThrow(
      new ToolError(
        'ValueError: Origin [X] is not supported. Supported from_locations: [\'"A"\', \'"B"\', \'"C"\', \'"D"\', \'"E"\', \'"F"\']',
      ),
    );
    await expect(
      invokeTool(tool('message_decoder', 'convert_hex_to_ascii'), { hex_string: 'zz' }, ctx),
    ).rejects.toThrow(/ValueError: non-hexadecimal number found in fromhex\(\) arg at position 0/);
  });

  it('give every run its own browser', async () => {
    const a = toolsOf('web_browsing');
    const b = toolsOf('web_browsing');
    const click = (tools: typeof a, url: string) =>
      invokeTool(tools.find((t) => t.name === 'click_url')!, { url }, ctx);
    const view = async (tools: typeof a) =>
      tools[0].resultText!((await invokeTool(tools.find((t) => t.name === 'view')!, {}, ctx)) as never);
    await click(a, '/products');
    expect(await view(a)).toContain('[Web Page Name: /products]');
    expect(await view(b)).toContain('[Web Page Name: /]');
  });
});
