/**
 * ReAct + tool search on the simulated model: search_tools offered without run_code. It searches for the tools
 * a task needs before ReAct's policies call them (react-search.ts); tasks that need only the file tools,
 * offered from the start, are ReAct's. With call_tool offered (toolSearch 'call-tool'), a call of a tool the
 * request does not list goes through it.
 */
import type { SimReply } from '../../types.js';
import { CALL_TOOL, type Conversation } from '../conversation.js';
import { reactPolicies } from '../families.js';
import type { TaskMatch } from '../index.js';
import { SEARCH_TOOLS, searchCalc, searchLogStats, searchTimeAndTitle, searchWeather } from '../react-search.js';
import { defineSimMode } from '../sim-mode.js';
import { searchToolCatalog } from '../tool-catalog.js';
import { searchWebLookup } from '../web-lookup.js';

function searchPolicies(conv: Conversation, task: TaskMatch): SimReply {
  switch (task.id) {
    case 'log-stats':
      return searchLogStats(conv);
    case 'time-and-title':
      return searchTimeAndTitle(conv, task);
    case 'weather-f':
      return searchWeather(conv, task.city);
    case 'calc':
      return searchCalc(conv, task.expression);
    case 'tool-catalog':
      return searchToolCatalog(conv, task);
    case 'web-lookup':
      return searchWebLookup(conv, task);
    // The other tasks need only the file tools, offered from the start: ReAct's policy.
    default:
      return reactPolicies(conv, task);
  }
}

/** With call_tool offered, a call of a tool the request does not list goes through it. */
function throughForwarder(reply: SimReply, conv: Conversation): SimReply {
  // toolDescriptions holds the tools the request listed (toolNames also holds those found for call_tool).
  const listed = conv.toolDescriptions;
  if (reply.kind !== 'tools' || !listed.has(CALL_TOOL)) return reply;
  return {
    ...reply,
    calls: reply.calls.map((c) => (listed.has(c.name) ? c : { name: CALL_TOOL, arguments: `{"name":${JSON.stringify(c.name)},"arguments":${c.arguments}}` })),
  };
}

export const reactSearchSim = defineSimMode({
  id: 'react-search',
  detect: (s) => !s.toolNames.has('run_code') && s.toolNames.has(SEARCH_TOOLS),
  decide: (conv, task) => throughForwarder(searchPolicies(conv, task), conv),
});
