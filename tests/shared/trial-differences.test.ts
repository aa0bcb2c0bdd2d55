/** Mode differences over trials: pairing by round, which runs count, costs without a price, the sentences. */
import { describe, expect, it } from 'vitest';
import { aggregateByColumn, type RunSummary } from '../../shared/summary.js';
import { differencesByMode, formatP, formatWithInterval, type TrialRun } from '../../shared/trial-differences.js';
import { compareMeans, pairedPermutationTest } from '../../shared/trial-stats.js';
import { MODE_LABELS, type ModeId } from '../../shared/modes.js';

function run(
  mode: ModeId,
  trial: number,
  prompt: number,
  opts: { status?: RunSummary['status']; ok?: boolean; usd?: number | null; wallMs?: number } = {},
): TrialRun {
  const summary = {
    runId: `${mode}-${trial}`,
    mode,
    column: { key: mode, label: MODE_LABELS[mode] },
    task: null,
    provider: null,
    status: opts.status ?? 'answered',
    answer: 'x',
    error: null,
    validation: { ok: opts.ok ?? true, detail: '' },
    totals: {
      steps: 3,
      requests: 3,
      prompt,
      completion: 100,
      cached: 0,
      reasoning: 0,
      total: prompt + 100,
      toolCalls: 2,
      wallMs: opts.wallMs ?? 1000,
      approvalWaitMs: 0,
    },
    perStep: [],
    firstRequestAt: null,
    firstRequestPrompt: null,
    usageSource: 'reported',
    cost: { usd: opts.usd === undefined ? null : opts.usd, estimated: false },
  } as unknown as RunSummary;
  return { trial, summary };
}

const REACT = [5000, 5200, 4800, 5100, 4900];
const CODE = [1900, 2000, 1850, 1950, 2050];
const rounds = (): TrialRun[] => REACT.flatMap((p, i) => [run('react', i + 1, p), run('code', i + 1, CODE[i])]);

