/**
 * Code Mode (Python) keeps the JavaScript sandbox's contract: only printed output returns, a fresh namespace
 * per call, tools as synchronous functions returning Python values, search_tools handles with describe(),
 * errors at the model's own line, and the same limits in the same words. One Pyodide child for the file.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatCodeError, programText } from '../../../../electron/engine/sandbox/index.js';
import { slowLog } from './helpers.js';
import { pyHarness, type PyHarness } from './py-helpers.js';

let h: PyHarness;
beforeAll(async () => {
  h = await pyHarness();
  await writeFile(join(h.workspace, 'a.txt'), 'one\nERROR two\nthree\n');
});
afterAll(() => h.close());

describe('the Python contract', () => {
  it('tools are plain functions returning Python values; only printed text returns', async () => {
    const result = await h.run(`names = list_dir('.')
text = read_file('a.txt')
e = echo('hi', times=3)
print(type(names).__name__, names, type(text).__name__, len(text.splitlines()))
print(type(e).__name__, e['text'], e['times'])
'a value that is not printed'`);
    expect(result.error).toBeNull();
    expect(result.output).toBe("list ['a.txt'] str 3\ndict hi 3\n");
    expect(result.toolCalls.map((c) => c.name)).toEqual(['list_dir', 'read_file', 'echo']);
    expect(result.toolCalls[2]!.args).toEqual({ text: 'hi', times: 3 });
    expect(result.toolBytes).toBeGreaterThan(0);
  });

  it('starts each call with a fresh namespace', async () => {
    expect((await h.run('secret = 42\nprint(secret)')).output).toBe('42\n');
    const second = await h.run('print("start")\nprint(secret)');
    expect(second.output).toBe('start\n');
    expect(second.error).toMatchObject({ line: 2, message: "NameError: name 'secret' is not defined" });
  });

  it('finds hidden tools with search_tools: handles call like functions and describe themselves in Python', async () => {
    const result = await h.run(`clock = search_tools('what time is it')[0]
print(clock)
print(clock.describe().splitlines()[0])
print(sorted(clock('UTC')))`);
    expect(result.error).toBeNull();
    const [repr, describe, keys] = result.output.trim().split('\n');
    expect(repr).toMatch(/^<tool def current_time\(timezone: str( = "UTC")?\) -> \{timezone: str, /);
    expect(describe).toMatch(/^def current_time\(/);
    expect(keys).toContain("'iso'");
  });

  it("names the line of the model's code, inside its own functions too, and hints at search_tools", async () => {
    const nested = await h.run('def f(x):\n    return x[5]\n\nprint("before")\nf([1])');
    expect(nested.output).toBe('before\n');
    expect(formatCodeError(nested.error!)).toBe('Error at line 2: IndexError: list index out of range');
    const syntax = await h.run('x = 1\nif x\n    print(x)');
    expect(syntax.error).toMatchObject({ line: 2 });
    expect(syntax.error!.message).toMatch(/^SyntaxError: /);
    const hidden = await h.run("print(fetch_url('https://example.com'))");
    expect(hidden.error!.message).toContain("search_tools('fetch_url')");
  });

  it('a tool error is a ToolError the program may catch; uncaught, it names the line', async () => {
    const caught = await h.run('try:\n    fail_tool()\nexcept ToolError as e:\n    print("caught:", e)');
    expect(caught.output).toBe('caught: fail_tool broke on purpose: call something else\n');
    const thrown = await h.run('print(1)\nread_file("missing.txt")');
    expect(thrown.error).toMatchObject({ line: 2 });
    expect(thrown.error!.message).toMatch(/^ToolError: /);
    expect(programText(thrown)).toMatch(/^1\nError at line 2: ToolError: /);
  });

  it('arguments must be plain data, said clearly', async () => {
    const result = await h.run('echo(object())');
    expect(result.error!.message).toMatch(/TypeError: echo: arguments must be plain data/);
  });

  it('reads a Markdown-fenced program with the line numbers the model wrote', async () => {
    const result = await h.run('```python\nprint("ok")\nraise ValueError("bad")\n```');
    expect(result.output).toBe('ok\n');
    expect(result.error).toMatchObject({ line: 3, message: 'ValueError: bad' });
  });
});

describe('the Python limits', () => {
  it('stops a busy loop at the time limit, even one that catches KeyboardInterrupt; the next program runs', async () => {
    const busy = await h.run('while True:\n    pass', { limits: { timeoutMs: 800 } });
    expect(busy.limitHit).toBe('time');
    expect(busy.error!.message).toMatch(/^time limit of 800 ms exceeded/);
    const stubborn = await h.run(
      'print("start")\nwhile True:\n    try:\n        while True:\n            pass\n    except BaseException:\n        pass',
      { limits: { timeoutMs: 800 } },
    );
    expect(stubborn.limitHit).toBe('time');
    expect(stubborn.output).toBe('start\n');
    // Ended by its time limit (by the repeated interrupt or, if it swallows each one, by the kill after the grace).
    expect(stubborn.error!.message).toMatch(/^time limit of 800 ms exceeded/);
    expect((await h.run('print("next")')).output).toBe('next\n');
  });

  it("stops the clock while the user decides on a tool call, and a refusal is the tool's error", async () => {
    const waited = await h.run('print(echo("asked"))', {
      limits: { timeoutMs: 700 },
      approve: async (_name, _args, _signal, pauseClock) => {
        const resume = pauseClock();
        await new Promise((r) => setTimeout(r, 1500));
        resume();
        return { ok: true };
      },
    });
    expect(waited.limitHit).toBeNull();
    expect(waited.output).toBe("{'text': 'asked', 'times': 1}\n");
    const refused = await h.run('try:\n    echo("no")\nexcept ToolError as e:\n    print("refused:", e)', {
      approve: async () => ({ ok: false, message: 'the user refused echo' }),
    });
    expect(refused.output).toBe('refused: the user refused echo\n');
  });

  it('abandons a tool still running at the deadline and aborts its signal', async () => {
    const before = slowLog.aborted;
    const result = await h.run('slow_tool(10000)', { limits: { timeoutMs: 600 } });
    expect(result.limitHit).toBe('time');
    expect(slowLog.aborted).toBe(before + 1);
  });

  it('stops a memory bomb at the memory limit, said clearly, and runs the next program in a fresh process', async () => {
    const started = h.sandbox.processesStarted;
    const bomb = await h.run('chunks = []\nwhile True:\n    chunks.append("x" * (8 * 1024 * 1024))', {
      limits: { memoryMb: 64, timeoutMs: 20_000 },
    });
    expect(bomb.limitHit).toBe('memory');
    expect(bomb.error!.message).toMatch(/^memory limit of 64 MiB exceeded/);
    const next = await h.run('print(sum(range(10)))');
    expect(next.output).toBe('45\n');
    expect(h.sandbox.processesStarted).toBe(started + 1);
  });

  it('one 700 MB allocation with a 64 MiB limit: the child is stopped before it holds much more than its start plus the limit', async () => {
    // The child's resident size, sampled from outside while the program runs (a lower bound of its peak). The
    // growth is refused before its pages exist, so no sample may ever see it; the first sample, of the child ready
    // before the program, shows the sampler sees the child at all.
    await h.run('pass');
    let peak = 0;
    const sample = () => (peak = Math.max(peak, ...pythonChildren().map(residentBytes)));
    sample();
    expect(peak).toBeGreaterThan(0);
    const watch = setInterval(sample, 2);
    try {
      const bomb = await h.run('x = bytearray(700 * 1024 * 1024)\nprint(len(x))', {
        limits: { memoryMb: 64, timeoutMs: 30_000 },
      });
      expect(bomb.limitHit).toBe('memory');
      expect(bomb.output).not.toContain('734003200');
      expect(bomb.error!.message).toMatch(/^memory limit of 64 MiB exceeded/);
    } finally {
      clearInterval(watch);
    }
    // Its start (about 160 MB) plus the limit at most: the growth past it is refused in the call that asks for it.
    expect(peak).toBeLessThan(450 * 1024 * 1024);
  });

  it('lets a program use memory well inside the limit', async () => {
    const result = await h.run('data = ["x" * 1000 for _ in range(10000)]\nprint(len(data))', {
      limits: { memoryMb: 64 },
    });
    expect(result.error).toBeNull();
    expect(result.output).toBe('10000\n');
  });

  it('caps printed output with the same marker and lets the program finish its work', async () => {
    const result = await h.run('for i in range(1000):\n    print("line", i)\nwrite_file("done.txt", "yes")', {
      limits: { outputChars: 100 },
    });
    expect(result.limitHit).toBe('output');
    expect(result.output).toContain(
      '[output truncated at 100 characters: print less — filter or summarise inside the program]',
    );
    expect(result.toolCalls.map((c) => c.name)).toEqual(['write_file']);
  });

  it('stops the program at the call past the tool-call limit, even inside try/except', async () => {
    const result = await h.run(
      'n = 0\nwhile True:\n    try:\n        echo("x")\n        n += 1\n    except Exception:\n        pass',
      { limits: { maxToolCalls: 5, timeoutMs: 5000 } },
    );
    expect(result.limitHit).toBe('tool-calls');
    expect(result.toolCalls).toHaveLength(5);
    expect(result.error!.message).toMatch(/^tool-call limit of 5 calls per program reached/);
  });

  it('deep recursion is a RecursionError at the recursive line', async () => {
    const result = await h.run('def down(n):\n    return down(n + 1)\ndown(0)');
    expect(result.error).toMatchObject({ line: 2 });
    expect(result.error!.message).toMatch(/^RecursionError: .*use a loop or an explicit stack/);
  });

  it('a cancelled run stops its program without a limit hit', async () => {
    const abort = new AbortController();
    setTimeout(() => abort.abort(), 300);
    const bindingsCtx = {
      workspace: h.workspace,
      settings: (await import('../../../../shared/run-spec.js')).DEFAULT_SETTINGS,
      signal: abort.signal,
    };
    const result = await h.run('while True:\n    pass', { ctx: bindingsCtx });
    expect(result.limitHit).toBeNull();
    expect(result.error!.message).toMatch(/cancelled/);
  });
});

/** Live processes below this one whose command line is the Pyodide child's. */
function pythonChildren(): number[] {
  const parents = new Map<number, number>();
  const found: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      parents.set(Number(entry), Number(/^\d+ \(.*\) \S (\d+)/s.exec(readFileSync(`/proc/${entry}/stat`, 'utf8'))![1]));
      if (/python-child|py-child/.test(readFileSync(`/proc/${entry}/cmdline`, 'utf8'))) found.push(Number(entry));
    } catch {
      /* gone meanwhile */
    }
  }
  const below = (pid: number): boolean => {
    for (let p = parents.get(pid); p !== undefined && p > 1; p = parents.get(p)) if (p === process.pid) return true;
    return false;
  };
  return found.filter(below);
}

function residentBytes(pid: number): number {
  try {
    return Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0) * 1024;
  } catch {
    return 0;
  }
}
