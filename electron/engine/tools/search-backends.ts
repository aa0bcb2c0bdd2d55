/**
 * web_search's backends: one request and one reader per service, all giving [{title, url, snippet}]. The
 * shapes are the services' documented ones: SearXNG's JSON API (`results[].{title, url, content}`), Brave's
 * web search (`web.results[].{title, url, description}`, highlights as <strong> tags) and Tavily's search
 * (`results[].{title, url, content, score}`, errors as `{detail: {error}}`). Every request goes through
 * fetch_url's guarded client: size and time caps, and no private address unless it is the backend the user
 * (or the fixture server) named.
 */
import { SEARCH_BACKENDS, type SearchBackendId } from '../../../shared/search-backends.js';
import { findTask } from '../../../shared/tasks.js';
import { collapse, stripTags } from './html-text.js';
import { httpGet, type GetResult } from './http-get.js';
import { BlockedAddressError } from './net-guard.js';
import { ToolError } from './tool.js';

export interface SearchHit {
  readonly title: string;
  readonly url: string;
  readonly snippet: string;
}

/** Where a run's web_search goes: resolved once per run from its task, settings and key. */
export interface SearchTarget {
  readonly backend: Exclude<SearchBackendId, 'off'>;
  /** The backend's base URL (the fixture server's origin for the offline index). */
  readonly url: string;
  readonly key: string | null;
}

export interface SearchRequestOptions {
  readonly signal: AbortSignal;
  readonly timeoutMs: number;
  readonly maxBytes: number;
}

const SNIPPET_CHARS = 300;
const TITLE_CHARS = 200;

export async function searchWith(
  target: SearchTarget,
  query: string,
  count: number,
  opts: SearchRequestOptions,
): Promise<SearchHit[]> {
  const label = SEARCH_BACKENDS[target.backend].label;
  if ((target.backend === 'brave' || target.backend === 'tavily') && !target.key) {
    throw new ToolError(
      `web_search is set to ${label} but has no key: set ${SEARCH_BACKENDS[target.backend].keyEnv} (or choose another search backend).`,
    );
  }
  const base = target.url.replace(/\/+$/, '');
  const timeout = AbortSignal.timeout(opts.timeoutMs);
  const signal = AbortSignal.any([opts.signal, timeout]);
  // The backend the user configured may live on their own network (a self-hosted SearXNG); nothing else may.
  const localOrigins = new Set([new URL(base).origin]);
  const common = { signal, maxBytes: opts.maxBytes, maxRedirects: 3, localOrigins };
  let response: GetResult;
  try {
    switch (target.backend) {
      case 'searxng':
      case 'fixture': {
        const url = new URL(`${base}/search`);
        url.search = new URLSearchParams({ q: query, format: 'json' }).toString();
        response = await httpGet(url, { ...common, headers: { accept: 'application/json' } });
        break;
      }
      case 'brave': {
        const url = new URL(`${base}/web/search`);
        url.search = new URLSearchParams({ q: query, count: String(count) }).toString();
        response = await httpGet(url, {
          ...common,
          headers: { accept: 'application/json', 'x-subscription-token': target.key! },
        });
        break;
      }
      case 'tavily':
        response = await httpGet(new URL(`${base}/search`), {
          ...common,
          headers: {
            accept: 'application/json',
            'content-type': 'application/json',
            authorization: `Bearer ${target.key}`,
          },
          postBody: JSON.stringify({ query, max_results: count, search_depth: 'basic' }),
        });
        break;
    }
  } catch (error) {
    if (opts.signal.aborted) throw new ToolError('web_search was cancelled.');
    if (timeout.aborted)
      throw new ToolError(`web_search timed out after ${opts.timeoutMs / 1000} s waiting for ${label}; try again.`);
    if (error instanceof BlockedAddressError)
      throw new ToolError(`web_search refuses ${label} at ${base}: ${error.message}.`);
    throw new ToolError(`web_search could not reach ${label} at ${base}: ${(error as Error).message}.`);
  }
  const text = Buffer.from(response.body).toString('utf8');
  if (response.status < 200 || response.status > 299) throw new ToolError(statusMessage(target, response.status, text));
  if (response.cut)
    throw new ToolError(
      `${label} sent a reply larger than ${Math.round(opts.maxBytes / 1024)} kB; web_search stopped reading it.`,
    );
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    throw new ToolError(
      `${label} did not answer with JSON (${JSON.stringify(text.slice(0, 80))}…). ${target.backend === 'searxng' ? 'Enable the json format in its settings.yml.' : 'Check the search backend URL.'}`,
    );
  }
  return hitsOf(target.backend, body).slice(0, count);
}

