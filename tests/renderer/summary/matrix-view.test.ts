/** The matrix cells' text: each metric written as the rest of the app writes it, the pass rate with its counts. */
import { describe, expect, it } from 'vitest';
import { buildMatrix, cellShade } from '../../../shared/matrix.js';
import { summarizeRun } from '../../../shared/summary.js';
import { matrixText } from '../../../renderer/components/summary/matrix-view.js';
import { syntheticVariants } from '../fixtures/synthetic-stream.js';
import { groupByRun } from '../../../shared/summary.js';
import { fmtMean } from '../../../renderer/lib/display-format.js';

describe('matrix view text', () => {
  // sim-b's runs take one step more than sim's.
  const cmp = syntheticVariants({
    trials: 2,
    variants: [
      { mode: 'react', model: 'sim' },
      { mode: 'code', model: 'sim' },
      { mode: 'react', model: 'sim-b' },
      { mode: 'code', model: 'sim-b' },
    ],
    steps: (i) => (i < 2 ? 2 : 3),
  });
  const byRun = groupByRun(cmp.events);
  const matrix = buildMatrix(cmp.meta.runs.map((r) => summarizeRun(byRun.get(r.runId)!)));

  it('writes mean tokens, steps and the pass rate with its counts; "—" without a figure', () => {
    expect(matrix.rows).toEqual(['sim', 'sim-b']);
    const cell = matrix.cells[1]![1]!;
    expect(matrixText(cell, 'steps')).toBe('3');
    expect(matrixText(cell, 'total')).toBe(fmtMean(cell.figures.total!.mean));
    expect(matrixText(cell, 'passRate')).toBe('100 % (2 of 2)');
    // The simulated model has no price: no cost figure, not $0.
    expect(matrixText(cell, 'cost')).toBe('—');
    expect(matrixText(null, 'total')).toBe('—');
  });

  it('shades the fewer steps as the better end', () => {
    expect(cellShade(matrix, matrix.cells[0]![0]!, 'steps')).toBe(1);
    expect(cellShade(matrix, matrix.cells[1]![0]!, 'steps')).toBe(0);
  });
});
