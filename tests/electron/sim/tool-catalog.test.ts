/** tool-catalog through the simulated model with real tools: ReAct carries 65 schemas, Code Mode finds two by search. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSimServer, type SimServer } from '../../../electron/sim/index.js';
import { resolveTask, validateAnswer } from '../../../electron/engine/tasks/index.js';
import { closeSandbox, drive, fixtureFolders, toolNames } from './drive.js';

let sim: SimServer;
const folders = fixtureFolders('parallax-sim-catalog');
beforeAll(async () => {
  sim = await startSimServer();
});
afterAll(async () => {
  closeSandbox();
  await sim.close();
  await folders.removeAll();
});

describe('tool-catalog', () => {
  const task = resolveTask('tool-catalog', { fixtureUrl: null });

  it('ReAct calls both tools at once from the 65 offered; Code Mode finds both in one program', async () => {
    const workspace = await folders.workspaceFor('tool-catalog');
    const react = await drive({ baseURL: sim.url, task: task.text, mode: 'react', workspace, taskId: 'tool-catalog' });
    expect((await validateAnswer(task, react.answer, { workspace }))?.ok, react.answer).toBe(true);
    expect(react.steps.map(toolNames)).toEqual([['convert_currency', 'city_distance'], []]);
    expect((react.bodies[0].tools as unknown[]).length).toBe(65);
    const code = await drive({ baseURL: sim.url, task: task.text, mode: 'code', workspace, taskId: 'tool-catalog' });
    expect((await validateAnswer(task, code.answer, { workspace }))?.ok, code.answer).toBe(true);
    expect(code.steps.map(toolNames)).toEqual([['run_code'], []]);
    expect(code.steps[0].results[0]).toMatch(/"result":37800/);
    expect(code.steps[0].usage!.prompt_tokens * 5).toBeLessThan(react.steps[0].usage!.prompt_tokens);
  });

  it('without the catalog (the task typed to a run that lacks it), each mode says which tools are missing', async () => {
    const workspace = await folders.emptyFolder('no-catalog');
    const react = await drive({ baseURL: sim.url, task: task.text, mode: 'react', workspace });
    expect(react.answer).toMatch(/needs the tools convert_currency, city_distance/);
    const code = await drive({ baseURL: sim.url, task: task.text, mode: 'code', workspace });
    expect(code.steps).toHaveLength(2);
    expect(code.answer).toMatch(/did not get both figures/);
  });
});