/** The results of one backend's reply, cleaned: tags stripped, lengths capped, only http(s) links. */
export function hitsOf(backend: SearchTarget['backend'], body: unknown): SearchHit[] {
  const rows = backend === 'brave' ? field(field(body, 'web'), 'results') : field(body, 'results');
  if (!Array.isArray(rows)) return [];
  const hits: SearchHit[] = [];
  for (const row of rows) {
    const url = typeof field(row, 'url') === 'string' ? (field(row, 'url') as string) : '';
    if (!/^https?:\/\//i.test(url) || !URL.canParse(url)) continue;
    const snippet = field(row, backend === 'brave' ? 'description' : 'content');
    hits.push({ title: clean(field(row, 'title'), TITLE_CHARS), url, snippet: clean(snippet, SNIPPET_CHARS) });
  }
  return hits;
}

function field(value: unknown, name: string): unknown {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
    ? (value as Record<string, unknown>)[name]
    : undefined;
}

function clean(value: unknown, max: number): string {
  if (typeof value !== 'string') return '';
  const text = collapse(stripTags(value).text).replace(/\n/g, ' ');
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}

function statusMessage(target: SearchTarget, status: number, text: string): string {
  const label = SEARCH_BACKENDS[target.backend].label;
  let detail = '';
  try {
    const body = JSON.parse(text) as unknown;
    const d = field(body, 'detail');
    detail = String(
      field(d, 'error') ?? field(field(body, 'error'), 'detail') ?? (typeof d === 'string' ? d : '') ?? '',
    );
  } catch {
    detail = text.slice(0, 120).trim();
  }
  const said = detail ? ` (${detail})` : '';
  const keyEnv = SEARCH_BACKENDS[target.backend].keyEnv;
  // Brave answers a bad token with 422 SUBSCRIPTION_TOKEN_INVALID.
  const badToken = status === 422 && /token/i.test(text);
  if (status === 401 || badToken || (status === 403 && keyEnv))
    return `${label} refused the key${said}: check ${keyEnv ?? 'the search backend key'}.`;
  if (status === 403 && target.backend === 'searxng')
    return `SearXNG refused the JSON API${said}: enable "json" under search.formats in its settings.yml.`;
  if (status === 429) return `${label} is rate-limiting web_search${said}; wait a moment and search again.`;
  if (status === 432 || status === 433) return `${label} says the plan's limit is reached${said}.`;
  return `${label} answered ${status}${said}.`;
}

/**
 * Where a run's web_search goes: a built-in task with its own offline index (web-lookup: its facts exist
 * nowhere else) always searches it; other runs use the backend their settings name, at its URL or the given one.
 */
export function searchTargetOf(run: {
  readonly taskId: string | null;
  readonly backend: SearchBackendId;
  readonly url: string | null;
  readonly fixtureUrl: string | null | undefined;
  readonly key: string | null;
}): SearchTarget | null {
  const fixture = run.fixtureUrl ? new URL(run.fixtureUrl).origin : null;
  if (findTask(run.taskId ?? '')?.ownSearchIndex)
    return fixture ? { backend: 'fixture', url: fixture, key: null } : null;
  if (run.backend === 'off') return null;
  if (run.backend === 'fixture') return fixture ? { backend: 'fixture', url: fixture, key: null } : null;
  const url = run.url ?? SEARCH_BACKENDS[run.backend].defaultUrl;
  return url ? { backend: run.backend, url, key: run.key } : null;
}
