/** owner-chain through the simulated model with real tools: ReAct pays a round trip per hop, a program chains them. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSimServer, type SimServer } from '../../../electron/sim/index.js';
import { resolveTask } from '../../../electron/tasks/resolve.js';
import { validateAnswer } from '../../../electron/tasks/index.js';
import { closeSandbox, drive, fixtureFolders, toolNames } from './drive.js';

let sim: SimServer;
const folders = fixtureFolders('parallax-sim-chain');
beforeAll(async () => {
  sim = await startSimServer();
});
afterAll(async () => {
  closeSandbox();
  await sim.close();
  await folders.removeAll();
});

describe('owner-chain', () => {
  const task = resolveTask('owner-chain', { fixtureUrl: null });

  it.each([1, 2, 3, 4, 5, 6])(
    'seed %i: ReAct reads log, config, person in three steps; Code Mode in one program',
    async (seed) => {
      const workspace = await folders.workspaceFor('owner-chain', seed);
      const react = await drive({ baseURL: sim.url, task: task.text, mode: 'react', workspace });
      expect((await validateAnswer(task, react.answer, { workspace }))?.ok, react.answer).toBe(true);
      expect(
        react.steps.map((s) => s.calls.map((c) => (JSON.parse(c.function.arguments) as { path: string }).path)),
      ).toEqual([
        ['incidents.log'],
        [expect.stringMatching(/^services\/[\w-]+\.json$/)],
        [expect.stringMatching(/^people\/e-\d+\.json$/)],
        [],
      ]);
      const code = await drive({ baseURL: sim.url, task: task.text, mode: 'code', workspace });
      expect((await validateAnswer(task, code.answer, { workspace }))?.ok, code.answer).toBe(true);
      expect(code.steps.map(toolNames)).toEqual([['run_code'], []]);
      // The log stays inside the program: Code Mode's last prompt is far smaller than ReAct's.
      expect(code.steps.at(-1)!.usage!.prompt_tokens * 3).toBeLessThan(react.steps.at(-1)!.usage!.prompt_tokens);
    },
  );

  it('answers plainly when a hop fails instead of retrying', async () => {
    const workspace = await folders.workspaceFor('owner-chain', 9);
    const { rm } = await import('node:fs/promises');
    await rm(`${workspace}/people`, { recursive: true });
    for (const mode of ['react', 'code'] as const) {
      const run = await drive({ baseURL: sim.url, task: task.text, mode, workspace });
      expect(run.answer).toMatch(/I could not/);
      expect(run.steps.length).toBeLessThanOrEqual(4);
    }
  });
});
