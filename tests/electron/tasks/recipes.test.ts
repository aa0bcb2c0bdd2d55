/**
 * The recipes of docs/architecture.md ("A built-in task", "A task set"), done once: a task written in one file
 * (tests/helpers/recipe-task.ts) and a set of two domains with their own tools (recipe-task-set.ts), handed to
 * the simulated model, the fixture writer and the engine as the registry would hand them. Every mode runs each
 * through the real engine, tools and sandboxes, and each answer is judged by the task's own validator.
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';

// The Code Mode (Python) runs' programs on one Pyodide child (tests/helpers/shared-sandboxes.ts).
vi.mock('../../../electron/engine/sandbox/python/py-sandbox.js', async (original) =>
  (await import('../../helpers/shared-sandboxes.js')).onePyChild(await original()),
);
import { closeSharedSandboxes } from '../../helpers/shared-sandboxes.js';
import { runEngine } from '../../../electron/engine/run-engine.js';
import { startSimServer, type SimServer } from '../../../electron/sim/index.js';
import { detectTask } from '../../../electron/sim/policies/index.js';
import { prepareFixture } from '../../../electron/tasks/fixtures.js';
import { runTaskOf, TASKS } from '../../../electron/tasks/index.js';
import { MODE_IDS, type ModeId } from '../../../shared/modes.js';
import { parseSettings } from '../../../shared/run-spec.js';
import type { StepEvent } from '../../../shared/step-event.js';
import { OPEN_TODOS_TEXT, openTodos } from '../../helpers/recipe-task.js';
import { RECIPE_SET, RECIPE_SET_TASKS } from '../../helpers/recipe-task-set.js';

const tasks = [...RECIPE_SET, openTodos, ...TASKS];
let sim: SimServer;
const dirs: string[] = [];

beforeAll(async () => {
  sim = await startSimServer({ tasks });
});
afterAll(async () => {
  closeSharedSandboxes();
  await sim.close();
  for (const dir of dirs) await rm(dir, { recursive: true, force: true });
});

/** One run as a worker makes it: the workspace written from the definition, the task's RunTask handed to the engine. */
async function run(id: string, text: string, mode: ModeId) {
  const workspace = await mkdtemp(join(tmpdir(), 'parallax-recipe-'));
  dirs.push(workspace);
  await prepareFixture(id, workspace, 7, tasks);
  const events: StepEvent[] = [];
  await runEngine(
    {
      runId: randomUUID(),
      task: { id, text },
      mode,
      provider: { name: 'simulated', baseUrl: sim.url, model: 'sim', simulated: true },
      apiKeyEnv: null,
      settings: parseSettings({}),
      workspace,
    },
    { apiKey: null, signal: new AbortController().signal, emit: (e) => events.push(e) },
    runTaskOf({ id }, tasks),
  );
  const finished = events.find((e) => e.type === 'run-finished');
  if (finished?.type !== 'run-finished') throw new Error('the run did not finish');
  // The tools called, directly or inside programs.
  const calls = events.flatMap((e) =>
    e.type === 'tool-started' ? [e.name] : e.type === 'code-run' ? e.toolCalls.map((c) => c.name) : [],
  );
  const started = events.find((e) => e.type === 'run-started');
  if (started?.type !== 'run-started') throw new Error('the run did not start');
  return { finished, calls, workspace, started };
}

describe('a task added in one file', () => {
  it('writes its workspace from the definition', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'parallax-recipe-'));
    dirs.push(dir);
    await prepareFixture('open-todos', dir, 7, tasks);
    expect(await readFile(join(dir, 'todo.md'), 'utf8')).toMatch(/^# To do\n\n- \[[ x]\] Renew/);
    expect(detectTask(OPEN_TODOS_TEXT, tasks)).toEqual({ id: 'open-todos' });
    // The built-in registry does not know it: the recipe's registration line is what adds it.
    expect(detectTask(OPEN_TODOS_TEXT)).toBeNull();
  });

  it.each(MODE_IDS)('is done right in %s, and judged by its own validator', async (mode) => {
    const { finished, calls } = await run('open-todos', OPEN_TODOS_TEXT, mode);
    expect(finished.status, finished.error).toBe('answered');
    expect(finished.validation, finished.answer).toMatchObject({ ok: true });
    // Hybrid names ReAct's policy for this task: it reads directly, as ReAct does.
    expect(calls).toEqual(mode === 'code' || mode === 'code-py' ? ['run_code', 'read_file'] : ['read_file']);
  });

  it('fails a wrong count, saying what it expected', async () => {
    const { workspace } = await run('open-todos', OPEN_TODOS_TEXT, 'react');
    const verdict = await runTaskOf({ id: 'open-todos' }, tasks)!.validate('999 items are open.', {
      workspace,
      taskText: OPEN_TODOS_TEXT,
    });
    expect(verdict).toMatchObject({
      ok: false,
      detail: expect.stringMatching(/^Expected \d open items; found 999\.$/),
    });
  });
});

describe('a task set with its own tools, in two domains', () => {
  // Each task in every mode, in one process one after another: the tally's total is right only if every run
  // gets tools of its own.
  const cases = RECIPE_SET_TASKS.flatMap((task) => MODE_IDS.map((mode) => [task.id, mode, task] as const));

  it.each(cases)('%s in %s: the expected output, matched exactly', async (id, mode, task) => {
    const { finished, calls } = await run(id, task.instruction, mode);
    expect(finished.status, finished.error).toBe('answered');
    expect(finished.validation, finished.answer).toMatchObject({ ok: true });
    const planned = task.plan.map((s) => s.tool);
    const program = mode === 'code' || mode === 'code-py' || mode === 'hybrid';
    expect(calls.filter((c) => c !== 'search_tools')).toEqual(program ? ['run_code', ...planned] : planned);
  });

  it("offers a domain's tools instead of the profile's when it says so, in Code Mode's catalog", async () => {
    const react = await run('recipe-tally', RECIPE_SET_TASKS[2].instruction, 'react');
    expect(react.started.tools.map((t) => t.name)).toEqual(['tally_add']);
    const search = await run('recipe-tally', RECIPE_SET_TASKS[2].instruction, 'react-search');
    expect(search.started.tools.map((t) => t.name)).toEqual(['search_tools']);
    const code = await run('recipe-tally', RECIPE_SET_TASKS[2].instruction, 'code');
    const description = code.started.tools[0].description;
    expect(description).toMatch(/tally_add\(/);
    expect(description).not.toMatch(/read_file/);
    expect(code.calls).toEqual(['run_code', 'tally_add', 'tally_add', 'tally_add']);
    // Beside the profile: the cipher's tools are found with search_tools, after the file tools.
    const beside = await run('recipe-decode', RECIPE_SET_TASKS[1].instruction, 'react');
    expect(beside.started.tools.map((t) => t.name)).toEqual(
      expect.arrayContaining(['read_file', 'reverse_text', 'caesar_decode']),
    );
  });

  it("offers the domain's tools to its tasks only", () => {
    const names = (id: string) => runTaskOf({ id }, tasks)!.tools.map((t) => t.name);
    expect(names('recipe-decode')).toEqual(['reverse_text', 'caesar_decode']);
    expect(names('recipe-tally')).toEqual(['tally_add']);
    expect(runTaskOf({ id: 'recipe-tally' }, tasks)!.tools).not.toBe(runTaskOf({ id: 'recipe-tally' }, tasks)!.tools);
  });
});
