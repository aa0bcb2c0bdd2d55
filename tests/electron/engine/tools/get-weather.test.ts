import { describe, expect, it } from 'vitest';
import { findTool, invokeTool } from '../../../../electron/engine/tools/index.js';
import { weatherFor } from '../../../../electron/engine/tools/get-weather.js';
import { contextFor } from './helpers.js';

describe('get_weather', () => {
  it('returns the fixed demo reading for a known city, whatever the spelling', async () => {
    const result = await invokeTool(findTool('get_weather')!, { city: '  beijing ' }, contextFor(process.cwd()));
    expect(result).toEqual({ city: 'Beijing', tempC: 22, condition: 'sunny', demo: true });
    expect(weatherFor('NEW   YORK').city).toBe('New York');
  });

  it('makes up stable, plausible readings for other cities', () => {
    const cities = ['Reykjavik', 'Lagos', 'Lima', 'Ulaanbaatar', 'Perth', 'Oslo', 'Quito', 'Hanoi'];
    const first = cities.map(weatherFor);
    expect(cities.map(weatherFor)).toEqual(first);
    expect(weatherFor('reykjavik')).toEqual({ ...first[0], city: 'reykjavik' });
    for (const w of first) {
      expect(w.demo).toBe(true);
      expect(Number.isInteger(w.tempC) && w.tempC >= -10 && w.tempC <= 35).toBe(true);
    }
    // Not one constant reading for everything.
    expect(new Set(first.map((w) => `${w.tempC}/${w.condition}`)).size).toBeGreaterThan(3);
  });

  it('says it is demo data in its description and refuses an empty city', () => {
    expect(findTool('get_weather')!.description).toContain('DEMO DATA');
    expect(() => weatherFor(' ')).toThrow('The city is empty');
  });
});
