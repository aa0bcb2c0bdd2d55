/** The store groups and labels by column: two columns of one mode stay apart, each with its own label and colour slot. */
import { describe, expect, it } from 'vitest';
import { createAppStore } from '../../../renderer/store/app-store.js';
import { comparisonSummary } from '../../../renderer/store/derived.js';
import { comparisonSelectors, trialSelectors } from '../../../renderer/store/selectors.js';
import { answerChoices } from '../../../renderer/store/answer-pair.js';
import { metaColumns, slotsOf } from '../../../renderer/store/columns.js';
import { syntheticTrials, syntheticVariants } from '../fixtures/synthetic-stream.js';

const open = (cmp: ReturnType<typeof syntheticVariants>) => {
  const store = createAppStore();
  store.getState().showComparison({ meta: cmp.meta, source: 'history', interrupted: [] }, cmp.events);
  return store;
};

describe('columns by variant', () => {
  // Code Mode without return types takes one step more than Code Mode, in every trial.
  const cmp = syntheticVariants({
    trials: 3,
    variants: [{ mode: 'code', settings: { returnTypes: false } }, { mode: 'code' }],
    steps: (i, t) => (i === 0 ? 4 : 3) + (t % 2),
  });

  it('two columns of one mode keep their own key, label and palette slot', () => {
    const store = open(cmp);
    const runs = comparisonSelectors.modeRuns(store.getState());
    expect(runs.map((m) => [m.mode, m.column.key, m.column.label])).toEqual([
      ['code', 'code-1', 'Code Mode · no return types'],
      ['code', 'code', 'Code Mode'],
    ]);
    // The plain column of a mode takes that mode's colours; the variant a free slot, so the two differ.
    expect(runs[1]!.slot).toBe('code');
    expect(runs[0]!.slot).not.toBe('code');
    expect(comparisonSelectors.slots(store.getState())).toEqual(slotsOf(cmp.meta));
    const summary = comparisonSummary(runs);
    expect(summary.runs.map((r) => r.column.label)).toEqual(['Code Mode · no return types', 'Code Mode']);
  });

  it('averages and differences over trials group by column key; the baseline is a column key', () => {
    const store = open(cmp);
    const aggregates = trialSelectors.aggregates(store.getState());
    expect(aggregates.map((a) => [a.column.key, a.trials, a.steps?.mean])).toEqual([
      ['code-1', 3, (5 + 4 + 5) / 3],
      ['code', 3, (4 + 3 + 4) / 3],
    ]);
    const first = trialSelectors.differences(store.getState()).find((d) => d.figure === 'steps')!;
    expect([first.column.key, first.baselineColumn.key]).toEqual(['code', 'code-1']);
    expect(first.diff).toBeCloseTo(-1, 9);
    store.getState().setBaselineColumn('code');
    const chosen = trialSelectors.differences(store.getState()).find((d) => d.figure === 'steps')!;
    expect([chosen.column.key, chosen.baselineColumn.key]).toEqual(['code-1', 'code']);
    expect(chosen.diff).toBeCloseTo(1, 9);
    expect(chosen.sentence).toMatch(/^Code Mode · no return types took \d+ % ± \d+ % more steps than Code Mode/);
  });

  it('answers are labelled by column (and trial)', () => {
    const store = open(cmp);
    const labels = answerChoices(comparisonSelectors.allModeRuns(store.getState()), 3).map((c) => c.label);
    expect(labels.slice(0, 2)).toEqual(['Code Mode · no return types · trial 1', 'Code Mode · trial 1']);
  });

  it('a models × modes comparison labels each column by its model', () => {
    const m = syntheticVariants({
      variants: [
        { mode: 'react', model: 'sim' },
        { mode: 'code', model: 'sim' },
        { mode: 'react', model: 'sim-b' },
        { mode: 'code', model: 'sim-b' },
      ],
    });
    const runs = comparisonSelectors.modeRuns(open(m).getState());
    expect(runs.map((r) => r.column.label)).toEqual([
      'ReAct · sim',
      'Code Mode · sim',
      'ReAct · sim-b',
      'Code Mode · sim-b',
    ]);
    expect(new Set(runs.map((r) => r.slot)).size).toBe(4);
  });

  it('a plain comparison keeps one column per mode, keyed, labelled and coloured by it', () => {
    const plain = syntheticTrials({ trials: 2 });
    expect(plain.meta.variants).toBeUndefined();
    expect(metaColumns(plain.meta).map((c) => [c.key, c.label])).toEqual([
      ['react', 'ReAct'],
      ['code', 'Code Mode'],
    ]);
    const store = createAppStore();
    store.getState().showComparison({ meta: plain.meta, source: 'history', interrupted: [] }, plain.events);
    const runs = comparisonSelectors.modeRuns(store.getState());
    expect(runs.map((r) => [r.column.key, r.column.label, r.slot])).toEqual([
      ['react', 'ReAct', 'react'],
      ['code', 'Code Mode', 'code'],
    ]);
  });
});

