import { describe, expect, it } from 'vitest';
import { aggregateByColumn, cumulativeTokens, summarizeRun } from '../../../shared/summary.js';
import { perStepRows, trialRows } from '../../../renderer/components/charts/chart-data.js';
import {
  cellText,
  cumulativeTable,
  modeMeansTable,
  perStepTable,
  trialTotalsTable,
} from '../../../renderer/components/charts/chart-tables.js';
import { syntheticRun } from '../fixtures/synthetic-stream.js';

describe('chart tables (the charts’ text alternative)', () => {
  const react = summarizeRun(syntheticRun({ runId: 'r1', mode: 'react', steps: 5 }));
  const code = summarizeRun(syntheticRun({ runId: 'r2', mode: 'code', steps: 3 }));
  const columns = [
    { key: react.column.key, label: 'ReAct' },
    { key: code.column.key, label: 'Code Mode' },
  ];

  it('holds every bar of the per-step chart: a row per step, prompt and completion per column, blank past a run’s end', () => {
    const t = perStepTable(perStepRows([react, code]), columns, 'Tokens per step', true);
    expect(t.caption).toBe('Tokens per step, tokens (simulated)');
    expect(t.columns).toEqual(['Step', 'ReAct prompt', 'ReAct completion', 'Code Mode prompt', 'Code Mode completion']);
    expect(t.rows.map((r) => r[0])).toEqual([1, 2, 3, 4, 5]);
    react.perStep.forEach((s, i) => expect(t.rows[i]!.slice(1, 3)).toEqual([s.prompt, s.completion]));
    code.perStep.forEach((s, i) => expect(t.rows[i]!.slice(3, 5)).toEqual([s.prompt, s.completion]));
    expect(t.rows[4]!.slice(3).map(cellText)).toEqual(['', '']);
  });

  it('holds every point of the cumulative chart', () => {
    const t = cumulativeTable([react, code], (r) => r.column.key, ['ReAct', 'Code Mode'], 'Cumulative tokens', false);
    expect(t.rows.map((r) => r[1])).toEqual(cumulativeTokens(react.perStep).map((p) => p.total));
    expect(t.rows.slice(0, 3).map((r) => r[2])).toEqual(cumulativeTokens(code.perStep).map((p) => p.total));
  });

  it('marks a trial run without an answer, and gives each mode’s means with their interval', () => {
    const runs = [
      { trial: 1, summary: react },
      { trial: 1, summary: code },
    ];
    const t = trialTotalsTable(trialRows(runs), columns, new Set([`1:${react.column.key}`]), false);
    expect(t.rows[0]![1]).toBe(react.totals.prompt);
    expect(t.rows[0]![3]).toBe(`${cellText(code.totals.prompt)} (no answer)`);
    const means = modeMeansTable(aggregateByColumn([react, code]), false);
    expect(means.columns).toEqual(['Mode', 'Mean prompt tokens', 'Mean completion tokens', 'Mean total tokens']);
    expect(means.rows.length).toBeGreaterThan(0);
  });

  it('writes whole numbers grouped and leaves missing figures blank', () => {
    expect([cellText(12345), cellText(1.5), cellText(undefined), cellText(null), cellText('x')]).toEqual([
      '12,345',
      '1.5',
      '',
      '',
      'x',
    ]);
  });
});
