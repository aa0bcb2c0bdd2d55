/** weather-f: two dependent calls (get_weather, then calculator), judged against the demo weather table. */
import type { Validation } from '../../../shared/step-event.js';
import { weatherFor } from '../../engine/tools/get-weather.js';
import { searchWeather } from '../../sim/policies/react-search.js';
import { codeWeather, reactWeather } from '../../sim/policies/weather-calc.js';
import { defineTask } from '../task.js';

export const weatherF = defineTask({
  id: 'weather-f',
  validate: (answer) => validateWeather(answer),
  sim: {
    detect: (text) => {
      if (!/\btemperature\b/i.test(text) || !/fahrenheit/i.test(text)) return null;
      return { city: /\bin ([A-Z][\p{L}.'-]*(?: [A-Z][\p{L}.'-]*)*)/u.exec(text)?.[1] ?? 'Beijing' };
    },
    react: (conv, p) => reactWeather(conv, p.city),
    code: (conv, p) => codeWeather(conv, p.city),
    modes: { 'react-search': (conv, p) => searchWeather(conv, p.city) },
  },
});

function decimalsOf(n: string): number {
  return n.includes('.') ? n.split('.')[1].length : 0;
}

/** True when `written` is `value` rounded to the precision it was written with (69.8 → "70" or "69.8"). */
function matchesRounded(written: string, value: number): boolean {
  const d = decimalsOf(written);
  return Math.abs(Number(written) - Number(value.toFixed(d))) < 1e-9;
}

function validateWeather(answer: string): Validation {
  const w = weatherFor('Beijing');
  const f = (w.tempC * 9) / 5 + 32;
  // Prefer numbers marked as Fahrenheit; fall back to every number when none is marked.
  const marked = [...answer.matchAll(/(-?\d+(?:\.\d+)?)\s*(?:°|º|degrees?\s*)?\s*(?:F\b|Fahrenheit)/gi)].map(
    (m) => m[1],
  );
  const candidates = marked.length > 0 ? marked : [...answer.matchAll(/-?\d+(?:\.\d+)?/g)].map((m) => m[0]);
  const ok = candidates.some((c) => matchesRounded(c, f));
  const expected = `${Number(f.toFixed(2))} °F (Beijing ${w.tempC} °C, demo data)`;
  return {
    ok,
    detail: `Expected ${expected}; found ${candidates.length ? candidates.join(', ') : 'no number'}${marked.length ? ' marked °F' : ''}.`,
  };
}
