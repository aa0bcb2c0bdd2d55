/**
 * Hybrid on the simulated model: run_code beside direct tools. Its built-in tasks are batch work or need hidden
 * tools, so it writes programs; a task that is a simple look (one file read) names ReAct's policy for it.
 */
import { defineSimMode } from '../sim-mode.js';

export const hybridSim = defineSimMode({
  id: 'hybrid',
  detect: (s) => s.toolNames.has('run_code') && s.toolNames.size > 1,
  family: 'code',
});
