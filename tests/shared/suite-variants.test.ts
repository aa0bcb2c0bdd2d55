/** A suite's columns: variants, or models × modes, checked with the suite; the leaderboard and matrix by column. */
import { describe, expect, it } from 'vitest';
import { parseSuite, SuiteError } from '../../shared/suite.js';
import { boardTables, suiteLeaderboard } from '../../shared/suite-leaderboard.js';
import type { RunSummary } from '../../shared/summary.js';
import { MODE_LABELS, type ModeId } from '../../shared/modes.js';

const tasks = [{ builtin: 'calc' }];

function run(mode: ModeId, key: string, label: string, total: number, ok = true): RunSummary {
  return {
    runId: `${key}-${total}`,
    mode,
    column: { key, label },
    task: null,
    provider: { name: 'simulated', baseUrl: 'x', model: 'sim', simulated: true },
    status: 'answered',
    answer: 'a',
    error: null,
    validation: { ok, detail: '' },
    totals: {
      steps: 2,
      requests: 2,
      prompt: total - 10,
      completion: 10,
      cached: 0,
      reasoning: 0,
      total,
      toolCalls: 1,
      wallMs: 100,
      approvalWaitMs: 0,
    },
    perStep: [],
    firstRequestAt: null,
    firstRequestPrompt: null,
    usageSource: 'reported',
    cost: { usd: null, estimated: false },
  } as unknown as RunSummary;
}

describe('suite columns', () => {
  it("models × modes become variants, models as rows; the suite's modes are theirs", () => {
    const s = parseSuite({ name: 'm', models: ['sim', 'sim-b'], modes: ['react', 'code'], tasks }, 'x.json');
    expect(s.variants).toEqual([
      { mode: 'react', model: 'sim' },
      { mode: 'code', model: 'sim' },
      { mode: 'react', model: 'sim-b' },
      { mode: 'code', model: 'sim-b' },
    ]);
    expect(s.modes).toEqual(['react', 'code']);
    expect(parseSuite({ name: 'p', modes: ['react'], tasks }, 'x.json').variants).toBeNull();
  });

  it('refuses bad columns, naming them, with the other problems', () => {
    expect(() => parseSuite({ name: 'v', variants: [{ mode: 'cod' }], tasks }, 'x.json')).toThrow(/variants\.1\.mode/);
    expect(() => parseSuite({ name: 'v', variants: [{ mode: 'code' }], modes: ['react'], tasks }, 'x.json')).toThrow(
      /leave modes out/,
    );
    expect(() => parseSuite({ name: 'v', variants: [{ mode: 'code' }], models: ['a'], tasks }, 'x.json')).toThrow(
      SuiteError,
    );
  });

  it('ranks columns over every task, labels them, and draws the matrix over all tasks', () => {
    const col = (mode: ModeId, model: string, i: number) => ({
      key: `${mode}-${i}`,
      label: `${MODE_LABELS[mode]} · ${model}`,
    });
    const runs = (base: number) => [
      run('react', col('react', 'sim', 1).key, col('react', 'sim', 1).label, base + 1000),
      run('code', col('code', 'sim', 2).key, col('code', 'sim', 2).label, base + 400),
      run('react', col('react', 'sim-b', 3).key, col('react', 'sim-b', 3).label, base + 900, false),
      run('code', col('code', 'sim-b', 4).key, col('code', 'sim-b', 4).label, base + 300),
    ];
    const lb = suiteLeaderboard(
      [
        { taskId: 'a', runs: runs(0) },
        { taskId: 'b', runs: runs(100) },
      ],
      ['react', 'code'],
    );
    expect(lb.overall.map((a) => [a.column.label, a.trials, a.total?.mean])).toEqual([
      ['Code Mode · sim-b', 2, 350],
      ['Code Mode · sim', 2, 450],
      ['ReAct · sim', 2, 1050],
      ['ReAct · sim-b', 2, 950],
    ]);
    expect(boardTables(lb, true).overall.head[1]).toBe('Column');
    expect(boardTables(lb, true).overall.rows.map((r) => r[1])).toEqual([
      'Code Mode · sim-b',
      'Code Mode · sim',
      'ReAct · sim',
      'ReAct · sim-b',
    ]);
    expect(lb.matrix?.rows).toEqual(['sim', 'sim-b']);
    expect(lb.matrix?.cells.map((row) => row.map((c) => c?.figures.total?.mean))).toEqual([
      [1050, 450],
      [950, 350],
    ]);
  });
});
