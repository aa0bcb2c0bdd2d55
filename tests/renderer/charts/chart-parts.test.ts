/** The token charts' ticks: round steps from 0 a reader can add up on a linear axis, powers of ten on a log one. */
import { describe, expect, it } from 'vitest';
import { logTicks, roundTicks } from '../../../renderer/components/charts/chart-parts.js';

const isRound = (step: number) =>
  [1, 2, 2.5, 5].some((m) => Math.abs(step / 10 ** Math.floor(Math.log10(step)) - m) < 1e-9);

describe('chart ticks', () => {
  it('linear: 0 and equal round steps (1, 2, 2.5 or 5 × 10^k), about four of them, reaching the largest bar', () => {
    for (const max of [1, 3, 7, 42, 99, 100, 101, 1234, 2630, 9999, 22_500, 1_234_567]) {
      const ticks = roundTicks(max);
      const step = ticks[1]! - ticks[0]!;
      expect(ticks[0], `${max}`).toBe(0);
      expect(
        ticks.every((t, i) => t === i * step),
        `${max}: ${ticks.join(' ')}`,
      ).toBe(true);
      expect(isRound(step), `${max}: step ${step}`).toBe(true);
      expect(ticks.at(-1)!, `${max}`).toBeGreaterThanOrEqual(max);
      expect(ticks.at(-2)!, `${max}: no empty step above the largest bar`).toBeLessThan(max);
      expect(ticks.length, `${max}: ${ticks.join(' ')}`).toBeLessThanOrEqual(6);
    }
    expect(roundTicks(2630)).toEqual([0, 1000, 2000, 3000]);
    expect(roundTicks(0)).toEqual([0, 0.25, 0.5, 0.75, 1]);
  });

  it('log: the powers of ten from 1 up to at least the largest bar', () => {
    expect(logTicks(2630)).toEqual([1, 10, 100, 1000, 10_000]);
    expect(logTicks(1000)).toEqual([1, 10, 100, 1000]);
    expect(logTicks(999)).toEqual([1, 10, 100, 1000]);
    expect(logTicks(0)).toEqual([1, 10]);
  });
});
