import { describe, expect, it } from 'vitest';
import { computePerStep, cumulativeTokens, summarizeRun } from '../../../shared/summary.js';
import { carriedKey, cumulativeRows, perStepRows, trialRows } from '../../../renderer/components/charts/chart-data.js';
import { syntheticRun } from '../fixtures/synthetic-stream.js';

describe('chart data', () => {
  const react = summarizeRun(syntheticRun({ runId: 'r1', mode: 'react', steps: 9 }));
  const code = summarizeRun(syntheticRun({ runId: 'r2', mode: 'code', steps: 4 }));

  it('has one row per step with each mode’s prompt and completion from computePerStep, and nothing past a run’s last step', () => {
    const rows = perStepRows([react, code]);
    expect(rows.map((r) => r.step)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9]);
    for (const s of computePerStep(syntheticRun({ runId: 'r1', mode: 'react', steps: 9 }))) {
      const row = rows.find((r) => r.step === s.step)!;
      expect([row.react_prompt, row.react_completion]).toEqual([s.prompt, s.completion]);
    }
    expect(rows[4]!.code_prompt).toBeUndefined();
    expect(rows[3]!.code_completion).toBe(code.perStep[3]!.completion);
  });

  it('cumulative rows follow cumulativeTokens and end where each run ended', () => {
    const rows = cumulativeRows([react, code]);
    expect(rows.map((r) => r.react)).toEqual(cumulativeTokens(react.perStep).map((p) => p.total));
    expect(rows.slice(0, 4).map((r) => r.code)).toEqual(cumulativeTokens(code.perStep).map((p) => p.total));
    expect(rows[4]!.code).toBeUndefined();
  });

  it("carries a finished run's total forward to the comparison's last step, under its own key", () => {
    const rows = cumulativeRows([react, code], (r) => r.mode, true);
    const codeTotal = cumulativeTokens(code.perStep).at(-1)!.total;
    expect(rows.slice(0, 3).map((r) => r[carriedKey('code')])).toEqual([undefined, undefined, undefined]);
    expect(rows.slice(3).map((r) => r[carriedKey('code')])).toEqual(rows.slice(3).map(() => codeTotal));
    expect(rows[4]!.code).toBeUndefined();
    // The longest run has nothing to carry; a run still going is not carried.
    expect(rows.every((r) => r[carriedKey('react')] === undefined)).toBe(true);
    expect(
      cumulativeRows([react, { ...code, status: 'running' }], (r) => r.mode, true).every(
        (r) => r[carriedKey('code')] === undefined,
      ),
    ).toBe(true);
  });

  it('with every trial drawn, each run has its own cumulative series, and one bar group per trial holds each run’s totals', () => {
    const react2 = summarizeRun(syntheticRun({ runId: 'r3', mode: 'react', steps: 6, seed: 11 }));
    const runs = [react, code, react2];
    const trials = [1, 1, 2];
    const rows = cumulativeRows(runs, (r, i) => `${r.mode}-t${trials[i]}`);
    expect(rows.map((r) => r['react-t1'])).toEqual(cumulativeTokens(react.perStep).map((p) => p.total));
    expect(rows.slice(0, 6).map((r) => r['react-t2'])).toEqual(cumulativeTokens(react2.perStep).map((p) => p.total));
    expect(rows[6]!['react-t2']).toBeUndefined();

    const bars = trialRows(runs.map((summary, i) => ({ trial: trials[i]!, summary })));
    expect(bars.map((b) => b.trial)).toEqual([1, 2]);
    expect([bars[0]!.react_prompt, bars[0]!.code_completion]).toEqual([react.totals.prompt, code.totals.completion]);
    expect([bars[1]!.react_prompt, bars[1]!.react_completion, bars[1]!.code_prompt]).toEqual([
      react2.totals.prompt,
      react2.totals.completion,
      undefined,
    ]);
  });
});
