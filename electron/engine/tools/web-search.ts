import { z } from 'zod';
import { MAX_SEARCH_RESULTS } from '../../../shared/search-backends.js';
import { limitsOf } from './limits.js';
import { runToolState } from './run-state.js';
import { searchWith, type SearchHit } from './search-backends.js';
import { defineTool, ToolError } from './tool.js';

export const webSearch = defineTool({
  name: 'web_search',
  description:
    'Search the web. Returns a list of results [{title, url, snippet}], best first. A snippet is only a short ' +
    "extract: open a result's url with fetch_url to read it in full.",
  args: z.object({
    query: z.string().min(1).max(400).describe('What to search for, e.g. "tallest lighthouse in Europe".'),
    count: z
      .number()
      .int()
      .min(1)
      .max(MAX_SEARCH_RESULTS)
      .default(5)
      .describe(`How many results, 1 to ${MAX_SEARCH_RESULTS}.`),
  }),
  returns: 'Array<{title: string, url: string, snippet: string}>',
  async run({ query, count }, ctx): Promise<SearchHit[]> {
    const target = runToolState(ctx).search;
    if (!target)
      throw new ToolError('web_search has no search backend in this run. Choose one in the run settings (webSearch).');
    const limits = limitsOf(ctx);
    return searchWith(target, query, count, {
      signal: ctx.signal,
      timeoutMs: limits.fetchTimeoutMs,
      maxBytes: limits.fetchMaxBytes,
    });
  },
});
