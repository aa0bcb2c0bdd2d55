/** Code Mode (Python) on the simulated model: run_code alone, its description asking for Python programs. */
import { programLanguage } from '../programs.js';
import { defineSimMode } from '../sim-mode.js';

export const codePySim = defineSimMode({
  id: 'code-py',
  detect: (s) =>
    s.toolNames.has('run_code') &&
    s.toolNames.size === 1 &&
    programLanguage({ runCodeDescription: s.runCodeDescription ?? '' }) === 'python',
  family: 'code',
});
