/**
 * What a worker loads before its run: a pooled worker (preloadEngine) leaves the compute thread unstarted, and
 * only a mode that searches tools from its first step starts it before release (warmUpEngine). A standing pool's
 * worker (preloadStanding) starts it in idle time; warmUpEngine keeps it for such a mode and stops it for others.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { parseSettings, type ModeId, type RunSpec } from '../../../shared/run-spec.js';
import { preloadEngine, preloadStanding, warmUpEngine } from '../../../electron/engine/run-engine.js';
import { computeThread } from '../../../electron/engine/tools/compute/compute-thread.js';
import { dropCodeSandbox } from '../../../electron/engine/modes/code-mode.js';
import { createCodePyMode, pythonPrewarmed } from '../../../electron/engine/modes/code-mode.js';

const spec = (mode: ModeId): RunSpec => ({
  runId: `warm-${mode}`,
  task: { id: null, text: 'warm up' },
  mode,
  provider: { name: 'simulated', baseUrl: 'http://127.0.0.1:1/v1', model: 'sim', simulated: true },
  apiKeyEnv: null,
  settings: parseSettings({}),
  workspace: '.',
});

afterAll(() => {
  computeThread().dispose();
  dropCodeSandbox();
});

describe('worker warm-up', () => {
  it('starts the compute thread only for a mode that searches tools', async () => {
    await preloadEngine();
    expect(computeThread().threadsStarted).toBe(0);
    await warmUpEngine(spec('react'));
    expect(computeThread().threadsStarted).toBe(0);
    await warmUpEngine(spec('react-search'));
    expect(computeThread().threadsStarted).toBe(1);
  });

  it("a standing pool's thread: kept (the same one, no second start) for tool search, stopped for any other mode", async () => {
    await preloadStanding();
    const started = computeThread();
    expect(started.threadsStarted).toBe(1);
    await warmUpEngine(spec('react-search'));
    expect(computeThread()).toBe(started);
    expect(started.threadsStarted).toBe(1);
    await preloadStanding();
    await warmUpEngine(spec('code'));
    // Stopped: the run starts a new one only if a tool asks (as a run without a standing pool always did).
    expect(computeThread()).not.toBe(started);
    expect(computeThread().threadsStarted).toBe(0);
  });

  it('loads Python before a Code Mode (Python) run is released, and its mode takes that child', async () => {
    expect(pythonPrewarmed()).toBe(false);
    await warmUpEngine(spec('code-py'));
    expect(pythonPrewarmed()).toBe(true);
    const mode = createCodePyMode({ workspace: '.', settings: parseSettings({}) });
    expect(pythonPrewarmed()).toBe(false);
    mode.dispose?.();
  });

  it('a worker told its run runs Python starts the child before its spec; the spec keeps it, another run stops it', async () => {
    await preloadEngine('python');
    expect(pythonPrewarmed()).toBe(true);
    await warmUpEngine(spec('code-py'));
    expect(pythonPrewarmed()).toBe(true); // the same child: one process started
    const mode = createCodePyMode({ workspace: '.', settings: parseSettings({}) });
    expect(pythonPrewarmed()).toBe(false);
    mode.dispose?.();

    await preloadEngine('python');
    await warmUpEngine(spec('react'));
    expect(pythonPrewarmed()).toBe(false);
  });
});
