/**
 * The recipe of docs/architecture.md "A mode", done once: Plan first (tests/helpers/recipe-mode.ts), one file,
 * handed to the engine as the registry would hand it and run against the simulated model on a task. Its
 * prepareStep is told the step, the history and the steps done, and declares a planning step, which the record
 * carries as the step's phase (how every surface names it: tests/shared/step-phase.test.tsx).
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runEngine } from '../../../../electron/engine/run-engine.js';
import type { StepContext } from '../../../../electron/engine/modes/mode.js';
import { startSimServer, type SimServer } from '../../../../electron/sim/index.js';
import { prepareFixture } from '../../../../electron/tasks/fixtures.js';
import { runTaskOf, TASKS } from '../../../../electron/tasks/index.js';
import { parseSettings } from '../../../../shared/run-spec.js';
import type { StepEvent } from '../../../../shared/step-event.js';
import { checkStepEvent } from '../../../../shared/step-event-schema.js';
import { OPEN_TODOS_TEXT, openTodos } from '../../../helpers/recipe-task.js';
import { PLAN_FIRST, PLAN_REQUEST, PLANNING, planFirstMode } from '../../../helpers/recipe-mode.js';

const tasks = [openTodos, ...TASKS];
let sim: SimServer;
let workspace: string;
const seen: StepContext[] = [];
const events: StepEvent[] = [];

beforeAll(async () => {
  sim = await startSimServer({ tasks });
  workspace = await mkdtemp(join(tmpdir(), 'parallax-recipe-mode-'));
  await prepareFixture('open-todos', workspace, 7, tasks);
  await runEngine(
    {
      runId: randomUUID(),
      task: { id: 'open-todos', text: OPEN_TODOS_TEXT },
      mode: PLAN_FIRST,
      provider: { name: 'simulated', baseUrl: sim.url, model: 'sim', simulated: true },
      apiKeyEnv: null,
      settings: parseSettings({}),
      workspace,
    },
    {
      apiKey: null,
      signal: new AbortController().signal,
      emit: (e) => events.push(e),
      mode: planFirstMode((context) => seen.push(context)),
    },
    runTaskOf({ id: 'open-todos' }, tasks),
  );
});
afterAll(async () => {
  await sim.close();
  await rm(workspace, { recursive: true, force: true });
});

const ofType = <T extends StepEvent['type']>(type: T) =>
  events.filter((e): e is Extract<StepEvent, { type: T }> => e.type === type);

describe('a mode added in one file', () => {
  it('runs on the simulated model and answers right, judged by the task', () => {
    const finished = ofType('run-finished')[0]!;
    expect(finished.status, finished.error).toBe('answered');
    expect(finished.validation, finished.answer).toMatchObject({ ok: true });
    expect(ofType('run-started')[0]!.mode).toBe(PLAN_FIRST);
    // Every event it recorded is one the schema reads (run-started names a mode shared/modes.ts does not list:
    // the recipe's step 1, which a test cannot take).
    for (const e of events)
      if (e.type !== 'run-started') expect(checkStepEvent(e), e.type).toEqual({ ok: true, event: e });
  });

  it('makes its first step a planning step: a plan, no call, recorded with its phase', () => {
    const requests = ofType('model-request');
    expect(requests.map((r) => r.phase ?? null)).toEqual([PLANNING, null, null]);
    expect(requests[0]!.addedMessages).toEqual([{ role: 'system', content: PLAN_REQUEST }]);
    const responses = ofType('model-response');
    expect(responses[0]!.toolCalls).toEqual([]);
    expect(responses[0]!.text).toMatch(/^Plan:\n1\. Call read_file with \{"path":"todo\.md"\}\./);
    expect(responses[1]!.toolCalls.map((c) => c.name)).toEqual(['read_file']);
  });

  it('gives prepareStep the step, the history and the steps done', () => {
    expect(seen.map((c) => c.step)).toEqual([1, 2, 3]);
    // Before step 1: the system prompt and the task, and no step done.
    expect(seen[0]!.messages.map((m) => m.role)).toEqual(['system', 'user']);
    expect(seen[0]!.messages[1]!.content).toBe(OPEN_TODOS_TEXT);
    expect(seen[0]!.steps).toEqual([]);
    // Before step 2: the plan request and the plan are in the history; step 1 is the planning step.
    expect(seen[1]!.messages.map((m) => m.role)).toEqual(['system', 'user', 'system', 'assistant']);
    expect(seen[1]!.steps).toMatchObject([{ step: 1, phase: PLANNING, toolCalls: [], outputs: [], answer: null }]);
    // Before step 3: step 2's call and what it sent back, as the record has them.
    const finished = ofType('tool-finished')[0]!;
    expect(seen[2]!.steps).toHaveLength(2);
    expect(seen[2]!.steps[1]).toMatchObject({ step: 2, answer: null, outputs: [finished.output] });
    expect(seen[2]!.steps[1]!.toolCalls.map((c) => c.name)).toEqual(['read_file']);
    expect(seen[2]!.steps[1]).not.toHaveProperty('phase');
    expect(seen[2]!.messages.at(-1)).toMatchObject({ role: 'tool', content: finished.output });
  });
});
