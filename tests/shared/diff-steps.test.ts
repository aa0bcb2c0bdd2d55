/** The steps of a baseline diff: per step, each side's mean over the runs that reached it; which way a change goes. */
import { describe, expect, it } from 'vitest';
import { diffSteps, directionOf } from '../../shared/diff-steps.js';
import type { RunSummary, StepSummary } from '../../shared/summary.js';

const step = (n: number, prompt: number, completion: number, toolCalls = 1): StepSummary =>
  ({ step: n, prompt, completion, toolCalls, latencyMs: 100 * n }) as StepSummary;
const run = (...steps: StepSummary[]) => ({ perStep: steps }) as unknown as RunSummary;

describe('diffSteps', () => {
  it('means each side over the runs that reached the step, to the last step either side reached', () => {
    const rows = diffSteps(
      [run(step(1, 100, 10), step(2, 200, 20)), run(step(1, 300, 30))],
      [run(step(1, 50, 5), step(2, 60, 6), step(3, 70, 7, 0))],
    );
    expect(rows.map((r) => r.step)).toEqual([1, 2, 3]);
    expect(rows[0]!.baseline).toMatchObject({ runs: 2, prompt: 200, completion: 20, total: 220, latencyMs: 100 });
    expect(rows[1]!.baseline).toMatchObject({ runs: 1, total: 220 });
    expect(rows[2]!.baseline).toBeNull();
    expect(rows[2]!.comparison).toMatchObject({ runs: 1, total: 77, toolCalls: 0 });
  });

  it('has no rows when neither side made a step', () => {
    expect(diffSteps([run()], [])).toEqual([]);
  });
});

describe('directionOf', () => {
  it('calls more tokens worse and a higher pass rate better', () => {
    expect(directionOf('total', 5)).toBe('worse');
    expect(directionOf('wallMs', -5)).toBe('better');
    expect(directionOf('passRate', 0.2)).toBe('better');
    expect(directionOf('passRate', -1)).toBe('worse');
    expect(directionOf('steps', 0)).toBe('same');
    expect(directionOf('cost', null)).toBeNull();
  });
});
