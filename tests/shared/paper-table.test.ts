import { describe, expect, it } from 'vitest';
import { paperTable } from '../../shared/paper-table.js';
import { M3_PUBLISHED, publishedRowOf } from '../../shared/m3tooleval-paper.js';
import { MODE_LABELS, type ModeId } from '../../shared/run-spec.js';
import type { RunSummary } from '../../shared/summary.js';

let n = 0;
function run(
  mode: ModeId,
  model: string,
  ok: boolean,
  steps: number,
  total: number,
  status: RunSummary['status'] = 'answered',
): RunSummary {
  return {
    runId: `r${n++}`,
    mode,
    column: { key: `${mode}|${model}`, label: `${MODE_LABELS[mode]} · ${model}` },
    task: null,
    provider: { name: 'p', baseUrl: 'http://x', model, simulated: false },
    status,
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
      kind: 'priced',
      steps,
      costedSteps: 0,
      knownUsd: 0,
    } as unknown as RunSummary['cost'],
    programToolCalls: 0,
    workerStart: null,
  };
}

describe('paperTable', () => {
  // Two models, three tasks, two trials; code-py succeeds more often in fewer turns for model m1.
  const tasks = ['t1', 't2', 't3'].map((taskId, i) => ({
    taskId,
    runs: [1, 2].flatMap((trial) => [
      { trial, summary: run('react-text', 'm1', i === 0, 8, 4000) },
      { trial, summary: run('react', 'm1', i < 2, 6, 3000) },
      { trial, summary: run('code-py', 'm1', true, 2, 1000) },
      { trial, summary: run('react', 'm2', false, 10, 5000, 'max-steps') },
    ]),
  }));
  const table = paperTable(tasks, ['react-text', 'react', 'code-py']);

  it('has a row per model and the modes in the order asked', () => {
    expect(table.modes).toEqual(['react-text', 'react', 'code-py']);
    expect(table.rows.map((r) => r.model)).toEqual(['m1', 'm2']);
    expect(table.rows[1].cells.map((c) => c?.mode ?? null)).toEqual([null, 'react', null]);
  });

  it('gives success over every task and trial, turns, and tokens per task, per step and in all', () => {
    const [text, json, code] = table.rows[0].cells;
    expect(text).toMatchObject({ runs: 6, passed: 2, success: { k: 2, n: 6 } });
    expect(json!.success!.rate).toBeCloseTo(4 / 6);
    expect(code!.turns!.mean).toBe(2);
    expect(code!.tokensPerTask!.mean).toBe(1000);
    expect(code!.tokensPerStep!.mean).toBe(500);
    expect(code!.tokensInAll).toBe(6000);
    // A run that hit the step limit counts in turns and tokens, as the paper's averages count failures.
    expect(table.rows[1].cells[1]).toMatchObject({ turns: { mean: 10 }, tokensInAll: 30000, passed: 0 });
  });

  it('sets each mode against the first, paired by task and trial, with a test', () => {
    const diffs = table.rows[0].differences;
    expect(new Set(diffs.map((d) => d.figure))).toEqual(new Set(['passRate', 'steps', 'total']));
    const turns = diffs.find((d) => d.mode === 'code-py' && d.figure === 'steps')!;
    expect(turns).toMatchObject({ baseline: 'react-text', paired: true, n: 6, diff: -6 });
    expect(turns.p).not.toBeNull();
    expect(turns.sentence).toMatch(
      /fewer steps than ReAct \(text\) \(p = 0\.03\d, 6 pairs of runs, one per task and trial\)/,
    );
    expect(diffs.filter((d) => d.mode === 'code-py').map((d) => d.figure)).toEqual(['passRate', 'steps', 'total']);
    expect(table.rows[1].differences).toEqual([]);
  });
});

describe('the published M3ToolEval figures', () => {
  it("hold the paper's headline: GPT-4 (1106) code 74.4 % in 5.5 turns against JSON 52.4 % and text 53.7 %", () => {
    expect(publishedRowOf('gpt-4-1106-preview')).toEqual({
      model: 'gpt-4-1106-preview',
      code: { success: 74.4, turns: 5.5 },
      json: { success: 52.4, turns: 7.6 },
      text: { success: 53.7, turns: 7.7 },
    });
    expect(publishedRowOf('openai/GPT-4-0613')?.model).toBe('gpt-4-0613');
    expect(publishedRowOf('gpt-4o')).toBeUndefined();
    for (const r of M3_PUBLISHED) for (const f of [r.code, r.json, r.text]) expect(f.turns).toBeLessThanOrEqual(10);
  });
});
