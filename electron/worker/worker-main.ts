/**
 * The process entry of one run. The host forks it (ahead of time when it keeps a warm pool), sends the run
 * spec and key over IPC, and releases all of a comparison's workers together. The engine starts loading as
 * soon as the process starts, before the spec arrives; what the spec adds (its sandbox limits, the tokenizer
 * for a real provider) loads before 'ready', so start-up cost is not counted against any mode.
 */
import { takeWorkerHints } from './worker-hints.js';
import { serveWorker } from './worker-runtime.js';

// Read first: what the host knows of this worker's run (its program language, its shell sandbox finding).
const { program } = takeWorkerHints();
const engine = import('../engine/run-engine.js');
const preload = engine.then((e) => e.preloadEngine(program)).then(() => engine);
const tasks = import('../tasks/index.js');

serveWorker(
  async (spec) => {
    const [loaded, { runTaskOf }] = await Promise.all([preload, tasks]);
    // The run's task (its tools made for this run), handed to the engine, which knows no task by name.
    const task = runTaskOf(spec.task);
    await loaded.warmUpEngine(spec, task);
    return (runSpec, io) => loaded.runEngine(runSpec, io, task);
  },
  preload,
  // A standing pool's worker waits in idle time: it starts the compute thread too, so a tool-search run's
  // release does not wait for it (warmUpEngine stops it for a run that does not search).
  async () => (await preload).preloadStanding(),
);
