/**
 * A Code Mode program with a 1 s limit that spends its time in host-side tools, where the QuickJS interrupt
 * cannot reach: a slow calculator expression in a loop (a 2 s program once ran 7–66 s this way). What must not
 * happen: the program waiting out a host-side job past its limit, the worker's event loop doing the computing.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { ProgramResult } from '../../../../electron/engine/sandbox/index.js';
import {
  ComputeError,
  ComputeThread,
  computeThread,
} from '../../../../electron/engine/tools/compute/compute-thread.js';
import { harness, type Harness } from './helpers.js';

let h: Harness;
beforeAll(async () => {
  h = await harness();
});
afterAll(() => h.close());

describe("host-side tools under the program's deadline", () => {
  it('a 1 s program looping on a slow calculator expression stops at its limit', async () => {
    // Every host-side job the program causes (search, the library's load, each expression), and how it ended.
    const jobs: { job: string; signal: boolean; ended: string }[] = [];
    const run = vi.spyOn(computeThread(), 'run').mockImplementation(function (this: ComputeThread, ...args) {
      const job = { job: args[0], signal: args[2].signal !== undefined, ended: 'running' };
      jobs.push(job);
      const pending = ComputeThread.prototype.run.apply(this, args);
      pending.then(
        () => (job.ended = 'done'),
        (e: ComputeError) => (job.ended = e.kind),
      );
      return pending as never;
    });
    let result: ProgramResult;
    try {
      result = await h.run(
        "const calc = search_tools('calculator')[0]; let n = 0; for (;;) { try { calc('sum(cumsum(1:1e6))'); } catch (e) {} n++; }",
        { limits: { timeoutMs: 1000 } },
      );
    } finally {
      run.mockRestore();
    }
    expect(result.limitHit).toBe('time');
    expect(result.error?.message).toMatch(/^time limit of 1000 ms exceeded/);
    // The work ran in the compute thread (the worker's own loop never computed it), each job under the call's
    // signal; the one running at the deadline was stopped by it, and nothing outlived the program.
    expect(jobs.map((j) => j.job)).toContain('search');
    expect(jobs.every((j) => j.signal)).toBe(true);
    expect(jobs.filter((j) => j.ended === 'running')).toEqual([]);
    // The calls fill the program's time (gaps between them are microseconds): the deadline falls inside one.
    expect(jobs.at(-1)!.ended).toBe('cancel');
    // The model reads why: the calculator call in flight says it was stopped (search_tools calls are not tool calls).
    if (jobs.at(-1)!.job !== 'search')
      expect(result.toolCalls.at(-1)?.error).toMatch(/its program reached its time limit/);
    // The calculator still answers afterwards: its thread was replaced (from TypeScript source that takes
    // seconds on a busy machine, hence the generous limit).
    const after = await h.run("print(search_tools('calculator')[0]('6 * 7'))", { limits: { timeoutMs: 30_000 } });
    expect(after.output).toBe('42\n');
  });
});
