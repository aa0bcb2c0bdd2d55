/**
 * Runs of the engine against the simulated model with the request bodies captured on the way (a recording proxy
 * between them), for the tests of what a knob changes in what the model is sent. `knobRuns` starts the simulated
 * and fixture servers for the calling file and removes the runs' workspaces after it.
 */
import { randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll } from 'vitest';
import { parseSettings, type ModeId, type RunSettingsInput, type RunSpec } from '../../shared/run-spec.js';
import type { StepEvent } from '../../shared/step-event.js';
import { summarizeRun } from '../../shared/summary.js';
import { runEngine } from '../../electron/engine/run-engine.js';
import { startSimServer, type SimServer } from '../../electron/sim/index.js';
import { prepareFixture } from '../../electron/tasks/fixtures.js';
import { resolveTask } from '../../electron/tasks/resolve.js';
import { startFixtureServer } from '../../electron/tasks/fixture-server.js';
import { startRecordingProxy } from './recording-proxy.js';
import { runTaskOf } from '../../electron/tasks/index.js';

export interface WireBody {
  readonly messages: { role: string; content: unknown }[];
  readonly tools?: {
    function: {
      name: string;
      description: string;
      parameters: { properties: Record<string, { description?: string }> };
    };
  }[];
}

export interface KnobRunOptions {
  readonly task: string;
  readonly mode: ModeId;
  readonly settings?: RunSettingsInput;
  readonly model?: string;
  readonly trial?: number;
}

export function knobRuns(prefix: string) {
  let sim: SimServer;
  let fixture: { url: string; close(): Promise<void> };
  const dirs: string[] = [];
  beforeAll(async () => {
    sim = await startSimServer();
    fixture = await startFixtureServer();
  });
  afterAll(async () => {
    await sim.close();
    await fixture.close();
    await Promise.all(dirs.map((d) => rm(d, { recursive: true, force: true })));
  });

  async function knobRun(opts: KnobRunOptions) {
    const dir = await mkdtemp(join(tmpdir(), prefix));
    dirs.push(dir);
    await prepareFixture(opts.task, dir);
    const proxy = await startRecordingProxy(sim.url);
    const events: StepEvent[] = [];
    const fixtureUrl = opts.task === 'time-and-title' ? fixture.url : null;
    const spec: RunSpec = {
      runId: randomUUID(),
      task: resolveTask(opts.task, { fixtureUrl }),
      mode: opts.mode,
      provider: { name: 'simulated', baseUrl: proxy.url, model: opts.model ?? 'sim', simulated: true },
      apiKeyEnv: null,
      settings: parseSettings(opts.settings ?? {}),
      workspace: dir,
      fixtureUrl,
      ...(opts.trial !== undefined ? { trial: opts.trial } : {}),
    };
    try {
      await runEngine(
        spec,
        { apiKey: null, signal: new AbortController().signal, emit: (e) => events.push(e) },
        runTaskOf(spec.task),
      );
    } finally {
      await proxy.close();
    }
    return { events, summary: summarizeRun(events), requests: proxy.requests as unknown as WireBody[] };
  }
  return { knobRun, fixtureUrl: () => fixture.url };
}

export const ofType = <T extends StepEvent['type']>(events: StepEvent[], type: T) =>
  events.filter((e): e is Extract<StepEvent, { type: T }> => e.type === type);
