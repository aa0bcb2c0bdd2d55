import { describe, expect, it } from 'vitest';
import { limitSuite, namesTaskSet, taskSetSuite } from '../../shared/task-set-suites.js';

describe('task sets as suites', () => {
  it("runs the whole set in its order with the paper's modes", () => {
    const s = taskSetSuite('m3tooleval');
    expect(s).toMatchObject({ name: 'm3tooleval', taskSet: 'm3tooleval', modes: ['react-text', 'react', 'code-py'] });
    expect(s.tasks).toHaveLength(82);
    expect(s.tasks[0]).toMatchObject({ kind: 'builtin', id: 'm3tooleval/message_decoder/full_alien_message_decoding' });
    expect(s.tasks[81].id).toBe('m3tooleval/web_browsing/match_phone_number_to_person_mike_allen');
  });

  it("chooses domains, one or several, keeping the set's order", () => {
    expect(taskSetSuite('m3tooleval:dna_sequencer').tasks.map((t) => t.id.split('/')[1])).toEqual(
      Array(8).fill('dna_sequencer'),
    );
    const two = taskSetSuite('m3tooleval:web_browsing,dna_sequencer');
    expect(two.name).toBe('m3tooleval:web_browsing,dna_sequencer');
    expect(two.tasks).toHaveLength(42);
    expect(two.tasks[0].id).toMatch(/^m3tooleval\/dna_sequencer\//);
  });

  it("names the domains when one is not the set's", () => {
    expect(() => taskSetSuite('m3tooleval:dna')).toThrow(
      /m3tooleval:dna names "dna", which is not a domain of m3tooleval\. Its domains: message_decoder, dna_sequencer, trade_calculator, travel_itinerary_planning, web_browsing/,
    );
    expect(() => taskSetSuite('m3tooleval:')).toThrow(/names no domain/);
    expect(namesTaskSet('m3tooleval:dna_sequencer')).toBe(true);
    expect(namesTaskSet('builtin')).toBe(false);
  });

  it('--limit keeps the first tasks, and refuses what is not a count', () => {
    expect(limitSuite(taskSetSuite('m3tooleval:trade_calculator'), 3).tasks.map((t) => t.id.split('/')[2])).toEqual([
      'estimate_final_value',
      'interstellar_trade_transaction',
      'taxed_commodity_export',
    ]);
    expect(() => limitSuite(taskSetSuite('m3tooleval'), 0)).toThrow(
      /--limit takes a whole number of tasks from 1 up; got "0"/,
    );
    expect(() => limitSuite(taskSetSuite('m3tooleval'), 'five')).toThrow(/got "five"/);
    expect(limitSuite(taskSetSuite('m3tooleval'), '5').tasks).toHaveLength(5);
  });
});
