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
import { parametersOf, signatureOf, toolExposure, type ToolDefinition } from '../tools/index.js';
import { SEED_BASE } from '../tools/seed-tools.js';
import { firstSentence } from '../tools/tool-descriptions.js';
import { standardBindings } from './code/bindings.js';
import { defineMode, directCalls, type Forwarded, type ModeAdapter, type ModeOptions } from './mode.js';
import { schemaOffer } from './offers.js';
import { REACT_SEARCH_SYSTEM_PROMPT } from './prompts.js';
import { toolsetOf } from './toolsets.js';

export const SEARCH_TOOLS = 'search_tools';
/** toolSearch 'call-tool': the generic forwarder, the tutorial's second approach (做法二). */
export const CALL_TOOL = 'call_tool';

export const CALL_TOOL_EXPOSURE: ToolExposure = {
  name: CALL_TOOL,
  description:
    `Call a tool that ${SEARCH_TOOLS} found: "name" is its name, "arguments" its arguments as one JSON object, ` +
    'following the schema the search showed. The tool runs as if called directly, and its result comes back.',
  parameters: {
    type: 'object',
    properties: {
      name: { type: 'string', description: `The tool's name, as ${SEARCH_TOOLS} listed it.` },
      arguments: { type: 'object', description: "The tool's arguments as one JSON object." },
    },
    required: ['name', 'arguments'],
    additionalProperties: false,
  },
};

/** The system prompt's last sentence when found tools are called through call_tool instead of being added. */
const CALL_TOOL_PROMPT = `The tools ${SEARCH_TOOLS} finds are not added to your tools: from your next step call them with ${CALL_TOOL}(name, arguments).`;

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

export const reactSearchMode = defineMode({
  id: 'react-search',
  prompts: {
    parallax: REACT_SEARCH_SYSTEM_PROMPT,
    seed: `${SEED_BASE} If no tool fits, find one with search_tools; the tools it finds are offered from your next step.`,
  },
  create: createReactSearchMode,
  // The same split as Code Mode's catalog: the common tools visible, the rest found by search.
  offers: (toolset) => {
    const { tools: common, hiddenTools: hidden } = standardBindings(toolset.tools);
    return [...common.map((t) => schemaOffer(t, 'visible')), ...hidden.map((t) => schemaOffer(t, 'search'))];
  },
  ownTools: (settings) => (settings.toolSearch === 'call-tool' ? [SEARCH_TOOLS, CALL_TOOL] : [SEARCH_TOOLS]),
  // search_tools ranks in the compute thread from the first step.
});

/** A tool's argument schema as a search result shows it: without the keys that describe the schema itself. */
function argumentSchema(tool: ToolDefinition): Record<string, unknown> {
  const { $schema: _schema, additionalProperties: _extra, ...rest } = parametersOf(tool);
  return rest;
}

