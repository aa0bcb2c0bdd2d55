import { describe, expect, it } from 'vitest';
import { builtinSuite, HISTORY_SUITE_SETTINGS, historySuite, parseSuite, SuiteError } from '../../shared/suite.js';
import { KNOBS } from '../../shared/run-knobs.js';
import { historyError } from '../../shared/history-setting.js';
import { resolveColumns } from '../../shared/variants.js';
import { parseSettings } from '../../shared/run-spec.js';
import { BUILTIN_TASKS } from '../../shared/tasks.js';

function problemsOf(raw: unknown): string[] {
  try {
    parseSuite(raw, 'test.yaml');
  } catch (error) {
    expect(error).toBeInstanceOf(SuiteError);
    expect((error as Error).message).toMatch(/^The suite test\.yaml is not valid:/);
    return [...(error as SuiteError).problems];
  }
  throw new Error('expected the suite to be refused');
}

describe('parseSuite', () => {
  it('reads built-in and custom tasks with every validator kind', () => {
    const suite = parseSuite(
      {
        name: 'mine',
        modes: ['react', 'code'],
        trials: 3,
        settings: { maxSteps: 5 },
        tasks: [
          { builtin: 'calc' },
          { id: 'a', text: 'Say hi', validator: { exact: 'hi' } },
          { id: 'b', text: 'x', fixture: 'files', validator: { regex: '^h', flags: 'i' } },
          { id: 'c', text: 'x', validator: { number: 3, tolerance: 0.1 } },
          { id: 'd', text: 'x', validator: { jsonPath: '$.a[0].b', equals: { c: 1 } } },
          { id: 'e', text: 'x', validator: { js: 'answer.length > 2' } },
          { id: 'f', text: 'x' },
        ],
      },
      'x',
    );
    expect(suite.modes).toEqual(['react', 'code']);
    expect(suite.trials).toBe(3);
    expect(suite.tasks.map((t) => t.id)).toEqual(['calc', 'a', 'b', 'c', 'd', 'e', 'f']);
    expect(suite.tasks[2]).toMatchObject({ kind: 'custom', fixture: 'files', validator: { regex: '^h', flags: 'i' } });
    expect(suite.tasks[6]).toMatchObject({ validator: null, fixture: null });
  });

  it('names the task index and field, and says what to write', () => {
    const problems = problemsOf({
      name: 'bad',
      modes: ['react', 'nope'],
      trials: 11,
      settings: { maxSteps: 0 },
      tasks: [
        { builtin: 'no-such-task' },
        { id: 'a', text: '' },
        { id: 'b', text: 'x', validator: { exact: 'y', regex: 'z' } },
        { id: 'c', text: 'x', validator: { regex: '(' } },
        { id: 'd', text: 'x', validator: {} },
        { id: 'e', text: 'x', validator: { number: 'ten' } },
        { id: 'f', text: 'x', validator: { jsonPath: 'a b', equals: 1 } },
        { id: 'a', text: 'again', colour: 'red' },
        'calc',
      ],
    });
    const text = problems.join('\n');
    expect(problems.length).toBeGreaterThanOrEqual(1);
    // The head is checked first: trials is reported before the tasks.
    expect(text).toMatch(/^trials: /);
    const second = problemsOf({
      name: 'bad',
      modes: ['react', 'nope'],
      settings: { maxSteps: 0 },
      tasks: [
        { builtin: 'no-such-task' },
        { id: 'a', text: '' },
        { id: 'b', text: 'x', validator: { exact: 'y', regex: 'z' } },
        { id: 'c', text: 'x', validator: { regex: '(' } },
        { id: 'd', text: 'x', validator: {} },
        { id: 'e', text: 'x', validator: { number: 'ten' } },
        { id: 'f', text: 'x', validator: { jsonPath: 'a b', equals: 1 } },
        { id: 'g', text: 'again', colour: 'red' },
        { id: 'b', text: 'twice' },
        'calc',
      ],
    }).join('\n');
    expect(second).toContain('modes[1]: "nope" is not a mode; use react');
    expect(second).toMatch(/settings\.maxSteps: /);
    expect(second).toContain(
      `tasks[0].builtin: is not a built-in task; use one of ${BUILTIN_TASKS.map((t) => t.id).join(', ')}`,
    );
    expect(second).toContain('tasks[1].text: is the task given to every mode');
    expect(second).toContain('tasks[2] (b).validator: has exact and regex: keep one');
    expect(second).toContain('tasks[3] (c).validator.regex: is not a valid regular expression');
    expect(second).toMatch(
      /tasks\[4\] \(d\)\.validator: needs one of exact, regex, number, jsonPath or js, e\.g\. \{exact: /,
    );
    expect(second).toMatch(/tasks\[5\] \(e\)\.validator\.number: /);
    expect(second).toContain('tasks[6] (f).validator.jsonPath: must be a path like $.items[0].name');
    expect(second).toContain('tasks[7]: unknown field colour');
    expect(second).toContain('tasks[8]: the task id "b" is used twice');
    expect(second).toContain('tasks[9]: must be {builtin: "<task id>"} or {id, text, fixture?, validator?}');
  });

  it('refuses a file without name or tasks', () => {
    expect(problemsOf({ tasks: [] }).join('\n')).toMatch(/name: .*\n?.*tasks: lists at least one task/s);
    expect(problemsOf(null)[0]).toMatch(/^suite: /);
  });

  it('the built-in suite lists every built-in task', () => {
    expect(builtinSuite().tasks.map((t) => t.id)).toEqual(BUILTIN_TASKS.map((t) => t.id));
  });
});

describe('the built-in history suite', () => {
  it('runs ReAct under full, window:2, clear-results:2 and summarize:3 (and clear-results:4) beside Code Mode, on every built-in task, 3 trials', () => {
    const suite = historySuite();
    expect(HISTORY_SUITE_SETTINGS).toEqual(
      expect.arrayContaining(['full', 'window:2', 'clear-results:2', 'summarize:3']),
    );
    for (const h of HISTORY_SUITE_SETTINGS) {
      expect(historyError(h)).toBeNull();
      expect(KNOBS.toolHistory.values).toContain(h);
    }
    expect(suite.trials).toBe(3);
    expect(suite.tasks.map((t) => `${t.kind}:${t.id}`)).toEqual(BUILTIN_TASKS.map((t) => `builtin:${t.id}`));
    const columns = resolveColumns(suite.variants!, {
      provider: 'simulated',
      model: 'sim',
      settings: parseSettings({}),
    });
    expect(columns).toHaveLength(HISTORY_SUITE_SETTINGS.length + 1);
    expect(columns.filter((c) => c.mode === 'react')).toHaveLength(HISTORY_SUITE_SETTINGS.length);
    expect(columns.at(-1)!.mode).toBe('code');
    // Each column is told apart by what differs: its history setting.
    expect(new Set(columns.map((c) => c.label)).size).toBe(columns.length);
    expect(columns.find((c) => c.label.includes('summarize:3'))).toBeDefined();
  });
});
