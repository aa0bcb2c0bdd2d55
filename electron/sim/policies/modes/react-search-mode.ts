/**
 * ReAct + tool search on the simulated model: search_tools offered without run_code. A task whose tools are
 * hidden names its own policy for this mode, which searches for them before ReAct's policy calls them
 * (react-search.ts findTools); tasks that need only the file tools, offered from the start, follow ReAct's.
 * With call_tool offered (toolSearch 'call-tool'), a call of a tool the request does not list goes through it.
 */
import type { SimReply } from '../../types.js';
import { CALL_TOOL, type Conversation } from '../conversation.js';
import { SEARCH_TOOLS } from '../react-search.js';
import { defineSimMode } from '../sim-mode.js';

/** With call_tool offered, a call of a tool the request does not list goes through it. */
function throughForwarder(reply: SimReply, conv: Conversation): SimReply {
  // toolDescriptions holds the tools the request listed (toolNames also holds those found for call_tool).
  const listed = conv.toolDescriptions;
  if (reply.kind !== 'tools' || !listed.has(CALL_TOOL)) return reply;
  return {
    ...reply,
    calls: reply.calls.map((c) =>
      listed.has(c.name)
        ? c
        : { name: CALL_TOOL, arguments: `{"name":${JSON.stringify(c.name)},"arguments":${c.arguments}}` },
    ),
  };
}

export const reactSearchSim = defineSimMode({
  id: 'react-search',
  detect: (s) => !s.toolNames.has('run_code') && s.toolNames.has(SEARCH_TOOLS),
  family: 'react',
  adjust: throughForwarder,
});
