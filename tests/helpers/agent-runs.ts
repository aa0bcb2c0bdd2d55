/**
 * Runs of agent columns (mode "agent") through the real engine against the simulated model, with a recording
 * proxy between Parallax and the model, so a test can hold each recorded step against what the model itself
 * reported. `agentRuns` starts the simulated model for the calling file and removes the workspaces after it.
 */
import { randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll } from 'vitest';
import type { AgentCommand } from '../../shared/agent-command.js';
import { parseSettings, type ModeId, type RunSettingsInput, type RunSpec } from '../../shared/run-spec.js';
import type { StepEvent } from '../../shared/step-event.js';
import { resolveAgentLaunch } from '../../electron/engine/agent/agent-launch.js';
import { runEngine } from '../../electron/engine/run-engine.js';
import { startSimServer, type SimServer } from '../../electron/sim/index.js';
import { prepareFixture } from '../../electron/tasks/fixtures.js';
import { resolveTask } from '../../electron/tasks/resolve.js';
import { startRecordingProxy, type RecordedReply } from './recording-proxy.js';
import { runTaskOf } from '../../electron/tasks/index.js';

export const EXAMPLES = fileURLToPath(new URL('../../examples/', import.meta.url));
export const TEST_AGENTS = fileURLToPath(new URL('../fixtures/agents/', import.meta.url));

export interface AgentRunOptions {
  readonly task?: string;
  readonly mode?: ModeId;
  readonly agent?: AgentCommand;
  readonly settings?: RunSettingsInput;
  readonly apiKey?: string | null;
  readonly signal?: AbortSignal;
  /**
   * The environment the agent's program is found with, as the host resolves it when a comparison starts
   * (engine/agent/agent-launch.ts); absent: the engine resolves it with this process's.
   */
  readonly launchEnv?: NodeJS.ProcessEnv;
}

export interface AgentRunResult {
  readonly events: StepEvent[];
  readonly replies: RecordedReply[];
  readonly workspace: string;
  readonly ms: number;
}

export function agentRuns(prefix: string) {
  let sim: SimServer;
  const dirs: string[] = [];
  beforeAll(async () => {
    sim = await startSimServer();
  });
  afterAll(async () => {
    await sim.close();
    await Promise.all(dirs.map((d) => rm(d, { recursive: true, force: true })));
  });
  async function agentRun(opts: AgentRunOptions): Promise<AgentRunResult> {
    const dir = await mkdtemp(join(tmpdir(), prefix));
    dirs.push(dir);
    const task = opts.task ?? 'log-stats';
    await prepareFixture(task, dir);
    const proxy = await startRecordingProxy(sim.url);
    const events: StepEvent[] = [];
    const spec: RunSpec = {
      runId: randomUUID(),
      task: resolveTask(task, { fixtureUrl: null }),
      mode: opts.mode ?? 'agent',
      provider: { name: 'simulated', baseUrl: proxy.url, model: 'sim', simulated: true },
      apiKeyEnv: null,
      settings: parseSettings(opts.settings ?? {}),
      workspace: dir,
      fixtureUrl: null,
      ...(opts.agent ? { agent: opts.agent } : {}),
      ...(opts.agent && opts.launchEnv
        ? { agentLaunch: await resolveAgentLaunch(opts.agent, { env: opts.launchEnv }) }
        : {}),
    };
    const t0 = performance.now();
    try {
      await runEngine(
        spec,
        {
          apiKey: opts.apiKey ?? null,
          signal: opts.signal ?? new AbortController().signal,
          emit: (e) => events.push(e),
        },
        runTaskOf(spec.task),
      );
    } finally {
      await proxy.close();
    }
    return { events, replies: proxy.replies, workspace: dir, ms: performance.now() - t0 };
  }
  return { agentRun };
}

export const ofType = <T extends StepEvent['type']>(events: readonly StepEvent[], type: T) =>
  events.filter((e): e is Extract<StepEvent, { type: T }> => e.type === type);

export const finished = (events: readonly StepEvent[]) => ofType(events, 'run-finished')[0]!;
