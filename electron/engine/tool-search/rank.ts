/**
 * The ranking behind search_tools: lexical search over tool names, descriptions and parameter names with BM25
 * (minisearch), over plain documents so that it can run in the compute thread. Names are split on `_` and
 * camelCase so `fetch_url` is found by "fetch" and "url"; common English words are dropped so "read a text
 * file" is decided by "read", "text", "file"; an exact name match ("fetch_url", "fetchUrl", "fetch url") is
 * always placed first.
 */
import MiniSearch from 'minisearch';

/** Words that say nothing about which tool is meant ("get" starts too many names to tell them apart). */
const STOP_WORDS = new Set(
  (
    'a an and are as at be by can could do does for from get give how i in into is it its me my of on or please ' +
    'show so some tell that the their them there these this to us use using want was we what when where which ' +
    'who whose why will with would you your tool tools function'
  ).split(' '),
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

/** What the index knows of a tool: plain data, so the ranking can run in another thread. */
export interface ToolDoc {
  readonly id: string;
  readonly name: string;
  readonly description: string;
  readonly params: string;
}

/** Longest query searched: a few keywords are what it takes; a 10 MB "query" would only burn memory and time. */
export const MAX_QUERY_CHARS = 500;

/** null when the query can be searched, else the message saying why not. */
export function queryProblem(query: string): string | null {
  if (query.length <= MAX_QUERY_CHARS) return null;
  return `search_tools takes a few English keywords (at most ${MAX_QUERY_CHARS} characters); this query has ${query.length}. Search again with a short description of the tool you need, e.g. "download web page".`;
}

const FIELD_BOOST = { name: 3, params: 1.5, description: 1 };

const indexCache = new Map<string, MiniSearch<ToolDoc>>();

function indexOf(docs: readonly ToolDoc[]): MiniSearch<ToolDoc> {
  const key = docs.map((d) => `${d.name}\u0000${d.description}\u0000${d.params}`).join('\u0001');
  const cached = indexCache.get(key);
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
  index.addAll(docs);
  indexCache.set(key, index);
  return index;
}

const round = (n: number): number => Math.round(n * 1000) / 1000;

export interface RankedName {
  readonly name: string;
  readonly score: number;
}

/**
 * Up to `limit` tool names for `query`, best first: the ranking alone, over plain documents (this is what the
 * compute thread runs). A blank query lists the tools in their given order (score 0). An exact name match comes
 * first with a score one above the best other hit. No match → [].
 */
export function rankDocs(query: string, docs: readonly ToolDoc[], limit = 5): RankedName[] {
  const max = Math.max(0, Math.floor(limit));
  const text = typeof query === 'string' ? query.trim() : '';
  if (text === '') return docs.slice(0, max).map((d) => ({ name: d.name, score: 0 }));
  const ranked: RankedName[] = indexOf(docs)
    .search(text)
    .map((r) => ({ name: String(r.id), score: r.score }));
  const exact = docs.find((d) => squash(d.name) === squash(text));
  if (exact) {
    const others = ranked.filter((r) => r.name !== exact.name);
    const top = others.length > 0 ? others[0].score : 0;
    const own = ranked.find((r) => r.name === exact.name)?.score ?? 0;
    ranked.splice(0, ranked.length, { name: exact.name, score: Math.max(own, top + 1) }, ...others);
  }
  return ranked.slice(0, max).map((r) => ({ name: r.name, score: round(r.score) }));
}
