/**
 * `search_tools(query)` over tool definitions: documents for the ranking (rank.ts) and hits with signatures.
 * The modes rank model queries in the compute thread (search-in-thread.ts); this module's synchronous
 * `searchTools` serves trusted, short queries.
 */
import type { SearchHit } from '../../../shared/step-event.js';
import { parameterNames, signatureOf, type ToolDefinition } from '../tools/tool.js';
import { rankDocs, type RankedName, type ToolDoc } from './rank.js';

export { MAX_QUERY_CHARS, queryProblem, rankDocs, splitWords, stem, type RankedName, type ToolDoc } from './rank.js';

export function docsOf(tools: readonly ToolDefinition[]): ToolDoc[] {
  return tools.map((tool) => ({
    id: tool.name,
    name: tool.name,
    description: tool.description,
    params: parameterNames(tool).join(' '),
  }));
}

/** Ranked names → hits with each tool's signature. */
export function hitsOf(ranked: readonly RankedName[], tools: readonly ToolDefinition[]): SearchHit[] {
  const byName = new Map(tools.map((t) => [t.name, t]));
  return ranked.flatMap((r) => {
    const tool = byName.get(r.name);
    return tool ? [{ name: tool.name, score: r.score, signature: signatureOf(tool, true) }] : [];
  });
}

/** `rankDocs` in this thread, for short trusted queries (hints, tests); model queries go through the compute thread. */
export function searchTools(query: string, tools: readonly ToolDefinition[], limit = 5): SearchHit[] {
  return hitsOf(rankDocs(query, docsOf(tools), limit), tools);
}