describe('differencesByMode', () => {
  it('pairs by round: the figure is the paired comparison of the two modes per trial', () => {
    const diffs = differencesByMode(rounds());
    const prompt = diffs.find((d) => d.figure === 'prompt')!;
    const expected = compareMeans(CODE, REACT, true)!;
    expect(prompt).toMatchObject({
      mode: 'code',
      baseline: 'react',
      paired: true,
      n: 5,
      diff: expected.diff,
      percent: expected.percent,
      p: 0.0625,
    });
    expect(prompt.ci95).toEqual(expected.ci95);
    // Every round one way with 5 pairs: the exact test cannot go below 2/32, and the sentence says so.
    expect(prompt.sentence).toBe(
      `Code Mode used ${Math.round(-expected.percent!)} % ± ${Math.round((expected.percentCi95![1] - expected.percentCi95![0]) / 2)} % fewer prompt tokens than ReAct ` +
        '(p = 0.063, 5 paired trials: all one way, but 5 trials cannot give p < 0.05)',
    );
  });

  it('runs that were cancelled or crashed leave the figures; their rounds lose their pair; the pass rate counts them', () => {
    const runs = rounds();
    runs[1] = run('code', 1, 1900, { status: 'crashed' });
    runs[3] = run('code', 2, 2000, { status: 'max-steps', ok: false });
    const prompt = differencesByMode(runs).find((d) => d.figure === 'prompt')!;
    // The crashed round drops out; the run at the step limit stays.
    expect(prompt.n).toBe(4);
    expect(prompt.diff).toBeCloseTo(compareMeans(CODE.slice(1), REACT.slice(1), true)!.diff, 10);
    const agg = aggregateByColumn(runs.map((r) => r.summary));
    expect(agg[1]).toMatchObject({ trials: 5, finished: 4, answered: 3, passed: 3 });
    expect(agg[1].passRate?.rate).toBe(3 / 5);
    const pass = differencesByMode(runs).find((d) => d.figure === 'passRate')!;
    expect(pass.diff).toBeCloseTo(-0.4, 12);
    expect(pass.p).toBe(pairedPermutationTest([-1, -1, 0, 0, 0]).p);
    expect(pass.sentence).toMatch(
      /^Code Mode passed 3 of 5, ReAct 5 of 5 \(−40 points, 95 % CI −\d+ to \+?\d+; p = 0\.50, 5 paired trials: not a clear difference\)$/,
    );
  });

  it('a mode repeated without rounds (every run in trial 1) is compared unpaired', () => {
    const runs = [...REACT.map((p) => run('react', 1, p)), ...CODE.map((p) => run('code', 1, p))];
    const prompt = differencesByMode(runs).find((d) => d.figure === 'prompt')!;
    expect(prompt.paired).toBe(false);
    expect(prompt.p).toBeCloseTo(2 / 252, 14);
    expect(prompt.sentence).toContain('p = 0.008, 5 trials)');
  });

  it('cost: compared only when every counted run has one (no price is no figure, not $0)', () => {
    expect(differencesByMode(rounds()).some((d) => d.figure === 'cost')).toBe(false);
    const priced = REACT.flatMap((p, i) => [
      run('react', i + 1, p, { usd: p / 1e6 }),
      run('code', i + 1, CODE[i], { usd: CODE[i] / 1e6 }),
    ]);
    expect(differencesByMode(priced).find((d) => d.figure === 'cost')?.sentence).toMatch(
      /^Code Mode cost \d+ % ± \d+ % less than ReAct/,
    );
    priced[3] = run('code', 2, 2000, { usd: null });
    expect(differencesByMode(priced).some((d) => d.figure === 'cost')).toBe(false);
  });

  it('one trial: the difference without an interval, and it says so', () => {
    const diffs = differencesByMode([run('react', 1, 5000), run('code', 1, 2000)]);
    const prompt = diffs.find((d) => d.figure === 'prompt')!;
    expect(prompt).toMatchObject({ ci95: null, p: null, percent: -60 });
    expect(prompt.sentence).toBe('Code Mode used 60 % fewer prompt tokens than ReAct (1 trial: no interval)');
    expect(
      formatWithInterval(aggregateByColumn(diffs.length ? [run('react', 1, 5000).summary] : [])[0].prompt!, String),
    ).toBe('5000 (1 trial: no interval)');
  });

  it('against a chosen baseline: the other modes are measured from it; a baseline the runs lack falls back to the first mode', () => {
    const three = [...rounds(), ...REACT.map((_, i) => run('hybrid', i + 1, 3000 + i * 10))];
    const fromCode = differencesByMode(three, 'code');
    expect(fromCode.filter((d) => d.figure === 'prompt').map((d) => [d.mode, d.baseline])).toEqual([
      ['react', 'code'],
      ['hybrid', 'code'],
    ]);
    const react = fromCode.find((d) => d.figure === 'prompt' && d.mode === 'react')!;
    expect(react.diff).toBe(compareMeans(REACT, CODE, true)!.diff);
    expect(react.sentence).toMatch(/^ReAct used \d+ % ± \d+ % more prompt tokens than Code Mode/);
    expect(differencesByMode(three, 'code-py').map((d) => d.baseline)).toEqual(
      differencesByMode(three).map((d) => d.baseline),
    );
  });

  it('two columns of one mode are compared as columns, by key and label, against a chosen baseline column', () => {
    const as = (r: TrialRun, key: string, label: string): TrialRun => ({
      ...r,
      summary: { ...r.summary, runId: `${key}-${r.trial}`, column: { key, label } },
    });
    const runs = [1, 2, 3].flatMap((t) => [
      as(run('code', t, 900 + t), 'code-1', 'Code Mode · no return types'),
      as(run('code', t, 500 + t), 'code-2', 'Code Mode'),
    ]);
    const d = differencesByMode(runs, 'code-2').find((x) => x.figure === 'prompt')!;
    expect([d.column.key, d.baselineColumn.key, d.mode, d.baseline]).toEqual(['code-1', 'code-2', 'code', 'code']);
    expect(d.diff).toBe(400);
    expect(d.sentence).toMatch(/^Code Mode · no return types used \d+ % ± \d+ % more prompt tokens than Code Mode \(/);
  });

  it('one mode: nothing to compare', () => {
    expect(differencesByMode([run('react', 1, 1), run('react', 2, 2)])).toEqual([]);
  });

  it('formats p', () => {
    expect([formatP(0.0079), formatP(0.0004), formatP(0.31)]).toEqual(['p = 0.008', 'p < 0.001', 'p = 0.31']);
  });
});

describe('an interval past −100 %', () => {
  it('is written as a range ending at 100 % fewer, since a figure cannot go below zero', () => {
    const react = [6292, 3214, 38917, 6292, 6292],
      code = [1761, 1761, 1761, 1761, 1761];
    const runs = react.flatMap((p, i) => [run('react', i + 1, p), run('code', i + 1, code[i])]);
    const prompt = differencesByMode(runs).find((d) => d.figure === 'prompt')!;
    expect(compareMeans(code, react, true)!.percentCi95![0]).toBeLessThan(-100);
    expect(prompt.percentCi95![0]).toBe(-100);
    expect(prompt.sentence).toMatch(
      /^Code Mode used 86 % fewer prompt tokens than ReAct \(95 % CI \d+ % to 100 % fewer prompt tokens; p = 0\.063/,
    );
  });
});