export function createReactSearchMode(opts: ModeOptions): ModeAdapter {
  // The same split as Code Mode's catalog, so both hide the same tools behind search.
  const toolset = toolsetOf(opts.settings, opts.task, opts.mcpTools);
  const { tools: common, hiddenTools: hidden } = standardBindings(toolset.tools);
  const returnTypes = opts.settings.returnTypes;
  const forwarding = opts.settings.toolSearch === 'call-tool';
  const loaded: ToolDefinition[] = [];
  /** Step in which each loaded tool was found: it is callable only from the step after. */
  const foundAt = new Map<string, number>();
  let exposed: readonly ToolExposure[] = [
    ...common.map(toolExposure),
    SEARCH_TOOLS_EXPOSURE,
    ...(forwarding ? [CALL_TOOL_EXPOSURE] : []),
  ];

  async function search(
    query: string,
    step: number,
    signal: AbortSignal,
  ): Promise<{ text: string; hits: SearchHit[] }> {
    let ranked;
    try {
      // An empty query lists every hidden tool, as the no-match text promises.
      ranked = await rankTools(query, hidden, query.trim() === '' ? hidden.length : SEARCH_LIMIT, { signal });
    } catch (error) {
      if (error instanceof SearchRefused) return { hits: [], text: error.message };
      throw error;
    }
    const hits = ranked.map((h) => {
      const tool = hidden.find((t) => t.name === h.name)!;
      return { ...h, signature: signatureOf(tool, returnTypes) };
    });
    if (hits.length === 0) {
      const offered = (await rankTools(query, common, 3, { signal }).catch(() => []))
        .filter((h) => h.score > 0)
        .map((h) => h.name);
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
    if (added.length > 0) loaded.push(...added);
    if (added.length > 0 && !forwarding) {
      // The tool list changes here, and providers put tools ahead of the messages: from the next request on,
      // a provider's prompt cache (which needs an identical prefix) misses. Part of what this mode measures.
      exposed = [...exposed, ...added.map(toolExposure)];
    }
    const lines = hits.map((h) => {
      const tool = hidden.find((t) => t.name === h.name)!;
      // Through call_tool the model never gets the tool's schema in `tools`: the result carries it.
      const schema = forwarding ? `\n  arguments: ${JSON.stringify(argumentSchema(tool))}` : '';
      return `- ${h.signature} — ${firstSentence(tool.description)}${schema}`;
    });
    const how = forwarding ? `with ${CALL_TOOL}(name, arguments)` : 'by name';
    return {
      hits,
      text: [
        `Found ${hits.length} tool${hits.length === 1 ? '' : 's'} for "${query}"; call ${hits.length === 1 ? 'it' : 'them'} ${how} from your next step:`,
        ...lines,
      ].join('\n'),
    };
  }

  /**
   * call_tool's target: a common tool, or a hidden one a search found in an earlier step (as 'add-tools' offers
   * only found tools, so both approaches pay the same discovery). Never itself or search_tools.
   */
  function forwardCall(args: Record<string, unknown>, step: number): Forwarded {
    const usage = `Send {"name": "<tool name>", "arguments": {…}}, e.g. {"name": "fetch_url", "arguments": {"url": "https://example.com"}}.`;
    const { name, arguments: inner } = args;
    if (typeof name !== 'string' || name.trim() === '')
      return { ok: false, error: `"name" must be the name of the tool to call. ${usage}` };
    if (name === CALL_TOOL || name === SEARCH_TOOLS) {
      return {
        ok: false,
        error: `${CALL_TOOL} does not call ${name}: call ${name === SEARCH_TOOLS ? `${SEARCH_TOOLS} directly` : 'the tool you need by its own name'}. ${usage}`,
      };
    }
    if (typeof inner !== 'object' || inner === null || Array.isArray(inner)) {
      const got = Array.isArray(inner) ? 'an array' : inner === null ? 'null' : typeof inner;
      return {
        ok: false,
        error: `"arguments" must be one JSON object of ${name}'s named arguments, not ${got}. ${usage}`,
      };
    }
    if (common.some((t) => t.name === name)) return { ok: true, name, args: inner as Record<string, unknown> };
    if (!hidden.some((t) => t.name === name)) {
      return {
        ok: false,
        error: `there is no tool named "${name}". Find tools with ${SEARCH_TOOLS} and use a name it lists.`,
      };
    }
    const found = foundAt.get(name);
    if (found === undefined)
      return {
        ok: false,
        error: `${name} has not been found yet: search for it with ${SEARCH_TOOLS} first, then call it in the following step.`,
      };
    if (found === step)
      return {
        ok: false,
        error: `${name} was found by ${SEARCH_TOOLS} in this same step, so it is not callable yet. Call it again in your next step.`,
      };
    return { ok: true, name, args: inner as Record<string, unknown> };
  }

  const opening = reactSearchMode.prompts[toolset.id];
  const call = directCalls(
    opts,
    (name) => common.find((t) => t.name === name) ?? loaded.find((t) => t.name === name),
    'ReAct + tool search',
  );
  return {
    id: reactSearchMode.id,
    systemPrompt: forwarding ? `${opening} ${CALL_TOOL_PROMPT}` : opening,
    tools: () => exposed,
    unknownToolHint(name) {
      if (!hidden.some((t) => t.name === name)) return null;
      if (forwarding) {
        return loaded.some((t) => t.name === name)
          ? `Call it through ${CALL_TOOL}: {"name": "${name}", "arguments": {…}}.`
          : `${name} exists but is not found yet: find it with ${SEARCH_TOOLS} first, then call it through ${CALL_TOOL} in the following step.`;
      }
      if (loaded.some((t) => t.name === name)) return null;
      return `${name} exists but is not loaded yet: find it with ${SEARCH_TOOLS} first (e.g. {"query": "${name.replace(/_/g, ' ')}"}), then call it in the following step.`;
    },
    ...(forwarding
      ? {
          forward: (name: string, args: Record<string, unknown>, step: number) =>
            name === CALL_TOOL ? forwardCall(args, step) : null,
        }
      : {}),
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
      if (foundAt.get(name) === ctx.step) {
        throw new Error(
          `${name} was found by ${SEARCH_TOOLS} in this same step, so it is not callable yet. Call it again in your next step.`,
        );
      }
      return call(name, args, ctx);
    },
  };
}