describe('a run whose meta.json names no variants', () => {
  it('takes its column from its run-started, else its mode', async () => {
    const { runColumn } = await import('../../../renderer/store/columns.js');
    const started = { started: { variant: { key: 'code-2', label: 'Code Mode · sim-b' } } } as never;
    expect(runColumn({}, { runId: 'r', mode: 'code' }, started)).toEqual({ key: 'code-2', label: 'Code Mode · sim-b' });
    expect(runColumn({}, { runId: 'r', mode: 'code' }, undefined)).toEqual({ key: 'code', label: 'Code Mode' });
  });
});

describe('a stored comparison of variants (the report fixture)', () => {
  it('gives the app the columns, averages and matrix the JSON report holds', async () => {
    const { readFileSync } = await import('node:fs');
    const { buildMatrix } = await import('../../../shared/matrix.js');
    const read = (name: string) =>
      JSON.parse(readFileSync(new URL(`../../fixtures/reports/stored/${name}`, import.meta.url), 'utf8'));
    const stored = read('variants-matrix.stored.json');
    const report = read('variants-matrix.json');
    const store = createAppStore();
    store
      .getState()
      .showComparison({ meta: stored.meta, source: 'history', interrupted: stored.interruptedRunIds }, stored.events);
    const all = comparisonSelectors.allModeRuns(store.getState());
    expect([...new Set(all.map((m) => m.column.label))]).toEqual([
      'ReAct · sim',
      'Code Mode · sim',
      'ReAct · sim-b',
      'Code Mode · sim-b',
    ]);
    expect(JSON.parse(JSON.stringify(trialSelectors.aggregates(store.getState())))).toEqual(report.summary.byMode);
    expect(JSON.parse(JSON.stringify(buildMatrix(comparisonSummary(all).runs)))).toEqual(report.summary.matrix);
  });
});

describe('columns opened from a matrix cell', () => {
  it('show the timeline with them marked, until another comparison is opened', () => {
    const a = syntheticVariants({
      id: 'cmp-a',
      variants: [{ mode: 'code', settings: { returnTypes: false } }, { mode: 'code' }],
    });
    const store = open(a);
    store.getState().setMainTab('charts');
    store.getState().openColumns(['code-1']);
    expect([store.getState().mainTab, store.getState().focusedColumns?.keys]).toEqual(['timeline', ['code-1']]);
    store.getState().showComparison({ meta: a.meta, source: 'history', interrupted: [] }, a.events);
    expect(store.getState().focusedColumns?.keys).toEqual(['code-1']);
    const b = syntheticVariants({
      id: 'cmp-b',
      variants: [{ mode: 'code', settings: { returnTypes: false } }, { mode: 'code' }],
    });
    store.getState().showComparison({ meta: b.meta, source: 'history', interrupted: [] }, b.events);
    expect(store.getState().focusedColumns).toBeNull();
  });
});
