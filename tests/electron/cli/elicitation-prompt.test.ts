/**
 * An MCP server's form on the terminal, through the real TerminalPrompter on in-memory streams: the server's
 * message shown inert, each field asked with what it takes, a value that does not fit asked again, defaults on
 * Enter; n declines, c cancels, and input that ends (or keeps failing) cancels instead of looping.
 */
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { elicitFields } from '../../../shared/mcp-elicitation.js';
import { TerminalPrompter } from '../../../electron/cli/approvals.js';
import { askElicitationOnTerminal } from '../../../electron/cli/elicitation-prompt.js';

const read = elicitFields({
  type: 'object',
  properties: {
    name: { type: 'string', title: 'Your name', description: 'As on your badge' },
    age: { type: 'integer', minimum: 0, maximum: 150 },
    colour: {
      type: 'string',
      oneOf: [
        { const: 'r', title: 'Red' },
        { const: 'g', title: 'Green' },
      ],
      default: 'g',
    },
    tags: { type: 'array', items: { type: 'string', enum: ['a', 'b', 'c'] } },
    ok: { type: 'boolean' },
  },
  required: ['name', 'age'],
});
if (!read.ok) throw new Error(read.error);
const request = { elicitationId: 'e1', server: 'srv', message: 'Who are you?\u001b[2J', fields: read.fields };

/** Feeds the lines one by one, each after the prompt asking for it has been written. */
async function answer(lines: string[], end = false) {
  const input = new PassThrough();
  const output = new PassThrough();
  let shown = '';
  output.on('data', (c: Buffer) => {
    shown += c.toString();
    if (shown.endsWith(': ')) {
      const next = lines.shift();
      if (next !== undefined) setImmediate(() => input.write(`${next}\n`));
      else if (end) setImmediate(() => input.end());
    }
  });
  const prompter = new TerminalPrompter(input, output);
  try {
    const result = await askElicitationOnTerminal(prompter, '[react]', request, new AbortController().signal);
    return { result, shown };
  } finally {
    prompter.close();
  }
}

describe('the terminal elicitation prompt', () => {
  it('asks each field with what it takes, asks again what does not fit, and takes defaults on Enter', async () => {
    const { result, shown } = await answer(['y', 'Ada', 'old', '200', '36', '', 'a, c', 'y']);
    expect(result).toEqual({
      action: 'accept',
      content: { name: 'Ada', age: 36, colour: 'g', tags: ['a', 'c'], ok: true },
    });
    // The escape is shown, not obeyed.
    expect(shown).toContain('[react] MCP server srv asks you: Who are you?\\x1b[2J');
    expect(shown).not.toContain('\u001b');
    expect(shown).toContain('  As on your badge\n  Your name [text]: ');
    expect(shown).toContain('  age [a whole number]: ');
    expect(shown).toContain('  age: expected a whole number\n');
    expect(shown).toContain('  age: at most 150\n');
    expect(shown).toContain('  colour (optional) [one of: r = Red, g = Green, Enter for g]: ');
    expect(shown).toContain('  tags (optional) [comma-separated, of: a, b, c, Enter to leave out]: ');
  });

  it('n declines, c cancels', async () => {
    expect((await answer(['n'])).result).toEqual({ action: 'decline' });
    expect((await answer(['c'])).result).toEqual({ action: 'cancel' });
  });

  it('a required field left empty three times, or input that ends, cancels', async () => {
    expect((await answer(['y', '', '', ''])).result).toEqual({ action: 'cancel' });
    expect((await answer(['y'], true)).result).toEqual({ action: 'cancel' });
  });
});
