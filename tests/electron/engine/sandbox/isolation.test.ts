/** Nothing of the host is reachable from a program, and nothing a program does leaks into the host. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { harness, type Harness } from './helpers.js';

let h: Harness;
const MARKER = '__parallaxHostMarker';
beforeAll(async () => {
  h = await harness();
  (globalThis as Record<string, unknown>)[MARKER] = 'host secret';
});
afterAll(async () => {
  delete (globalThis as Record<string, unknown>)[MARKER];
  await h.close();
});

/** Runs `expr` through the Function constructor reached by `via`, and prints what it sees. */
const probe = (via: string): string => `const F = ${via};
const seen = {};
for (const expr of ['typeof process', 'typeof require', 'typeof module', 'typeof Buffer', 'typeof ${MARKER}', 'typeof globalThis.${MARKER}']) {
  seen[expr] = F('return ' + expr)();
}
let reached = 'nothing';
try { reached = typeof F('return process')().pid; } catch (e) { reached = e.name; }
seen.process = reached;
print(seen);`;

function expectNothingOfTheHost(output: string): void {
  const seen = JSON.parse(output) as Record<string, string>;
  for (const [expr, type] of Object.entries(seen)) {
    if (expr === 'process') expect(type).toBe('ReferenceError');
    else expect(type, expr).toBe('undefined');
  }
}

describe('escapes through constructors', () => {
  it('this.constructor.constructor reaches only the sandbox', async () => {
    const result = await h.run(probe('this.constructor.constructor'));
    expect(result.error).toBeNull();
    expectNothingOfTheHost(result.output);
  });

  it('the same through a tool function, a search handle, a returned value and a thrown tool error', async () => {
    const vias = [
      'read_file.constructor',
      'read_file.describe.constructor',
      "search_tools('what time is it')[0].constructor",
      "list_dir('.').constructor.constructor",
      "(() => { try { read_file('missing.txt'); } catch (e) { return e.constructor.constructor; } })()",
      'Object.getPrototypeOf(print).constructor',
    ];
    for (const via of vias) {
      const result = await h.run(probe(via));
      expect(result.error, via).toBeNull();
      expectNothingOfTheHost(result.output);
    }
  });

  it('the globals are only the sandbox API and standard JavaScript', async () => {
    const result = await h.run(
      "print(['print', 'console', 'search_tools', 'read_file', 'fetch_url', 'process', 'require'].map((n) => n + ':' + typeof globalThis[n]).join(' '));",
    );
    expect(result.output.trim()).toBe(
      'print:function console:object search_tools:function read_file:function fetch_url:undefined process:undefined require:undefined',
    );
  });

  it('has no module loading: import() and import statements fail', async () => {
    const dynamic = await h.run("import('node:fs').then(() => print('loaded'), (e) => print('refused:', e.name));");
    expect(dynamic.output).not.toContain('loaded');
    expect(dynamic.output).toMatch(/refused|Error/);
    const statement = await h.run("import fs from 'node:fs';\nprint(fs);");
    expect(statement.error?.message).toContain('SyntaxError');
    expect(statement.error?.message).toContain('cannot import modules');
  });
});

describe('no leaks into the host or the next program', () => {
  it('polluting Object.prototype and builtins inside does not touch the host', async () => {
    const result = await h.run(
      "Object.prototype.polluted = 'yes';\nArray.prototype.map = null;\nArray.prototype.slice = null;\nJSON.stringify = () => 'tampered';\nprint(list_dir('.').length >= 0, search_tools('current time').length > 0, ({}).polluted);",
    );
    // The program's own tool calls still work: the sandbox API kept the originals.
    expect(result.error).toBeNull();
    expect(result.output).toBe('true true yes\n');
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(typeof [].map).toBe('function');
    expect(JSON.stringify({ a: 1 })).toBe('{"a":1}');
  });

  it('each program starts fresh: globals, prototypes and variables do not carry over', async () => {
    await h.run("globalThis.leftover = 1;\nvar v = 2;\nObject.prototype.polluted = 'yes';");
    const next = await h.run('print(typeof leftover, typeof v, typeof ({}).polluted);');
    expect(next.output).toBe('undefined undefined undefined\n');
  });
});

describe('shared memory and blocking', () => {
  it('Atomics.wait on a SharedArrayBuffer cannot hang the worker', async () => {
    const code = 'const cell = new Int32Array(new SharedArrayBuffer(16));\nAtomics.wait(cell, 0, 0);\nprint("woke");';
    const result = await h.run(code, { limits: { timeoutMs: 500 } });
    expect(result.output).not.toContain('woke');
    // Ended by refusal (no Atomics, no shared memory in the sandbox) or at the time limit: never a wait without end.
    expect(result.error?.message).toMatch(
      /'(Atomics|SharedArrayBuffer)' is not defined|^time limit of 500 ms exceeded/,
    );
    const next = await h.run('print(40 + 2);');
    expect(next.output).toBe('42\n');
  });

  it('spinning on shared memory is stopped by the time limit', async () => {
    const code = 'const cell = new Int32Array(new SharedArrayBuffer(16));\nwhile (cell[0] === 0) {}';
    const result = await h.run(code, { limits: { timeoutMs: 300 } });
    expect(result.limitHit).toBe('time');
  });
});
