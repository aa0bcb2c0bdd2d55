/** The simulated model: an offline OpenAI-compatible server with scripted, tool-reading policies. */
export { startSimServer, type SimServer, type SimServerOptions } from './sim-server.js';
export { FAULTS_HEADER, RUN_ID_HEADER, TRIAL_HEADER, parseFaults, parseTrial } from './faults.js';
export { SIM_FINGERPRINT, SIM_MODEL_ID } from './wire.js';
export { detectTask, decide } from './policies/index.js';
export { isSimulatedEndpoint } from './detect.js';
