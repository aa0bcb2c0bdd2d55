/** What a program sees and what the model gets back: tools, printing, errors, search, sizes. */
import { existsSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { programText, runProgram, NO_OUTPUT } from '../../../../electron/engine/sandbox/index.js';
import { unfence } from '../../../../electron/engine/sandbox/run-program.js';
import { DEFAULT_SETTINGS } from '../../../../shared/run-spec.js';
import { harness, LIMITS, type Harness } from './helpers.js';

let h: Harness;
beforeAll(async () => {
  h = await harness();
  await writeFile(join(h.workspace, 'a.txt'), 'alpha\nERROR one\nbeta\n');
  await writeFile(join(h.workspace, 'b.txt'), 'héllo');
  await writeFile(join(h.workspace, '..', 'outside.txt'), 'secret');
});
afterAll(() => h.close());

describe('tools are synchronous functions', () => {
  it('returns results directly, at top level, after an await, in callbacks and in .then jobs', async () => {
    const code = [
      "const names = list_dir('.');",
      'const first = read_file(names[0]);',
      "print(names.join(','), first.split('\\n').length);",
      "const again = await read_file('b.txt');",
      "print(again, read_file('b.txt'));",
      "print(names.filter((n) => n.endsWith('.txt')).map((n) => read_file(n).length).join('+'));",
      "Promise.resolve().then(() => print('in a job:', read_file('b.txt')));",
    ].join('\n');
    const result = await h.run(code);
    expect(result.error).toBeNull();
    expect(result.output).toBe('a.txt,b.txt 4\nhéllo héllo\n21+5\nin a job: héllo\n');
    expect(result.toolCalls.map((c) => c.name)).toEqual([
      'list_dir',
      'read_file',
      'read_file',
      'read_file',
      'read_file',
      'read_file',
      'read_file',
    ]);
  });

  it('takes arguments in schema order or as one object of named parameters', async () => {
    const result = await h.run(
      "write_file('p.txt', 'positional');\nwrite_file({ content: 'named', path: 'n.txt' });\nprint(echo('hi', 3), echo({ text: 'yo' }));",
    );
    expect(result.error).toBeNull();
    expect(await readFile(join(h.workspace, 'p.txt'), 'utf8')).toBe('positional');
    expect(await readFile(join(h.workspace, 'n.txt'), 'utf8')).toBe('named');
    expect(result.output).toBe('{"text":"hi","times":3} {"text":"yo","times":1}\n');
    expect(result.toolCalls[0].args).toEqual({ path: 'p.txt', content: 'positional' });
    expect(result.toolCalls[1].args).toEqual({ content: 'named', path: 'n.txt' });
  });

  it('print("a\0b"): what follows a NUL is kept (shown as \0), never silently cut', async () => {
    const result = await h.run('print("a\\0b", "after");\nconsole.log(String.fromCharCode(0) + "tail");');
    expect(result.output).toBe('a\\0b after\n\\0tail\n');
  });

  it("bad arguments come back as the tool's own message, at the calling line", async () => {
    const result = await h.run("print('start');\nconst x = read_file(42);");
    expect(result.error?.line).toBe(2);
    expect(result.error?.message).toMatch(
      /^ToolError: Invalid arguments for read_file: argument "path" must be a string/,
    );
    expect(programText(result)).toMatch(/^start\nError at line 2, column \d+: ToolError: Invalid arguments/);
  });

  it('a tool that throws surfaces its message with the line, and can be caught', async () => {
    const uncaught = await h.run('const x = 1;\n  fail_tool();');
    expect(uncaught.error).toEqual({
      line: 2,
      column: 3,
      message: 'ToolError: fail_tool broke on purpose: call something else',
    });
    expect(uncaught.toolCalls[0].error).toBe('fail_tool broke on purpose: call something else');
    const caught = await h.run("try { fail_tool(); } catch (e) { print(e.name + ' / ' + e.message); }");
    expect(caught.error).toBeNull();
    expect(caught.output).toBe('ToolError / fail_tool broke on purpose: call something else\n');
  });

  it('keeps the workspace confinement of the file tools', async () => {
    const read = await h.run("print(read_file('../outside.txt'));");
    expect(read.output).toBe('');
    expect(read.error?.message).toMatch(/^ToolError: .*outside the workspace/);
    const write = await h.run("write_file('../escaped.txt', 'x');");
    expect(write.error?.message).toContain('outside the workspace');
    expect(existsSync(join(h.workspace, '..', 'escaped.txt'))).toBe(false);
  });
});

describe('printing', () => {
  it('prints objects and arrays as JSON, never [object Object]', async () => {
    const code = [
      'print({ a: 1, b: [1, 2], c: { d: null } });',
      "console.log(list_dir('.').slice(0, 2));",
      "print(undefined, null, 1.5, true, 'text', 10n);",
      "print(new Map([['k', 1]]), new Set([1, 2]), new Error('bad'));",
      'const loop = { name: "loop" }; loop.self = loop; print(loop);',
      'print(read_file, { tool: read_file });',
    ].join('\n');
    const result = await h.run(code);
    expect(result.error).toBeNull();
    expect(result.output.split('\n')).toEqual([
      '{"a":1,"b":[1,2],"c":{"d":null}}',
      '["a.txt","b.txt"]',
      'undefined null 1.5 true text 10',
      '{"k":1} [1,2] Error: bad',
      '{"name":"loop","self":"[Circular]"}',
      '<tool read_file(path: string): string> {"tool":"<tool read_file(path: string): string>"}',
      '',
    ]);
    expect(result.output).not.toContain('[object');
  });

  it('a forgotten await prints a clear note, never [object Promise]', async () => {
    const code =
      "async function main() {\n  return read_file('b.txt');\n}\nprint(main());\nprint({ value: main() });\nprint(await main());";
    const result = await h.run(code);
    expect(result.error).toBeNull();
    const [bare, nested, awaited] = result.output.trim().split('\n');
    expect(bare).toMatch(
      /^\[Promise: not a value yet\. Tool functions return their results directly and need no await/,
    );
    expect(bare).toContain('print(await main())');
    expect(nested).toContain('"value":"[Promise: not a value yet');
    expect(awaited).toBe('héllo');
    expect(result.output).not.toContain('[object Promise]');
  });

  it('nothing printed is reported as such', async () => {
    const result = await h.run("const text = read_file('a.txt');");
    expect(result.output).toBe('');
    expect(programText(result)).toBe(NO_OUTPUT);
  });
});

describe("errors name the line and column of the model's code", () => {
  it('syntax errors give the line', async () => {
    const result = await h.run('let a = 1;\nlet b = a +;\nprint(b);');
    expect(result.error).toEqual({
      line: 2,
      column: null,
      message: "SyntaxError: unexpected token in expression: ';'",
    });
    expect(programText(result)).toBe("Error at line 2: SyntaxError: unexpected token in expression: ';'");
  });

  it('an unclosed bracket points at the end of the program', async () => {
    const result = await h.run('for (const x of [1]) {\n  print(x);\n');
    expect(result.error?.line).toBe(3);
    expect(result.error?.message).toContain('SyntaxError');
  });

  it('runtime errors give line and column; output printed before stays above', async () => {
    const code = "print('fetched');\nconst page = { title: 'Example Domain' };\nconst title = page.match(/<title>/);";
    const result = await h.run(code);
    expect(result.error).toEqual({ line: 3, column: 15, message: 'TypeError: not a function' });
    expect(programText(result)).toBe('fetched\nError at line 3, column 15: TypeError: not a function');
  });

  it('an error inside a function points at the failing line in it', async () => {
    const result = await h.run('function count(text) {\n  return text.lines.length;\n}\n\nprint(count("x"));');
    expect(result.error?.line).toBe(2);
    expect(result.error?.column).toBe(10);
    expect(result.error?.message).toBe("TypeError: cannot read property 'length' of undefined");
  });

  it('a program sent inside a Markdown fence runs, and its lines keep their numbers', async () => {
    const result = await h.run("```javascript\nprint('fenced');\nnull.x;\n```");
    expect(result.output).toBe('fenced\n');
    expect(result.error?.line).toBe(3);
    expect(unfence('print(1)')).toBe('print(1)');
  });

  it('an error after an await still names its line', async () => {
    const result = await h.run("const a = await read_file('b.txt');\nconst n = null;\nn.size;");
    expect(result.error?.line).toBe(3);
  });

  it('thrown non-errors are reported without a line; hints point to the fix', async () => {
    const thrown = await h.run("throw 'plain text';");
    expect(thrown.error).toEqual({
      line: null,
      column: null,
      message: 'Uncaught "plain text" (throw an Error to get a line number)',
    });
    const hidden = await h.run("const page = fetch_url('https://example.com');");
    expect(hidden.error?.message).toContain("get it with const fetch_url = search_tools('fetch_url')[0]");
    const node = await h.run("const fs = require('fs');");
    expect(node.error?.message).toContain('there are no Node.js modules here');
  });

  it('a program that awaits a promise nothing settles says so', async () => {
    const result = await h.run("print('waiting');\nawait new Promise(() => {});\nprint('never');");
    expect(result.output).toBe('waiting\n');
    expect(result.error?.message).toMatch(/^the program ended while still awaiting a promise that never settles/);
  });
});

describe('search_tools', () => {
  it('returns callable handles for hidden tools, best first, with describe() and a printed signature', async () => {
    const code = [
      "const found = search_tools('what time is it');",
      'const clock = found[0];',
      'print(clock.name, found.length);',
      'print(clock);',
      'print(String(clock));',
      'print(clock.describe());',
      "print(clock('UTC').timezone, clock({ timezone: 'Asia/Shanghai' }).timezone);",
    ].join('\n');
    const result = await h.run(code);
    expect(result.error).toBeNull();
    const lines = result.output.split('\n');
    expect(lines[0]).toMatch(/^current_time [1-5]$/);
    expect(lines[1]).toBe(
      '<tool current_time(timezone: string = "UTC"): {timezone: string, iso: string, local: string, weekday: string}>',
    );
    expect(lines[2]).toBe(lines[1]);
    expect(lines[3]).toBe(
      'current_time(timezone: string = "UTC"): {timezone: string, iso: string, local: string, weekday: string}',
    );
    expect(lines[4]).toMatch(/^Get the current date and time/);
    expect(lines[5]).toBe('UTC Asia/Shanghai');
    expect(result.searches).toHaveLength(1);
    expect(result.searches[0].query).toBe('what time is it');
    expect(result.searches[0].hits[0]).toMatchObject({ name: 'current_time' });
    expect(result.searches[0].hits[0].score).toBeGreaterThan(0);
    expect(result.toolCalls.map((c) => c.name)).toEqual(['current_time', 'current_time']);
  });

  it('only finds hidden tools; a miss prints a hint and returns an empty array', async () => {
    const result = await h.run(
      "const r = search_tools('xyzzy plugh');\nprint(r.length);\nprint(search_tools('read a text file').map((t) => t.name));",
    );
    expect(result.error).toBeNull();
    const lines = result.output.trim().split('\n');
    expect(lines[0]).toMatch(/^search_tools\("xyzzy plugh"\): no hidden tool matched\. Try other English words/);
    expect(lines[1]).toBe('0');
    expect(lines.at(-1)).not.toContain('read_file');
    expect(result.searches.map((s) => s.hits.length)[0]).toBe(0);
  });

  it('a miss on a catalog tool says it is already a function', async () => {
    const result = await h.run("search_tools('write_file');");
    expect(result.output).toContain('Already available as functions: write_file');
  });

  it('with return types off, printed handles omit them but describe() keeps them', async () => {
    const result = await h.run(
      "const t = search_tools('download web page')[0];\nprint(t);\nprint(t.describe().split('\\n')[0]);",
      { returnTypes: false },
    );
    expect(result.output.split('\n').slice(0, 2)).toEqual([
      '<tool fetch_url(url: string)>',
      'fetch_url(url: string): {status: number, contentType: string, title: string, text: string}',
    ]);
  });

  it('rejects a query that is not a string with a usage hint', async () => {
    const result = await h.run('search_tools();');
    expect(result.error?.message).toContain('search_tools(query) takes a string of English keywords');
  });
});

describe('measurements', () => {
  it('counts the bytes tools returned and the bytes printed, and the time tools took', async () => {
    const result = await h.run("const text = read_file('b.txt');\nslow_tool(150);\nprint(text.length);");
    expect(result.toolBytes).toBe(Buffer.byteLength(JSON.stringify('héllo')) + Buffer.byteLength('150'));
    expect(result.toolCalls[0].resultBytes).toBe(8);
    expect(result.printedBytes).toBe(2);
    expect(result.toolCalls[1].durationMs).toBeGreaterThanOrEqual(140);
    expect(result.durationMs).toBeGreaterThanOrEqual(result.toolCalls[1].durationMs);
  });
});

describe('runProgram input checks', () => {
  it('refuses limits out of range with a message naming each', async () => {
    const opts = {
      tools: [],
      ctx: { workspace: h.workspace, settings: DEFAULT_SETTINGS, signal: new AbortController().signal },
      returnTypes: true,
      sandbox: h.sandbox,
    };
    await expect(
      runProgram('print(1)', { ...opts, limits: { ...LIMITS, timeoutMs: -1, memoryMb: 1e9 } }),
    ).rejects.toThrow(
      /Invalid sandbox limits: timeoutMs must be a number from 10 to .*memoryMb must be a number from 8 to 2048/,
    );
  });
});
