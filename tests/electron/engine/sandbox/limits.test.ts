/** Every limit stops the program, says so clearly, and leaves the host and the next program unharmed. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { programText } from '../../../../electron/engine/sandbox/index.js';
import { harness, slowLog, type Harness } from './helpers.js';

let h: Harness;
beforeAll(async () => {
  h = await harness();
});
afterAll(() => h.close());

async function stillWorks(): Promise<void> {
  const next = await h.run('const n = [1, 2, 3].map((x) => x * 2);\nprint(n.join(","));');
  expect(next.error).toBeNull();
  expect(next.output).toBe('2,4,6\n');
}

describe('time limit', () => {
  it('stops a busy loop at the limit; the next program runs', async () => {
    const result = await h.run("print('started');\nlet i = 0;\nwhile (true) { i++; }", { limits: { timeoutMs: 400 } });
    expect(result.limitHit).toBe('time');
    expect(result.durationMs).toBeGreaterThanOrEqual(390);
    expect(result.output).toBe('started\n');
    expect(result.error?.message).toMatch(
      /^time limit of 400 ms exceeded — the program was stopped.*Avoid endless loops/,
    );
    expect(programText(result)).toMatch(/^started\nError: time limit of 400 ms exceeded/);
    await stillWorks();
  });

  it('stops a microtask loop (a promise chain that never ends)', async () => {
    // Memory to spare, so the clock is what stops it (the chain allocates as it goes: see the next test).
    const result = await h.run('const f = () => Promise.resolve().then(f);\nf();', {
      limits: { timeoutMs: 400, memoryMb: 512 },
    });
    expect(result.limitHit).toBe('time');
    expect(result.error?.message).toContain('time limit of 400 ms exceeded');
    await stillWorks();
  });

  it('a microtask loop that runs out of memory first is stopped by the memory limit, and the sandbox goes on', async () => {
    const result = await h.run('const f = () => Promise.resolve().then(f);\nf();', {
      limits: { timeoutMs: 20_000, memoryMb: 16 },
    });
    expect(result.limitHit).toBe('memory');
    expect(result.error?.message).toMatch(/memory/);
    await stillWorks();
  });

  it('stops an async loop that awaits forever in a tight cycle', async () => {
    const result = await h.run('for (;;) { await null; }', { limits: { timeoutMs: 300 } });
    expect(result.limitHit).toBe('time');
    await stillWorks();
  });

  it('counts tool time: a tool still running at the deadline is abandoned and its signal aborted', async () => {
    const before = { ...slowLog };
    const result = await h.run("print('calling');\nslow_tool(60000);\nprint('never');", { limits: { timeoutMs: 400 } });
    expect(result.limitHit).toBe('time');
    expect(result.output).toBe('calling\n');
    expect(result.error?.message).toMatch(/^time limit of 400 ms exceeded/); // not the tool's own 60 s
    expect(slowLog.started).toBe(before.started + 1);
    expect(slowLog.aborted).toBe(before.aborted + 1);
    expect(result.toolCalls).toHaveLength(1);
    expect(result.toolCalls[0].error).toContain('cancelled');
    await stillWorks();
  });

  it('terminates the thread when native code never reaches an interrupt check; output printed before survives', async () => {
    const threads = h.sandbox.threadsStarted;
    const result = await h.run("print('before the regex');\n/(a|b)*c/.exec('ab'.repeat(50000));", {
      limits: { timeoutMs: 300 },
    });
    expect(result.limitHit).toBe('time');
    expect(result.output).toBe('before the regex\n');
    await stillWorks();
    expect(h.sandbox.threadsStarted).toBe(threads + 1);
  });

  it('a cancelled run stops its program without a limit hit', async () => {
    const abort = new AbortController();
    setTimeout(() => abort.abort(), 200);
    const { DEFAULT_SETTINGS } = await import('../../../../shared/run-spec.js');
    const result = await h.run('while (true) {}', {
      ctx: { workspace: h.workspace, settings: DEFAULT_SETTINGS, signal: abort.signal },
    });
    expect(result.limitHit).toBeNull();
    expect(result.error?.message).toContain('cancelled');
    expect(result.error?.message).not.toMatch(/limit/); // ended by the cancel, not by its (30 s) time limit
    await stillWorks();
  });
});

describe('memory limit', () => {
  it('stops a heap bomb of many large strings', async () => {
    const result = await h.run("const parts = [];\nwhile (true) parts.push('x'.repeat(1 << 20) + parts.length);", {
      limits: { memoryMb: 16 },
    });
    expect(result.limitHit).toBe('memory');
    expect(result.error?.message).toMatch(/^memory limit of 16 MiB exceeded — the program was stopped/);
    await stillWorks();
  });

  it('stops a heap bomb of arrays and of a doubling string', async () => {
    for (const code of [
      'const a = [];\nwhile (true) a.push(new Array(1e5).fill(1));',
      "let s = 'x';\nwhile (true) s += s;",
    ]) {
      const result = await h.run(code, { limits: { memoryMb: 16 } });
      expect(result.limitHit).toBe('memory');
    }
    await stillWorks();
  });

  it('lets a program use memory well inside the limit', async () => {
    const result = await h.run(
      "const parts = [];\nfor (let i = 0; i < 8; i++) parts.push('x'.repeat(1 << 20));\nprint(parts.length);",
      { limits: { memoryMb: 16 } },
    );
    expect(result.error).toBeNull();
    expect(result.output).toBe('8\n');
  });
});

describe('stack limit', () => {
  it('deep recursion gives a stack overflow error at the recursive line', async () => {
    const result = await h.run('function down(n) {\n  return down(n + 1) + 1;\n}\ndown(0);');
    expect(result.limitHit).toBeNull();
    expect(result.error?.message).toMatch(/^InternalError: stack overflow — recursion went deeper/);
    expect(result.error?.line).toBe(2);
    await stillWorks();
  });

  it('a smaller stack limit allows less depth', async () => {
    const depth = async (stackKb: number): Promise<number> => {
      const r = await h.run(
        'let d = 0;\nfunction down(n) { d = n; return down(n + 1) + 1; }\ntry { down(0); } catch (e) { print(d); }',
        { limits: { stackKb } },
      );
      return Number(r.output);
    };
    const small = await depth(64);
    const large = await depth(256);
    expect(small).toBeGreaterThan(50);
    expect(large).toBeGreaterThan(2 * small);
  });

  it('deeply nested source that overflows the parser is an error, not a crash', async () => {
    const result = await h.run("eval('('.repeat(50000) + '1' + ')'.repeat(50000));");
    expect(result.error).not.toBeNull();
    await stillWorks();
  });
});

describe('output limit', () => {
  it('caps printed output with a marker and lets the program finish its work', async () => {
    const result = await h.run("print('x'.repeat(500));\nprint('more');\nwrite_file('after.txt', 'done');", {
      limits: { outputChars: 100 },
    });
    expect(result.limitHit).toBe('output');
    expect(result.error).toBeNull();
    expect(result.output.startsWith('x'.repeat(100))).toBe(true);
    expect(result.output).not.toContain('x'.repeat(101));
    expect(result.output).toContain('[output truncated at 100 characters: print less');
    expect(result.output).not.toContain('more');
    expect(result.toolCalls.map((c) => c.name)).toEqual(['write_file']);
  });
});

describe('tool-call limit', () => {
  it('stops the program at the call past the limit, even inside try/catch', async () => {
    const code = "for (let i = 0; i < 10; i++) {\n  try { list_dir('.'); } catch (e) {}\n}\nprint('continued');";
    const result = await h.run(code, { limits: { maxToolCalls: 3 } });
    expect(result.limitHit).toBe('tool-calls');
    expect(result.toolCalls).toHaveLength(3);
    expect(result.output).toBe('');
    expect(result.error?.message).toMatch(/^tool-call limit of 3 calls per program reached/);
    await stillWorks();
  });
});
