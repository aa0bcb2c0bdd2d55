import { describe, expect, it } from 'vitest';
import { boardTables, passCell, rankModes, suiteLeaderboard } from '../../shared/suite-leaderboard.js';
import { aggregateByColumn, type RunSummary } from '../../shared/summary.js';
import { MODE_LABELS, type ModeId } from '../../shared/run-spec.js';

function run(mode: ModeId, total: number, ok: boolean | null): RunSummary {
  return {
    runId: `${mode}-${total}`,
    mode,
    column: { key: mode, label: MODE_LABELS[mode] },
    task: null,
    provider: null,
    status: 'answered',
    answer: 'a',
    error: null,
    validation: ok === null ? null : { ok, detail: '' },
    totals: {
      steps: 2,
      requests: 2,
      prompt: total,
      completion: 0,
      cached: 0,
      reasoning: 0,
      total,
      wallMs: 100,
      toolCalls: 1,
    } as RunSummary['totals'],
    perStep: [],
    firstRequestAt: null,
    firstRequestPrompt: null,
    usageSource: 'reported',
    cost: {
      usd: null,
      estimated: false,
      kind: 'simulated',
      steps: 2,
      costedSteps: 0,
      knownUsd: 0,
    } as unknown as RunSummary['cost'],
    programToolCalls: 0,
    workerStart: null,
  };
}

describe('suiteLeaderboard', () => {
  const tasks = [
    {
      taskId: 'a',
      runs: [run('react', 100, true), run('react', 300, true), run('code', 50, true), run('code', 70, false)],
    },
    { taskId: 'b', runs: [run('react', 200, true), run('code', 40, null)] },
  ];
  const lb = suiteLeaderboard(tasks, ['react', 'code']);

  it('is aggregateByColumn per task and over every run pooled', () => {
    expect(lb.tasks[0].byMode).toEqual(aggregateByColumn(tasks[0].runs));
    const react = lb.overall.find((a) => a.mode === 'react')!;
    expect(react.total!.mean).toBe(200);
    expect(react.passRate).toMatchObject({ k: 3, n: 3 });
    const code = lb.overall.find((a) => a.mode === 'code')!;
    expect(code.passRate).toMatchObject({ k: 1, n: 3 });
  });

  it('ranks by pass rate, then fewer tokens', () => {
    expect(lb.overall.map((a) => a.mode)).toEqual(['react', 'code']);
    const even = rankModes(aggregateByColumn([run('react', 300, true), run('code', 100, true)]), ['react', 'code']);
    expect(even.map((a) => a.mode)).toEqual(['code', 'react']);
  });

  it('writes the cells: pass with Wilson interval, means with intervals, simulated labels', () => {
    expect(passCell(lb.overall[0])).toMatch(/^3\/3 · 100 % \(\d+ %–100 %\)$/);
    const t = boardTables(lb, true);
    expect(t.overall.head).toContain('Tokens (simulated)');
    expect(t.overall.rows[0].slice(0, 2)).toEqual(['1', 'ReAct']);
    expect(t.overall.rows[0][4]).toBe('simulated: no price');
    expect(t.tasks.rows.map((r) => r[0])).toEqual(['a', '', 'b', '']);
  });
});
