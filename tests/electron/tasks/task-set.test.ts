/** A task set's exact-match judge: what normalisation forgives, and what it does not. */
import { describe, expect, it } from 'vitest';
import { defineDomain, defineTaskSet, exactMatch, normaliseAnswer } from '../../../electron/tasks/task-set.js';
import { SIM_LABEL } from '../../../electron/sim/policies/common.js';

const sim = { react: () => ({ kind: 'text', text: '' }) as const, code: () => ({ kind: 'text', text: '' }) as const };

describe('normaliseAnswer', () => {
  it('drops the label, "Answer:", quotes, bold, a final full stop and extra spacing, and keeps case', () => {
    expect(normaliseAnswer(`olleH\n\n${SIM_LABEL}`)).toBe('olleH');
    expect(normaliseAnswer('Final Answer:  "backward".')).toBe('backward');
    expect(normaliseAnswer('Answer: **`42`**')).toBe('42');
    expect(normaliseAnswer('  two\n words ')).toBe('two words');
    expect(normaliseAnswer('Hello')).not.toBe(normaliseAnswer('hello'));
  });
});

describe('exactMatch', () => {
  it('compares numbers as numbers, lists item by item, and text exactly', () => {
    expect(exactMatch('12.0', { expected: 12 }).ok).toBe(true);
    expect(exactMatch('1,234', { expected: 1234 }).ok).toBe(true);
    expect(exactMatch('12 apples', { expected: 12 }).ok).toBe(false);
    expect(exactMatch("['a', 'b', 3]", { expected: ['a', 'b', 3] }).ok).toBe(true);
    expect(exactMatch('a, b, 3', { expected: ['a', 'b', 3] }).ok).toBe(true);
    expect(exactMatch("['a', 'b']", { expected: ['a', 'b', 3] }).ok).toBe(false);
    expect(exactMatch('The answer is backward', { expected: 'backward' })).toEqual({
      ok: false,
      detail:
        'Expected exactly backward; found The answer is backward (compared after trimming quotes, "Answer:" and spacing).',
    });
  });
});

describe('defineTaskSet', () => {
  it('knows each task by its instruction, wrapped or re-spaced, and refuses an id given twice', () => {
    const domain = defineDomain({
      tasks: [{ id: 'a', instruction: 'Reverse  the text.', expected: 'x' }],
      tools: () => [],
      sim,
    });
    const [task] = defineTaskSet(domain);
    expect(task.simMatch('Task: Reverse the\ntext. Begin.')?.params).toEqual({
      id: 'a',
      instruction: 'Reverse  the text.',
      expected: 'x',
    });
    expect(task.simMatch('Reverse the words.')).toBeNull();
    expect(() => defineTaskSet(domain, domain)).toThrow(/names a more than once/);
  });
});
