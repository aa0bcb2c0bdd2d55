/** Rounds at once: the rule of the CLI, the composer and the host; the default; the reports' line. */
import { describe, expect, it } from 'vitest';
import {
  checkConcurrency,
  concurrencyCap,
  concurrencyNote,
  defaultConcurrency,
  MAX_CONCURRENCY,
  strictestProvider,
} from '../../shared/concurrency.js';
import { INITIAL_FORM } from '../../renderer/store/composer-slice.js';
import { buildRequest } from '../../renderer/store/composer-model.js';

describe('concurrency', () => {
  it('a comparison of several providers is paced by the strictest: a real one before the simulated model, then the lowest cap', () => {
    const sim = { name: 'simulated', simulated: true };
    const openai = { name: 'openai', simulated: false };
    const groq = { name: 'groq', simulated: false };
    expect(strictestProvider([sim])).toBe(sim);
    expect(strictestProvider([sim, openai])).toBe(openai);
    expect(strictestProvider([openai, sim, groq])).toBe(groq);
    // A preset pointed at the simulated model (the CLI's offline check of its protocol) is paced as simulated.
    expect(strictestProvider([{ name: 'groq', simulated: true }, openai])).toBe(openai);
  });

  it('defaults to one round per two cores on the simulated model and to 1 on a real provider', () => {
    expect([1, 2, 3, 8, 64].map((cores) => defaultConcurrency(true, cores))).toEqual([1, 1, 1, 4, MAX_CONCURRENCY]);
    expect(defaultConcurrency(false, 64)).toBe(1);
  });

  it('is capped per provider, with the reason in words', () => {
    expect(concurrencyCap('simulated')).toBe(MAX_CONCURRENCY);
    expect(concurrencyCap('openai')).toBe(8);
    expect(concurrencyCap('ollama')).toBe(2);
    expect(concurrencyCap('custom')).toBe(4);
    expect(checkConcurrency('3', 'openai')).toEqual({ concurrency: 3, error: null });
    expect(checkConcurrency('9', 'openai').error).toBe('At most 8 rounds at once for OpenAI.');
    expect(checkConcurrency('17', 'simulated').error).toBe('At most 16 rounds at once for the simulated model.');
    expect(checkConcurrency('0', 'simulated').error).toBe('Must be at least 1.');
    expect(checkConcurrency('2.5', 'simulated').error).toBe('Must be a whole number from 1 to 16.');
  });

  it('gives the reports one line when rounds ran side by side, with what throttled them', () => {
    expect(concurrencyNote(undefined, undefined)).toBeNull();
    expect(concurrencyNote(1, undefined)).toBeNull();
    expect(concurrencyNote(4, ['The provider answered 429.'])).toBe(
      'Rounds ran up to 4 at a time, sharing the cores: latency figures include that contention (token counts do not). Throttled: The provider answered 429.',
    );
  });

  it("goes into the composer's request only with several rounds, checked at the field", () => {
    expect(buildRequest({ ...INITIAL_FORM, trials: '3', concurrency: '2' }).request?.concurrency).toBe(2);
    expect(buildRequest({ ...INITIAL_FORM, trials: '3', concurrency: '' }).request).not.toHaveProperty('concurrency');
    expect(buildRequest({ ...INITIAL_FORM, trials: '1', concurrency: '2' }).request).not.toHaveProperty('concurrency');
    const bad = buildRequest({ ...INITIAL_FORM, trials: '3', concurrency: '40' });
    expect(bad.request).toBeNull();
    expect(bad.errors.concurrency).toBe('At most 16 rounds at once for the simulated model.');
  });
});
