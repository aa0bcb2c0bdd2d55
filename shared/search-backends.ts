/**
 * Where web_search looks things up, one description each (composer, CLI help, settings errors, reports).
 * 'off' offers no web_search tool to free-text tasks; the built-in web-lookup task always searches its own
 * offline index, because its facts exist nowhere else.
 */
export interface SearchBackendDescription {
  readonly label: string;
  /** What the backend is, in one line, with what the user must set up. */
  readonly about: string;
  /** The URL searched when the user gives none (null: the user must give one, or none is used). */
  readonly defaultUrl: string | null;
  /** Environment variable the CLI reads the key from (null: no key). */
  readonly keyEnv: string | null;
}

export const SEARCH_BACKENDS = {
  off: {
    label: 'Off',
    about: 'No web_search tool (the built-in web-lookup task still searches its offline index).',
    defaultUrl: null,
    keyEnv: null,
  },
  searxng: {
    label: 'SearXNG',
    about: 'A SearXNG instance you run, through its JSON API (enable "json" under search.formats in its settings.yml).',
    defaultUrl: 'http://127.0.0.1:8888',
    keyEnv: null,
  },
  brave: {
    label: 'Brave Search API',
    about: 'Brave Search API web results; needs a subscription token (BRAVE_API_KEY).',
    defaultUrl: 'https://api.search.brave.com/res/v1',
    keyEnv: 'BRAVE_API_KEY',
  },
  tavily: {
    label: 'Tavily',
    about: 'Tavily search API; needs an API key (TAVILY_API_KEY).',
    defaultUrl: 'https://api.tavily.com',
    keyEnv: 'TAVILY_API_KEY',
  },
  fixture: {
    label: 'Offline index',
    about: 'The small local index served beside the task fixtures: what the simulated model and the tests search.',
    defaultUrl: null,
    keyEnv: null,
  },
} as const satisfies Record<string, SearchBackendDescription>;

export type SearchBackendId = keyof typeof SEARCH_BACKENDS;

export const SEARCH_BACKEND_IDS = Object.keys(SEARCH_BACKENDS) as [SearchBackendId, ...SearchBackendId[]];

/** Environment variables that hold a search backend's key: never passed to a worker's environment. */
export const SEARCH_KEY_ENVS: readonly string[] = Object.values(SEARCH_BACKENDS)
  .map((b: SearchBackendDescription) => b.keyEnv)
  .filter((k): k is string => k !== null);

/** Most results one web_search call returns. */
export const MAX_SEARCH_RESULTS = 10;

/** The name a search backend's key is stored under beside the provider keys (keys:set, keys:status). */
export const searchKeyName = (id: SearchBackendId): string => `search:${id}`;

/** The backend a stored key name belongs to, if it is a search backend's that takes a key. */
export function searchBackendOfKey(name: string): SearchBackendId | null {
  const id = name.startsWith('search:') ? name.slice('search:'.length) : '';
  return Object.hasOwn(SEARCH_BACKENDS, id) && SEARCH_BACKENDS[id as SearchBackendId].keyEnv
    ? (id as SearchBackendId)
    : null;
}
