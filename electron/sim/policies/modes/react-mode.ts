/** ReAct on the simulated model: any request the other modes do not claim; ReAct's policies decide. */
import { defineSimMode } from '../sim-mode.js';

export const reactSim = defineSimMode({ id: 'react', detect: () => true, family: 'react' });
