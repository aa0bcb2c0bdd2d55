/**
 * ReAct + tool search: the first request offers only the common tools and
 * `search_tools(query)`. A search ranks the hidden tools (BM25, tool-search/) and answers with their
 * signatures; the tools it found are added to the tools of every later request, so from the next step the
 * model calls them like any ReAct tool. One `tool-search` event per search.
 */
import type { ToolExposure } from '../../../shared/step-event.js';
import { SEARCH_LIMIT } from '../sandbox/index.js';
import { rankTools, SearchRefused } from '../tool-search/search-in-thread.js';
import type { SearchHit } from '../../../shared/step-event.js';
import { invokeTool, signatureOf, toolExposure, toolResultText, type ToolDefinition } from '../tools/index.js';
import { firstSentence } from '../tools/tool-descriptions.js';
import { standardBindings } from './code/bindings.js';
import type { ModeAdapter, ModeOptions } from './mode.js';
import { toolsetOf } from './toolsets.js';

export const SEARCH_TOOLS = 'search_tools';

export const SEARCH_TOOLS_EXPOSURE: ToolExposure = {
  name: SEARCH_TOOLS,
  description:
    'Find more tools by English keywords for what the tool does (e.g. "download web page", "current time"). ' +
    `Returns up to ${SEARCH_LIMIT} matches with their signatures; the tools found can be called from your next step.`,
  parameters: {
    type: 'object',
    properties: { query: { type: 'string', description: 'English keywords describing the tool you need.' } },
    required: ['query'],
    additionalProperties: false,
  },
};

export { firstSentence };

export function createReactSearchMode(opts: ModeOptions): ModeAdapter {
  // The same split as Code Mode's catalog, so both hide the same tools behind search.
  const toolset = toolsetOf(opts.settings, opts.taskId, opts.mcpTools);
  const { tools: common, hiddenTools: hidden } = standardBindings(toolset.tools);
  const returnTypes = opts.settings.returnTypes;
  const loaded: ToolDefinition[] = [];
  /** Step in which each loaded tool was found: it is callable only from the step after. */
  const foundAt = new Map<string, number>();
  let exposed: readonly ToolExposure[] = [...common.map(toolExposure), SEARCH_TOOLS_EXPOSURE];

  async function search(query: string, step: number, signal: AbortSignal): Promise<{ text: string; hits: SearchHit[] }> {
    let ranked;
    try {
      ranked = await rankTools(query, hidden, SEARCH_LIMIT, { signal });
    } catch (error) {
      if (error instanceof SearchRefused) return { hits: [], text: error.message };
      throw error;
    }
    const hits = ranked.map((h) => {
      const tool = hidden.find((t) => t.name === h.name)!;
      return { ...h, signature: signatureOf(tool, returnTypes) };
    });
    if (hits.length === 0) {
      const offered = (await rankTools(query, common, 3, { signal }).catch(() => [])).filter((h) => h.score > 0).map((h) => h.name);
      const also = offered.length > 0 ? ` Already offered to you: ${offered.join(', ')}.` : '';
      return {
        hits,
        text:
          `No tool matched "${query}". Try other English words for what the tool does (e.g. "download web page", ` +
          `"current time"), or an empty query to list every tool you can find.${also}`,
      };
    }
    const added = hits.map((h) => hidden.find((t) => t.name === h.name)!).filter((t) => !foundAt.has(t.name));
    for (const tool of added) foundAt.set(tool.name, step);
    if (added.length > 0) {
      loaded.push(...added);
      // The tool list changes here, and providers put tools ahead of the messages: from the next request on,
      // a provider's prompt cache (which needs an identical prefix) misses. Part of what this mode measures.
      exposed = [...exposed, ...added.map(toolExposure)];
    }
    const lines = hits.map((h) => {
      const tool = hidden.find((t) => t.name === h.name)!;
      return `- ${h.signature} — ${firstSentence(tool.description)}`;
    });
    return {
      hits,
      text: [`Found ${hits.length} tool${hits.length === 1 ? '' : 's'} for "${query}"; call ${hits.length === 1 ? 'it' : 'them'} by name from your next step:`, ...lines].join('\n'),
    };
  }

  return {
    id: 'react-search',
    systemPrompt: toolset.systemPrompts['react-search'],
    tools: () => exposed,
    unknownToolHint(name) {
      if (!hidden.some((t) => t.name === name) || loaded.some((t) => t.name === name)) return null;
      return `${name} exists but is not loaded yet: find it with ${SEARCH_TOOLS} first (e.g. {"query": "${name.replace(/_/g, ' ')}"}), then call it in the following step.`;
    },
    async handleCall(name, args, ctx) {
      if (name === SEARCH_TOOLS) {
        const query = args.query;
        if (typeof query !== 'string') {
          return `${SEARCH_TOOLS} needs {"query": "<English keywords>"}, e.g. {"query": "download web page"}. Send the keywords in the "query" field.`;
        }
        const result = await search(query.trim(), ctx.step, ctx.signal);
        ctx.emit({ type: 'tool-search', step: ctx.step, callId: ctx.callId, query: query.trim(), hits: result.hits });
        return result.text;
      }
      const tool = common.find((t) => t.name === name) ?? loaded.find((t) => t.name === name);
      // The loop only passes names from tools(), so this is a programming error, not a model error.
      if (!tool) throw new Error(`Tool "${name}" is not registered in ReAct + tool search mode.`);
      if (foundAt.get(name) === ctx.step) {
        throw new Error(`${name} was found by ${SEARCH_TOOLS} in this same step, so it is not callable yet. Call it again in your next step.`);
      }
      const value = await invokeTool(tool, args, { workspace: opts.workspace, settings: opts.settings, signal: ctx.signal });
      return toolResultText(value);
    },
  };
}
