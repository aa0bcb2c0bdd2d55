import { describe, expect, it } from 'vitest';
import { buildMatrix, cellFailing, cellShade, cellValue, hasMatrix, matrixRowOf } from '../../shared/matrix.js';
import type { RunSummary } from '../../shared/summary.js';
import type { ModeId } from '../../shared/run-spec.js';

function run(
  id: string,
  mode: ModeId,
  label: string,
  model: string,
  total: number,
  ok: boolean,
  steps = 2,
): RunSummary {
  return {
    runId: id,
    mode,
    column: { key: id, label },
    task: null,
    provider: { name: 'simulated', baseUrl: 'http://x', model, simulated: true },
    status: 'answered',
    answer: 'a',
    error: null,
    validation: { ok, detail: '' },
    totals: {
      steps,
      requests: steps,
      prompt: total,
      completion: 0,
      cached: 0,
      reasoning: 0,
      total,
      wallMs: 10,
      toolCalls: 1,
      approvalWaitMs: 0,
      startupMs: 0,
    },
    perStep: [],
    firstRequestAt: null,
    firstRequestPrompt: null,
    usageSource: 'reported',
    cost: { usd: null, estimated: false } as unknown as RunSummary['cost'],
    programToolCalls: 0,
    workerStart: null,
  };
}

describe('buildMatrix', () => {
  const runs = [
    run('a1', 'react', 'ReAct · careful', 'careful', 1000, true, 3),
    run('a2', 'react', 'ReAct · careful', 'careful', 1200, false, 5),
    run('b1', 'code', 'Code Mode · careful', 'careful', 400, true),
    run('c1', 'react', 'ReAct · hasty', 'hasty', 800, false),
  ];
  const m = buildMatrix(runs);

  it('has a row per model and a column per mode, cells aggregating their trials', () => {
    expect(m.rows).toEqual(['careful', 'hasty']);
    expect(m.modes).toEqual(['react', 'code']);
    const cell = m.cells[0]![0]!;
    expect(cell.runIds).toEqual(['a1', 'a2']);
    expect(cellValue(cell, 'total')).toBe(1100);
    expect(cellValue(cell, 'passRate')).toBe(0.5);
    expect(cellValue(cell, 'steps')).toBe(4);
    expect(m.cells[1]![1]).toBeNull();
  });

  it("shades the better end 1 and the worse 0, by the metric's direction", () => {
    expect(cellShade(m, m.cells[0]![1]!, 'total')).toBe(1);
    expect(cellShade(m, m.cells[0]![0]!, 'total')).toBe(0);
    // A cell none of whose runs passed is not ranked on tokens, however few it used; its pass rate ranks it last.
    expect(cellFailing(m.cells[1]![0]!)).toBe(true);
    expect(cellFailing(m.cells[0]![0]!)).toBe(false);
    expect(cellShade(m, m.cells[1]![0]!, 'total')).toBeNull();
    expect(cellShade(m, m.cells[1]![0]!, 'steps')).toBeNull();
    expect(cellShade(m, m.cells[1]![0]!, 'passRate')).toBe(0);
    expect(cellShade(m, m.cells[0]![1]!, 'passRate')).toBe(1);
    expect(cellShade(m, null, 'total')).toBeNull();
    expect(cellShade(m, m.cells[0]![0]!, 'cost')).toBeNull();
  });

  it("reads a settings variant's row from its label, and a plain column's from its model", () => {
    expect(matrixRowOf(run('x', 'code', 'Code Mode · no return types', 'sim', 1, true))).toBe('no return types');
    expect(matrixRowOf(run('y', 'code', 'Code Mode', 'sim', 1, true))).toBe('sim');
    expect(hasMatrix([run('y', 'code', 'Code Mode', 'sim', 1, true), run('z', 'react', 'ReAct', 'sim', 1, true)])).toBe(
      false,
    );
    expect(hasMatrix(runs)).toBe(true);
  });
});
