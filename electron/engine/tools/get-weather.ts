import { z } from 'zod';
import { defineTool, ToolError } from './tool.js';

export interface Weather {
  readonly city: string;
  readonly tempC: number;
  readonly condition: string;
  /** Always true: the data is made up, stable per city, for demos and tests. */
  readonly demo: true;
}

const CONDITIONS = ['sunny', 'partly cloudy', 'cloudy', 'light rain', 'rain', 'windy', 'foggy', 'snow'] as const;

/** Fixed readings for well-known cities, so demo tasks have memorable answers. */
const KNOWN: Record<string, { city: string; tempC: number; condition: string }> = {
  beijing: { city: 'Beijing', tempC: 22, condition: 'sunny' },
  shanghai: { city: 'Shanghai', tempC: 25, condition: 'cloudy' },
  shenzhen: { city: 'Shenzhen', tempC: 29, condition: 'light rain' },
  tokyo: { city: 'Tokyo', tempC: 18, condition: 'partly cloudy' },
  london: { city: 'London', tempC: 12, condition: 'rain' },
  paris: { city: 'Paris', tempC: 15, condition: 'cloudy' },
  'new york': { city: 'New York', tempC: 10, condition: 'windy' },
  'san francisco': { city: 'San Francisco', tempC: 17, condition: 'foggy' },
  sydney: { city: 'Sydney', tempC: 24, condition: 'sunny' },
  moscow: { city: 'Moscow', tempC: -3, condition: 'snow' },
};

export const getWeather = defineTool({
  name: 'get_weather',
  description:
    'Get the current temperature (°C) and sky condition for a city. DEMO DATA: the values are made up ' +
    '(fixed per city), not a real forecast; returns {city, tempC, condition, demo: true}.',
  args: z.object({
    city: z.string().describe('City name in English, e.g. "Beijing".'),
  }),
  returns: '{city: string, tempC: number, condition: string, demo: true}',
  demo: true,
  async run({ city }): Promise<Weather> {
    return weatherFor(city);
  },
});

export function weatherFor(city: string): Weather {
  const key = city.trim().replace(/\s+/g, ' ').toLowerCase();
  if (key === '') throw new ToolError('The city is empty. Pass a city name, e.g. "Beijing".');
  const known = KNOWN[key];
  if (known) return { ...known, demo: true };
  const h = fnv1a(key);
  return {
    city: city.trim().replace(/\s+/g, ' '),
    tempC: (h % 46) - 10, // −10 … 35 °C
    condition: CONDITIONS[(h >>> 8) % CONDITIONS.length],
    demo: true,
  };
}

/** FNV-1a, 32-bit: a stable hash so an unknown city always gets the same made-up weather. */
function fnv1a(text: string): number {
  let h = 0x811c9dc5;
  for (const byte of new TextEncoder().encode(text)) {
    h ^= byte;
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h;
}
