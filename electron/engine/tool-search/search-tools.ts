/**
 * `search_tools(query)`: lexical search over tool names, descriptions and parameter names, ranked with BM25
 * (minisearch). Names are split on `_` and camelCase so `fetch_url` is found by "fetch" and "url"; common
 * English words are dropped so "read a text file" is decided by "read", "text", "file"; an exact name match
 * ("fetch_url", "fetchUrl", "fetch url") is always placed first.
 */
import MiniSearch from 'minisearch';
import type { SearchHit } from '../../../shared/step-event.js';
import { parameterNames, signatureOf, type ToolDefinition } from '../tools/tool.js';

/** Words that say nothing about which tool is meant ("get" starts too many names to tell them apart). */
const STOP_WORDS = new Set(
  ('a an and are as at be by can could do does for from get give how i in into is it its me my of on or please ' +
    'show so some tell that the their them there these this to us use using want was we what when where which ' +
    'who whose why will with would you your tool tools function')
    .split(' '),
);

/** `fetch_url` → fetch url; `currentTime` → current Time; `HTTPRequest` → HTTP Request. */
export function splitWords(text: string): string[] {
  return text
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1 $2')
    .split(/[^A-Za-z0-9]+/)
    .filter((w) => w.length > 0);
}

/** A light suffix stripper so "pages"/"page", "files"/"file", "downloading"/"download" meet. */
export function stem(word: string): string {
  let w = word;
  if (w.length > 4 && w.endsWith('ies')) return `${w.slice(0, -3)}y`;
  if (w.length > 5 && w.endsWith('ing')) w = w.slice(0, -3);
  else if (w.length > 4 && w.endsWith('ed')) w = w.slice(0, -2);
  else if (w.length > 3 && w.endsWith('s') && !/(ss|us|is)$/.test(w)) return w.slice(0, -1);
  else return w;
  // "running" → "runn" → "run"
  return /([b-df-hj-np-tv-z])\1$/.test(w) ? w.slice(0, -1) : w;
}

/** The index's term pipeline, shared by documents and queries. */
function processTerm(term: string): string | null {
  const lower = term.toLowerCase();
  if (STOP_WORDS.has(lower)) return null;
  return stem(lower);
}

/** `fetch_url`, `fetchUrl`, `Fetch URL` and `fetch-url` all normalise to `fetchurl`. */
function squash(text: string): string {
  return text.toLowerCase().replace(/[^a-z0-9]/g, '');
}

interface ToolDoc {
  readonly id: string;
  readonly name: string;
  readonly description: string;
  readonly params: string;
}

const FIELD_BOOST = { name: 3, params: 1.5, description: 1 };

const indexCache = new WeakMap<readonly ToolDefinition[], MiniSearch<ToolDoc>>();

function indexOf(tools: readonly ToolDefinition[]): MiniSearch<ToolDoc> {
  const cached = indexCache.get(tools);
  if (cached) return cached;
  const index = new MiniSearch<ToolDoc>({
    fields: ['name', 'description', 'params'],
    tokenize: splitWords,
    processTerm,
    searchOptions: {
      boost: FIELD_BOOST,
      combineWith: 'OR',
      // Prefix search helps "calc" find calculator; fuzzy only for long words, where a typo is likelier than a
      // different word.
      prefix: (term) => term.length >= 4,
      fuzzy: (term) => (term.length >= 6 ? 0.2 : false),
      weights: { prefix: 0.4, fuzzy: 0.3 },
    },
  });
  index.addAll(
    tools.map((tool) => ({
      id: tool.name,
      name: tool.name,
      description: tool.description,
      params: parameterNames(tool).join(' '),
    })),
  );
  indexCache.set(tools, index);
  return index;
}

const round = (n: number): number => Math.round(n * 1000) / 1000;

/**
 * Up to `limit` tools for `query`, best first. A blank query lists the tools in their given order (score 0).
 * An exact name match comes first with a score one above the best other hit. No match → [].
 */
export function searchTools(query: string, tools: readonly ToolDefinition[], limit = 5): SearchHit[] {
  const max = Math.max(0, Math.floor(limit));
  const hit = (tool: ToolDefinition, score: number): SearchHit => ({ name: tool.name, score: round(score), signature: signatureOf(tool, true) });
  const byName = new Map(tools.map((t) => [t.name, t]));
  const text = typeof query === 'string' ? query.trim() : '';
  if (text === '') return tools.slice(0, max).map((t) => hit(t, 0));

  const ranked = indexOf(tools)
    .search(text)
    .map((r) => ({ tool: byName.get(String(r.id)), score: r.score }))
    .filter((r): r is { tool: ToolDefinition; score: number } => r.tool !== undefined);

  const exact = tools.find((t) => squash(t.name) === squash(text));
  if (exact) {
    const others = ranked.filter((r) => r.tool !== exact);
    const top = others.length > 0 ? others[0].score : 0;
    const own = ranked.find((r) => r.tool === exact)?.score ?? 0;
    ranked.splice(0, ranked.length, { tool: exact, score: Math.max(own, top + 1) }, ...others);
  }
  return ranked.slice(0, max).map((r) => hit(r.tool, r.score));
}
