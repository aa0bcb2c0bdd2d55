import { describe, expect, it } from 'vitest';
import { openSuite, suiteView } from '../../../electron/suite/suite-data.js';
import type { SuiteRecord } from '../../../shared/suite.js';

const record: SuiteRecord = {
  version: 1,
  id: 's-1',
  name: 'n',
  source: 'builtin',
  createdAt: 0,
  modes: ['react', 'code'],
  trials: 1,
  provider: null,
  tasks: [
    {
      taskId: 'a',
      kind: 'custom',
      text: 'x',
      validator: { exact: 'y' },
      comparisonId: null,
      error: 'Unknown mode "nope".',
      validations: {},
    },
    { taskId: 'b', kind: 'builtin', text: 'x', validator: null, comparisonId: 'gone', error: null, validations: {} },
  ],
};

describe('openSuite', () => {
  it('names the tasks without figures and still builds the leaderboard', async () => {
    const data = await openSuite(record, async (id) => {
      throw new Error(`No comparison "${id}" in the history.`);
    });
    expect(data.tasks.map((t) => t.runs.length)).toEqual([0, 0]);
    expect(suiteView(data).problems).toEqual([
      'a: Unknown mode "nope".',
      'b: comparison gone: No comparison "gone" in the history.',
    ]);
    expect(data.leaderboard.overall).toEqual([]);
    expect(data.leaderboard.tasks.map((t) => t.byMode)).toEqual([[], []]);
  });
});
