/**
 * search_tools as the modes run it for the model: the query length is checked first, then the ranking runs
 * in the compute thread under a deadline, so no query (the issue was a 10 MB one) can hold up the worker or
 * fill its memory.
 */
import { ComputeError, computeThread } from '../tools/compute/compute-thread.js';
import { DEFAULT_TOOL_LIMITS } from '../tools/limits.js';
import type { ToolDefinition } from '../tools/tool.js';
import { queryProblem, type RankedName } from './rank.js';
import { docsOf } from './search-tools.js';

/** A query the model sent that cannot be searched; the message says what to send instead. */
export class SearchRefused extends Error {
  override readonly name = 'SearchRefused';
}

export interface SearchOptions {
  readonly signal?: AbortSignal;
  readonly timeoutMs?: number;
}

/** Ranked names for `query` over `tools`, best first; throws SearchRefused with a message for the model. */
export async function rankTools(
  query: string,
  tools: readonly ToolDefinition[],
  limit: number,
  options: SearchOptions = {},
): Promise<RankedName[]> {
  const problem = queryProblem(query);
  if (problem) throw new SearchRefused(problem);
  try {
    return await computeThread().run(
      'search',
      { query, docs: docsOf(tools), limit },
      {
        signal: options.signal,
        timeoutMs: options.timeoutMs ?? DEFAULT_TOOL_LIMITS.searchTimeoutMs,
      },
    );
  } catch (error) {
    if (error instanceof ComputeError)
      throw new SearchRefused(
        `search_tools ${error.kind === 'input' ? 'failed: ' : ''}${error.message}. Search again with a few short keywords.`,
      );
    throw error;
  }
}
