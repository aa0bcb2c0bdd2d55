import { describe, expect, it } from 'vitest';
import type { ComparisonListItem } from '../../../shared/ipc-contract.js';
import {
  historyQueryOf,
  isFiltered,
  matchesHistory,
  NO_FILTER,
  type HistoryFilter,
} from '../../../renderer/store/history-filter.js';
import { entryOf, filterEntries } from '../../../electron/host/history-index.js';

const NOW = Date.UTC(2026, 11, 1, 12);

function item(
  id: string,
  opts: {
    task?: { id: string | null; text: string };
    model?: string;
    simulated?: boolean;
    statuses?: string[];
    modes?: string[];
    ageMs?: number;
  },
): ComparisonListItem {
  const modes = opts.modes ?? ['react', 'code'];
  return {
    meta: {
      id,
      createdAt: NOW - (opts.ageMs ?? 0),
      task: opts.task ?? { id: 'log-stats', text: 'For every .txt file…' },
      provider: {
        name: opts.simulated === false ? 'deepseek' : 'simulated',
        baseUrl: 'http://x/v1',
        model: opts.model ?? 'sim',
        simulated: opts.simulated ?? true,
      },
      settings: {} as never,
      workspaceSource: 'task fixture',
      runs: modes.map((mode, i) => ({ runId: `${id}-${i}`, mode: mode as never })),
    } as ComparisonListItem['meta'],
    runs: modes.map((mode, i) => ({
      runId: `${id}-${i}`,
      mode: mode as never,
      status: (opts.statuses?.[i] ?? 'answered') as never,
      totalTokens: 100,
      steps: 2,
    })),
  };
}

const list = [
  item('a', {}),
  item('b', {
    task: { id: null, text: 'Summarise the changelog' },
    model: 'deepseek-chat',
    simulated: false,
    statuses: ['answered', 'error'],
    ageMs: 3 * 86_400_000,
  }),
  item('c', {
    task: { id: 'calc', text: 'What is 123 * 456 + 789?' },
    modes: ['react', 'hybrid'],
    ageMs: 40 * 86_400_000,
  }),
  item('d', { statuses: ['running', 'running'] }),
];
const ids = (f: Partial<typeof NO_FILTER>) =>
  list.filter((i) => matchesHistory(i, { ...NO_FILTER, ...f }, NOW)).map((i) => i.meta.id);

describe('history filter', () => {
  it('keeps everything without a filter', () => {
    expect(ids({})).toEqual(['a', 'b', 'c', 'd']);
    expect(isFiltered(NO_FILTER)).toBe(false);
    expect(isFiltered({ ...NO_FILTER, text: '  ' })).toBe(false);
    expect(isFiltered({ ...NO_FILTER, mode: 'hybrid' })).toBe(true);
  });
  it('matches every word of the text in the task title or text, model, provider or id', () => {
    expect(ids({ text: 'log statistics' })).toEqual(['a', 'd']);
    expect(ids({ text: 'CHANGELOG deepseek' })).toEqual(['b']);
    expect(ids({ text: 'arithmetic' })).toEqual(['c']);
    expect(ids({ text: 'simulated calc' })).toEqual(['c']);
    expect(ids({ text: 'nothing-like-this' })).toEqual([]);
  });
  it('filters by a mode that ran, by outcome and by age', () => {
    expect(ids({ mode: 'hybrid' })).toEqual(['c']);
    expect(ids({ outcome: 'answered' })).toEqual(['a', 'c']);
    expect(ids({ outcome: 'not-answered' })).toEqual(['b']);
    expect(ids({ age: 'day' })).toEqual(['a', 'd']);
    expect(ids({ age: 'week' })).toEqual(['a', 'b', 'd']);
    expect(ids({ age: 'month', outcome: 'answered' })).toEqual(['a']);
  });
});

describe('history filter over variants', () => {
  it('finds a comparison of variants by a column label or a column model', () => {
    const v = item('v', {});
    const withColumns = {
      ...v,
      meta: {
        ...v.meta,
        variants: [
          {
            key: 'code-1',
            label: 'Code Mode · no return types',
            mode: 'code' as const,
            settings: { returnTypes: false },
          },
          { key: 'react-2', label: 'ReAct · sim-b', mode: 'react' as const, model: 'sim-b' },
        ],
      },
    };
    const match = (text: string) => matchesHistory(withColumns, { ...NO_FILTER, text }, NOW);
    expect([match('return types'), match('sim-b'), match('deepseek')]).toEqual([true, true, false]);
    expect(matchesHistory(v, { ...NO_FILTER, text: 'sim-b' }, NOW)).toBe(false);
  });
  it('asks the host for the same comparisons as it keeps itself (the pages are filtered over the whole history)', () => {
    const entries = list.map((i) => entryOf(i, null));
    const filters: Partial<HistoryFilter>[] = [
      {},
      { text: 'log statistics' },
      { text: 'CHANGELOG deepseek' },
      { text: 'arithmetic' },
      { text: 'simulated calc' },
      { text: 'nothing-like-this' },
      { mode: 'hybrid' },
      { outcome: 'answered' },
      { outcome: 'not-answered' },
      { age: 'week' },
      { age: 'month', outcome: 'answered', text: 'sim' },
    ];
    for (const f of filters) {
      const host = filterEntries(entries, historyQueryOf({ ...NO_FILTER, ...f }, NOW)).map((e) => e.id);
      expect(host, JSON.stringify(f)).toEqual(ids(f));
    }
  });
});
