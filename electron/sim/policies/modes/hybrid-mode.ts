/**
 * Hybrid on the simulated model: run_code beside direct tools. Its built-in tasks are batch work or need hidden
 * tools, so it writes programs; a simple look (one file read) takes a direct call, as ReAct would.
 */
import { codePolicies, reactPolicies } from '../families.js';
import { defineSimMode } from '../sim-mode.js';

export const hybridSim = defineSimMode({
  id: 'hybrid',
  detect: (s) => s.toolNames.has('run_code') && s.toolNames.size > 1,
  decide: (conv, task) => (task.id === 'config-lookup' || task.id === 'missing-file' ? reactPolicies(conv, task) : codePolicies(conv, task)),
});
