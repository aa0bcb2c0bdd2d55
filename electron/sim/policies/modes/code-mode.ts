/** Code Mode on the simulated model: run_code is the only tool, and its description asks for JavaScript. */
import { defineSimMode } from '../sim-mode.js';

export const codeSim = defineSimMode({
  id: 'code',
  detect: (s) => s.toolNames.has('run_code') && s.toolNames.size === 1,
  family: 'code',
});
