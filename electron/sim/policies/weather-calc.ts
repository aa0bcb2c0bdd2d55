/**
 * weather-f: ReAct calls get_weather, then calculator with "<c> * 9 / 5 + 32", then answers; ReAct + tool
 * search looks for each tool just before it needs it. Code Mode finds get_weather with search_tools and
 * converts in JS (with return types hidden it first prints the object to see its fields). calc: ReAct calls
 * calculator; Code Mode computes in JS, as models usually do.
 */
import { lines, programsFor } from './programs.js';
import { callTools, type SimReply } from '../types.js';
import { finalAnswer, missingTools, programOutput, returnTypesShown } from './common.js';
import { firstLine, jsonResult, lastCall, objectResult, type Conversation } from './conversation.js';

const round1 = (n: number): number => Math.round(n * 10) / 10;

function weatherAnswer(w: Record<string, unknown>, f: number): SimReply {
  const demo = w.demo === true ? ' (demo data, not a real reading)' : '';
  const c = w.tempC as number;
  return finalAnswer([
    `It is ${c} °C in ${String(w.city)}${typeof w.condition === 'string' ? `, ${w.condition}` : ''}${demo}.`,
    `In Fahrenheit: ${c} × 9/5 + 32 = ${round1(f)} °F.`,
  ]);
}

const hasTemp = (w: Record<string, unknown> | undefined): w is Record<string, unknown> => typeof w?.tempC === 'number';

/**
 * A reply that makes `name` callable first (a search), or null when it already is. ReAct has no way to get
 * a tool it was not given, so its check runs up front for both tools.
 */
export type NeedTool = (name: string) => SimReply | null;

export function reactWeather(conv: Conversation, city: string, need?: NeedTool): SimReply {
  if (!need) {
    const missing = missingTools(conv, ['get_weather', 'calculator']);
    if (missing) return missing;
  }
  const needWeather = need?.('get_weather');
  if (needWeather) return needWeather;
  const weather = lastCall(conv, 'get_weather');
  if (!weather) return callTools([{ name: 'get_weather', args: { city } }]);
  const w = objectResult(weather.result);
  if (!hasTemp(w))
    return finalAnswer([`I could not get the weather for ${city}: ${firstLine(weather.result ?? 'no result')}`]);
  // The calculator is looked for only once there is a reading to convert.
  const needCalc = need?.('calculator');
  if (needCalc) return needCalc;
  const expression = `${w.tempC} * 9 / 5 + 32`;
  const calc = lastCall(conv, 'calculator', (a) => a.expression === expression);
  if (!calc) return callTools([{ name: 'calculator', args: { expression } }]);
  const f = jsonResult(calc.result);
  if (typeof f !== 'number') return finalAnswer([`The conversion failed: ${firstLine(calc.result ?? 'no result')}`]);
  return weatherAnswer(w, f);
}

const WEATHER_QUERY = 'weather temperature for a city';

export function codeWeather(conv: Conversation, city: string): SimReply {
  const programs = conv.calls.filter((c) => c.name === 'run_code');
  const p = programsFor(conv);
  const find = p.find('weather', WEATHER_QUERY);
  if (programs.length === 0) {
    const code = returnTypesShown(conv) ? lines(find, p.weatherF(city)) : lines(find, p.printCall('weather', city));
    return callTools([{ name: 'run_code', args: { code } }]);
  }
  let w: Record<string, unknown> | undefined;
  let f: number | undefined;
  for (const program of programs) {
    for (const line of programOutput(program.result).printed.split('\n')) {
      const obj = line.startsWith('{') ? objectResult(line) : undefined;
      if (hasTemp(obj)) w = obj;
      const m = /^fahrenheit: (-?[\d.]+)$/.exec(line);
      if (m) f = Number(m[1]);
    }
  }
  if (w && f !== undefined) return weatherAnswer(w, f);
  const last = programOutput(programs[programs.length - 1].result);
  if (w && programs.length < 3) {
    // Now the fields are known: convert in code rather than in my head.
    return callTools([{ name: 'run_code', args: { code: lines(find, p.weatherF(city)) } }]);
  }
  return finalAnswer([
    `I could not get the temperature: ${firstLine(last.error ?? (last.printed || 'the program printed nothing'))}`,
  ]);
}

export function reactCalc(conv: Conversation, expression: string): SimReply {
  const missing = missingTools(conv, ['calculator']);
  if (missing) return missing;
  const calc = lastCall(conv, 'calculator');
  if (!calc) return callTools([{ name: 'calculator', args: { expression } }]);
  const value = jsonResult(calc.result);
  if (typeof value !== 'number')
    return finalAnswer([`The calculator failed: ${firstLine(calc.result ?? 'no result')}`]);
  return finalAnswer([`${expression} = ${value}`]);
}

export function codeCalc(conv: Conversation, expression: string): SimReply {
  const program = lastCall(conv, 'run_code');
  if (!program) return callTools([{ name: 'run_code', args: { code: programsFor(conv).printValue(expression) } }]);
  const out = programOutput(program.result);
  if (out.error) return finalAnswer([`My program failed: ${firstLine(out.error)}`]);
  const printed = out.printed.trim();
  if (!/^-?\d+(\.\d+)?(e[+-]?\d+)?$/i.test(printed)) {
    return finalAnswer([
      `${expression} has no finite numeric result: my program printed ${firstLine(printed || 'nothing')}.`,
    ]);
  }
  return finalAnswer([`${expression} = ${printed}`]);
}
