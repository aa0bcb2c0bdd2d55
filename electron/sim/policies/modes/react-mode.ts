/** ReAct on the simulated model: any request the other modes do not claim; ReAct's policies decide. */
import { reactPolicies } from '../families.js';
import { defineSimMode } from '../sim-mode.js';

export const reactSim = defineSimMode({ id: 'react', detect: () => true, decide: reactPolicies });
