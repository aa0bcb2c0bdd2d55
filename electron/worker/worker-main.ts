/**
 * The process entry of one run. The host forks it, sends the run spec and key over IPC, and releases all of
 * a comparison's workers together. Loading the engine happens before 'ready', so start-up cost is not
 * counted against any mode.
 */
import { serveWorker } from './worker-runtime.js';

serveWorker(async (spec) => {
  const engine = await import('../engine/run-engine.js');
  await engine.warmUpEngine(spec);
  return engine.runEngine;
});
