/**
 * ReAct + tool search: the ReAct policies, preceded by search_tools calls for the tools the first request did
 * not offer. Tools needed together are searched together (parallel calls in one step); a tool still missing
 * after its search ends the run with an answer that quotes the search, so nothing loops.
 */
import type { SimReply } from '../types.js';
import { callTools } from '../types.js';
import { finalAnswer, missingTools } from './common.js';
import { firstLine, lastCall, type Conversation } from './conversation.js';
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

/**
 * The searches a model tries for a tool, in order: what it does, then (when that found nothing, as with vague
 * descriptions, which leave only names to match) the name it likely has.
 */
const queriesFor = (name: string): readonly string[] => [
  SEARCH_QUERIES[name] ?? name.replace(/_/g, ' '),
  name.replace(/_/g, ' '),
];

/** Search for every needed tool not offered yet, in one step; null once all are offered. */
export function findTools(conv: Conversation, names: readonly string[]): SimReply | null {
  const missing = names.filter((n) => !conv.toolNames.has(n));
  if (missing.length === 0) return null;
  if (!conv.toolNames.has(SEARCH_TOOLS)) return missingTools(conv, missing);
  const next = missing.map((name) => ({
    name,
    query: queriesFor(name).find((q) => !lastCall(conv, SEARCH_TOOLS, (a) => a.query === q)),
  }));
  const exhausted = next.filter((n) => n.query === undefined);
  if (exhausted.length > 0) {
    return finalAnswer([
      'I could not find the tools this task needs:',
      ...exhausted.map((s) => {
        const query = queriesFor(s.name).at(-1)!;
        return `- ${s.name}: search_tools("${query}") answered: ${firstLine(lastCall(conv, SEARCH_TOOLS, (a) => a.query === query)?.result ?? 'no result')}`;
      }),
    ]);
  }
  return callTools(next.map((n) => ({ name: SEARCH_TOOLS, args: { query: n.query! } })));
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
