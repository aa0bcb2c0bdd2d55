/** Plan-and-Execute on the simulated model: its system prompt says so; a numbered plan first, then ReAct's policies. */
import { answer } from '../../types.js';
import { reactPolicies } from '../families.js';
import { defineSimMode } from '../sim-mode.js';

export const planExecuteSim = defineSimMode({
  id: 'plan-execute',
  detect: (s) => /You plan first, then execute\.|Plan first, then execute\./.test(s.systemPrompt ?? ''),
  decide: (conv, task) => (conv.turns === 0 ? answer('1. Look at what the task needs.\n2. Call the tools for it.\n3. Answer.') : reactPolicies(conv, task)),
});
