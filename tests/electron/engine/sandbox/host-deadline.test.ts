/**
 * A Code Mode program with a 1 s limit that spends its time in host-side tools, where the QuickJS interrupt
 * cannot reach: a slow calculator expression in a loop (a 2 s program once ran 7–66 s this way). What must not
 * happen: the program outliving its limit by more than the stop grace, the worker's event loop stalling.
 */
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { harness, type Harness } from './helpers.js';

let h: Harness;
beforeAll(async () => {
  h = await harness();
});
afterAll(() => h.close());

describe('host-side tools under the program\'s deadline', () => {
  it('a 1 s program looping on a slow calculator expression stops at its limit', async () => {
    const delay = monitorEventLoopDelay({ resolution: 10 });
    delay.enable();
    const result = await h.run(
      "const calc = search_tools('calculator')[0]; let n = 0; for (;;) { try { calc('sum(cumsum(1:1e6))'); } catch (e) {} n++; }",
      { limits: { timeoutMs: 1000 } },
    );
    delay.disable();
    expect(result.limitHit).toBe('time');
    expect(result.durationMs).toBeLessThan(1000 + 1500 + 1000); // the limit, the stop grace, slack for a busy machine
    expect(delay.max / 1e6).toBeLessThan(500);
    // The calculator still answers afterwards: its thread was replaced (from TypeScript source that takes
    // seconds on a busy machine, hence the generous limit).
    const after = await h.run("print(search_tools('calculator')[0]('6 * 7'))", { limits: { timeoutMs: 30_000 } });
    expect(after.output).toBe('42\n');
  });
});
