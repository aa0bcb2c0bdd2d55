/**
 * A task the simulated model has no policy for ends as 'no-policy', never as an answer: the simulated model
 * marks its canned reply (SIM_POLICY_HEADER), the loop reads the mark only from a provider recorded as simulated.
 */
import { randomUUID } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NO_POLICY_MESSAGE } from '../../../electron/engine/loop.js';
import { runEngine } from '../../../electron/engine/run-engine.js';
import { resolveTask } from '../../../electron/tasks/resolve.js';
import { disposeSharedSandbox } from '../../../electron/engine/sandbox/index.js';
import { startSimServer, type SimServer } from '../../../electron/sim/index.js';
import { parseSettings, SIM_POLICY_HEADER, type ModeId, type RunSpec } from '../../../shared/run-spec.js';
import type { RunFinishedEvent, StepEvent } from '../../../shared/step-event.js';
import { summarizeRun } from '../../../shared/summary.js';
import { fewestTokensVerdict } from '../../../shared/verdict.js';
import { runTaskOf } from '../../../electron/tasks/index.js';

let sim: SimServer;
let workspace: string;
/** A server that is not the simulated model but sends the header anyway. */
let impostor: Server;
let impostorUrl: string;

beforeAll(async () => {
  sim = await startSimServer();
  workspace = await mkdtemp(path.join(tmpdir(), 'parallax-no-policy-'));
  impostor = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      res.setHeader(SIM_POLICY_HEADER, 'none');
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      const chunk = (delta: object, finish: string | null, usage?: object) =>
        `data: ${JSON.stringify({ id: 'x', object: 'chat.completion.chunk', created: 1, model: 'm', choices: [{ index: 0, delta, finish_reason: finish }], ...(usage ? { usage } : {}) })}\n\n`;
      res.end(
        `${chunk({ role: 'assistant', content: 'A real answer.' }, null)}${chunk({}, 'stop', { prompt_tokens: 5, completion_tokens: 3, total_tokens: 8 })}data: [DONE]\n\n`,
      );
    });
  });
  await new Promise<void>((resolve) => impostor.listen(0, '127.0.0.1', resolve));
  impostorUrl = `http://127.0.0.1:${(impostor.address() as { port: number }).port}/v1`;
});
afterAll(async () => {
  disposeSharedSandbox();
  await sim.close();
  await new Promise((resolve) => impostor.close(resolve));
  await rm(workspace, { recursive: true, force: true });
});

async function run(task: string, mode: ModeId, provider: RunSpec['provider']) {
  const events: StepEvent[] = [];
  const spec: RunSpec = {
    runId: randomUUID(),
    task: resolveTask(task, { fixtureUrl: null }),
    mode,
    provider,
    apiKeyEnv: null,
    settings: parseSettings({}),
    workspace,
  };
  await runEngine(
    spec,
    { apiKey: 'k', signal: new AbortController().signal, emit: (e) => events.push(e) },
    runTaskOf(spec.task),
  );
  return events;
}

describe("the simulated model's no-policy reply", () => {
  it.each(['react', 'code'] as const)(
    '%s: a free-text task ends as no-policy with the reason, and wins no verdict',
    async (mode) => {
      const events = await run('Summarise the release notes in one line.', mode, {
        name: 'simulated',
        baseUrl: sim.url,
        model: 'sim',
        simulated: true,
      });
      const finished = events.find((e): e is RunFinishedEvent => e.type === 'run-finished')!;
      expect(finished.status).toBe('no-policy');
      expect(finished.error).toBe(NO_POLICY_MESSAGE);
      expect(finished.answer).toContain('I only know the built-in tasks');
      const summary = summarizeRun(events);
      expect(summary.status).toBe('no-policy');
      expect(fewestTokensVerdict([summary]).runId).toBeNull();
    },
  );

  it('a built-in task still answers', async () => {
    const events = await run('calc', 'react', { name: 'simulated', baseUrl: sim.url, model: 'sim', simulated: true });
    expect(events.find((e): e is RunFinishedEvent => e.type === 'run-finished')!.status).toBe('answered');
  });

  it('the mark is ignored from a provider not recorded as simulated', async () => {
    const events = await run('Say hello.', 'react', {
      name: 'custom',
      baseUrl: impostorUrl,
      model: 'm',
      simulated: false,
    });
    const finished = events.find((e): e is RunFinishedEvent => e.type === 'run-finished')!;
    expect(finished.status).toBe('answered');
    expect(finished.answer).toBe('A real answer.');
  });
});
