import { describe, expect, it } from 'vitest';
import { closestName, parseSettings, unknownSettingsMessage } from '../../shared/run-spec.js';
import { parseSuite } from '../../shared/suite.js';
import { priceUsage } from '../../shared/cost.js';
import type { ModelPrice } from '../../shared/step-event.js';

describe('unknown settings keys', () => {
  it('are refused with the valid keys and the nearest name, not dropped for the default', () => {
    expect(() => parseSettings({ maxStep: 1 })).toThrow(
      /Unknown key in settings: "maxStep" \(did you mean "maxSteps"\?\)\. Valid settings: /,
    );
    expect(() => parseSettings({ maxSteps: 1, tempreature: 0.2, zzzzzz: 1 })).toThrow(
      /"tempreature" \(did you mean "temperature"\?\), "zzzzzz"\. Valid/,
    );
    expect(parseSettings({ maxSteps: 3 }).maxSteps).toBe(3);
    expect(unknownSettingsMessage({ maxSteps: 3 })).toBeNull();
  });

  it('in a suite file too', () => {
    expect(() => parseSuite({ name: 's', tasks: [{ id: 'calc' }], settings: { maxStpes: 2 } }, 'suite.json')).toThrow(
      /"maxStpes" \(did you mean "maxSteps"\?\)/,
    );
  });

  it('closestName suggests only a near name', () => {
    expect(closestName('log-stat', ['log-stats', 'calc'])).toBe('log-stats');
    expect(closestName('weather', ['log-stats', 'calc'])).toBeNull();
  });
});

describe('priceUsage with cache lifetimes and server searches', () => {
  const p: ModelPrice = {
    model: 'claude-sonnet-4-5',
    input: 3,
    cachedInput: 0.3,
    cacheWrite: 3.75,
    cacheWrite1h: 6,
    webSearch: 10,
    output: 15,
    tableDate: '2026-12-01',
  };
  it('prices 1-hour writes at their rate and each search per 1,000', () => {
    const u = { prompt: 1540, completion: 60, cached: 0, cacheWrite: 1500, cacheWrite1h: 1000, webSearches: 1 };
    const want = (40 * 3 + 500 * 3.75 + 1000 * 6 + 60 * 15) / 1e6 + 10 / 1000;
    expect(priceUsage(u, p)).toBeCloseTo(want, 12);
    // Without the split every write is a 5-minute one: the 1-hour price is what makes the difference.
    expect(priceUsage({ ...u, cacheWrite1h: undefined, webSearches: undefined }, p)).toBeCloseTo(
      (40 * 3 + 1500 * 3.75 + 60 * 15) / 1e6,
      12,
    );
  });
});
