/**
 * Prompt composition against the simulated model, which counts usage with the same formula over the request
 * it received: for every step of every built-in task in every mode, the parts sum to the reported prompt
 * tokens and `other` is exactly the reply priming, i.e. the reconstruction from events matches the request
 * sent token for token. With the tutorial accounting, `other` is exactly that template's overhead.
 */
import { randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';

// Every run's programs on one Pyodide child and one QuickJS thread (tests/helpers/shared-sandboxes.ts).
vi.mock('../../../../electron/engine/sandbox/python/py-sandbox.js', async (original) =>
  (await import('../../../helpers/shared-sandboxes.js')).onePyChild(await original()),
);
vi.mock('../../../../electron/engine/sandbox/sandbox.js', async (original) =>
  (await import('../../../helpers/shared-sandboxes.js')).oneJsThread(await original()),
);
import { runEngine } from '../../../../electron/engine/run-engine.js';
import { prewarmPythonSandbox } from '../../../../electron/engine/modes/code-mode.js';
import { CompositionTracker } from '../../../../electron/engine/tokens/prompt-composition.js';
import { REPLY_PRIMING } from '../../../../electron/engine/tokens/count-tokens.js';
import { prepareFixture } from '../../../../electron/tasks/fixtures.js';
import { resolveTask } from '../../../../electron/tasks/resolve.js';
import { startFixtureServer, type FixtureServer } from '../../../../electron/tasks/fixture-server.js';
import { disposeSharedSandbox } from '../../../../electron/engine/sandbox/index.js';
import { startSimServer, type SimServer } from '../../../../electron/sim/index.js';
import { TUTORIAL_TEMPLATE } from '../../../../electron/sim/accounting.js';
import { fitComposition, PROMPT_PARTS, type PromptComposition } from '../../../../shared/prompt-composition.js';
import {
  MODE_IDS,
  parseSettings,
  type ModeId,
  type RunSettingsInput,
  type RunSpec,
} from '../../../../shared/run-spec.js';
import type { StepEvent } from '../../../../shared/step-event.js';
import { BUILTIN_TASKS } from '../../../../shared/tasks.js';
import { runTaskOf } from '../../../../electron/tasks/index.js';
import { closeSharedSandboxes } from '../../../helpers/shared-sandboxes.js';

let sim: SimServer;
let page: FixtureServer;
const dirs: string[] = [];

beforeAll(async () => {
  // As a worker does before its run is released: the child loads while the first task's other modes run.
  prewarmPythonSandbox().catch(() => undefined);
  sim = await startSimServer();
  page = await startFixtureServer();
});
afterAll(async () => {
  disposeSharedSandbox();
  closeSharedSandboxes();
  await sim.close();
  await page.close();
  await Promise.all(dirs.map((d) => rm(d, { recursive: true, force: true })));
});

async function composedRun(taskId: string, mode: ModeId, settings: RunSettingsInput = {}) {
  const workspace = await mkdtemp(path.join(tmpdir(), 'parallax-composition-'));
  dirs.push(workspace);
  await prepareFixture(taskId, workspace, 3);
  const tracker = new CompositionTracker();
  const events: StepEvent[] = [];
  const spec: RunSpec = {
    runId: randomUUID(),
    task: resolveTask(taskId, { fixtureUrl: page.url }),
    mode,
    provider: { name: 'simulated', baseUrl: sim.url, model: 'sim', simulated: true },
    apiKeyEnv: null,
    settings: parseSettings(settings),
    workspace,
    fixtureUrl: page.url,
  };
  await runEngine(
    spec,
    { apiKey: null, signal: new AbortController().signal, emit: (e) => events.push(tracker.observe(e)) },
    runTaskOf(spec.task),
  );
  const steps = events.flatMap((e) =>
    e.type === 'model-response' && e.usage ? [{ prompt: e.usage.prompt, parts: e.promptComposition! }] : [],
  );
  return { events, steps };
}

const sum = (c: PromptComposition) => PROMPT_PARTS.reduce((n, p) => n + c[p], 0);

describe('prompt composition on the simulated model', () => {
  for (const task of BUILTIN_TASKS) {
    it(`${task.id}: every step of every mode is reconstructed token for token`, async () => {
      for (const mode of MODE_IDS) {
        const { steps } = await composedRun(task.id, mode);
        expect(steps.length, `${mode} steps`).toBeGreaterThan(0);
        for (const [i, s] of steps.entries()) {
          expect(sum(s.parts), `${task.id} ${mode} step ${i + 1}`).toBe(s.prompt);
          expect(s.parts.other, `${task.id} ${mode} step ${i + 1}: other`).toBe(REPLY_PRIMING);
          expect(s.parts.system).toBeGreaterThan(0);
          expect(s.parts.task).toBeGreaterThan(0);
          expect(s.parts.tools).toBeGreaterThan(0);
          if (i === 0) expect([s.parts.assistant, s.parts.toolResults]).toEqual([0, 0]);
          else expect(s.parts.assistant).toBeGreaterThan(0);
        }
      }
    });
  }

  it('ReAct + tool search: the tools it found join the tools part from the next request', async () => {
    const { events, steps } = await composedRun('time-and-title', 'react-search');
    const added = events.filter((e) => e.type === 'model-request' && e.addedTools?.length);
    expect(added.length).toBeGreaterThan(0);
    expect(steps[1]!.parts.tools).toBeGreaterThan(steps[0]!.parts.tools);
    for (const s of steps) expect(s.parts.other).toBe(REPLY_PRIMING);
  });

  it("log-stats: ReAct's later requests are mostly re-sent tool results, Code Mode's mostly its catalog", async () => {
    const reactSteps = (await composedRun('log-stats', 'react')).steps;
    const react = reactSteps.at(-1)!.parts;
    const code = (await composedRun('log-stats', 'code')).steps[0]!.parts;
    expect(react.toolResults + react.assistant).toBeGreaterThan(react.tools / 2);
    // The first request has no result to re-send yet; the last re-sends them all.
    expect(reactSteps[0]!.parts.toolResults).toBe(0);
    expect(react.toolResults).toBeGreaterThan(0);
    expect(code.tools).toBeGreaterThan(code.system + code.task);
  });

  it('with the tutorial accounting, other is exactly the template the provider adds', async () => {
    const { steps } = await composedRun('log-stats', 'react', { toolset: 'seed' });
    for (const s of steps)
      expect(s.parts.other).toBe(REPLY_PRIMING + TUTORIAL_TEMPLATE.perRequestWithTools + TUTORIAL_TEMPLATE.perTool * 6);
  });
});

describe('fitComposition', () => {
  it('puts what the count leaves unexplained into other', () => {
    expect(fitComposition({ system: 10, tools: 20, task: 5, assistant: 0, toolResults: 0 }, 50)).toEqual({
      system: 10,
      tools: 20,
      task: 5,
      assistant: 0,
      toolResults: 0,
      other: 15,
    });
  });
  it('scales the parts down to a smaller report, summing exactly (largest remainders)', () => {
    const fitted = fitComposition({ system: 10, tools: 10, task: 10, assistant: 0, toolResults: 0 }, 20);
    expect(sum(fitted)).toBe(20);
    expect(fitted.other).toBe(0);
    expect([fitted.system, fitted.tools, fitted.task].sort()).toEqual([6, 7, 7]);
    expect(sum(fitComposition({ system: 3, tools: 0, task: 0, assistant: 7, toolResults: 1 }, 0))).toBe(0);
  });
});
