/**
 * ReAct + tool search: the ReAct policies, preceded by search_tools calls for the tools the first request did
 * not offer. Tools needed together are searched together (parallel calls in one step); a tool still missing
 * after its search ends the run with an answer that quotes the search, so nothing loops.
 */
import type { SimReply } from '../types.js';
import { callTools } from '../types.js';
import { finalAnswer, missingTools } from './common.js';
import { firstLine, lastCall, type Conversation } from './conversation.js';
import { reactLogStats } from './log-stats.js';
import { reactTimeAndTitle, type TimeTitleParams } from './time-and-title.js';
import { reactCalc, reactWeather } from './weather-calc.js';

export const SEARCH_TOOLS = 'search_tools';

/** The keywords a model would type for each hidden tool: what it does, in plain words. */
export const SEARCH_QUERIES: Readonly<Record<string, string>> = {
  current_time: 'time in a timezone',
  fetch_url: 'download web page',
  get_weather: 'weather temperature for a city',
  calculator: 'arithmetic calculator',
  convert_currency: 'convert money to another currency',
  city_distance: 'distance between two cities',
  web_search: 'search the web',
};

/** Search for every needed tool not offered yet, in one step; null once all are offered. */
export function findTools(conv: Conversation, names: readonly string[]): SimReply | null {
  const missing = names.filter((n) => !conv.toolNames.has(n));
  if (missing.length === 0) return null;
  if (!conv.toolNames.has(SEARCH_TOOLS)) return missingTools(conv, missing);
  const searched = missing
    .map((name) => ({ name, call: lastCall(conv, SEARCH_TOOLS, (a) => a.query === SEARCH_QUERIES[name]) }))
    .filter((s) => s.call !== undefined);
  if (searched.length > 0) {
    return finalAnswer([
      'I could not find the tools this task needs:',
      ...searched.map((s) => `- ${s.name}: search_tools("${SEARCH_QUERIES[s.name]}") answered: ${firstLine(s.call!.result ?? 'no result')}`),
    ]);
  }
  return callTools(missing.map((name) => ({ name: SEARCH_TOOLS, args: { query: SEARCH_QUERIES[name] ?? name.replace(/_/g, ' ') } })));
}

/** list_dir and read_file are offered from the start: no search, only a shorter tool list than ReAct's. */
export function searchLogStats(conv: Conversation): SimReply {
  return reactLogStats(conv);
}

export function searchTimeAndTitle(conv: Conversation, params: TimeTitleParams): SimReply {
  return findTools(conv, ['current_time', 'fetch_url']) ?? reactTimeAndTitle(conv, params);
}

export function searchWeather(conv: Conversation, city: string): SimReply {
  return reactWeather(conv, city, (name) => findTools(conv, [name]));
}

export function searchCalc(conv: Conversation, expression: string): SimReply {
  return findTools(conv, ['calculator']) ?? reactCalc(conv, expression);
}
