/** tool-catalog through the simulated model with real tools: ReAct carries 65 schemas, Code Mode finds two by search. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSimServer, type SimServer } from '../../../electron/sim/index.js';
import { resolveTask } from '../../../electron/tasks/resolve.js';
import { runTaskOf, validateAnswer } from '../../../electron/tasks/index.js';
import { createMode } from '../../../electron/engine/modes/index.js';
import { decide } from '../../../electron/sim/index.js';
import { SEARCH_QUERIES } from '../../../electron/sim/policies/react-search.js';
import type { WireMessage, WireTool } from '../../../electron/sim/types.js';
import { parseSettings, type ModeId } from '../../../shared/run-spec.js';
import { closeSandbox, drive, fixtureFolders, toolNames } from './drive.js';

/** The tools a mode's first request offers in a tool-catalog run. */
function offered(mode: ModeId, workspace: string): WireTool[] {
  const adapter = createMode(mode, { workspace, settings: parseSettings({}), task: runTaskOf({ id: 'tool-catalog' }) });
  const tools = adapter.tools().map((t) => ({
    type: 'function' as const,
    function: { name: t.name, description: t.description, parameters: t.parameters },
  }));
  adapter.dispose?.();
  return tools;
}

const call = (id: string, name: string, args: unknown) => ({
  id,
  type: 'function' as const,
  function: { name, arguments: JSON.stringify(args) },
});

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

  it('every mode gets the catalog its own way: ReAct all 65 schemas, the others search; ReAct + tool search looks for both in one step', async () => {
    const workspace = await folders.emptyFolder('offered');
    expect(offered('react', workspace)).toHaveLength(65);
    for (const mode of ['code', 'hybrid', 'react-search'] as const)
      expect(
        offered(mode, workspace).some((t) => t.function.name === 'convert_currency'),
        mode,
      ).toBe(false);
    const reply = decide([{ role: 'user', content: task.text }], offered('react-search', workspace)).reply;
    expect(reply.kind === 'tools' ? reply.calls.map((c) => [c.name, JSON.parse(c.arguments)]) : []).toEqual([
      ['search_tools', { query: SEARCH_QUERIES.convert_currency }],
      ['search_tools', { query: SEARCH_QUERIES.city_distance }],
    ]);
  });

  it('a tool error is reported in the answer, not retried', async () => {
    const workspace = await folders.emptyFolder('tool-error');
    const messages: WireMessage[] = [
      { role: 'user', content: task.text },
      {
        role: 'assistant',
        content: null,
        tool_calls: [
          call('a', 'convert_currency', { amount: 250, from: 'USD', to: 'JPY' }),
          call('b', 'city_distance', { from: 'Paris', to: 'Berlin' }),
        ],
      },
      { role: 'tool', tool_call_id: 'a', content: 'Error: convert_currency failed: rate service unavailable' },
      { role: 'tool', tool_call_id: 'b', content: '{"from":"Paris","to":"Berlin","km":877.5,"demo":true}' },
    ];
    const reply = decide(messages, offered('react', workspace)).reply;
    expect(reply.kind).toBe('text');
    expect(reply.kind === 'text' ? reply.text : '').toMatch(
      /convert_currency answered Error: convert_currency failed: rate service unavailable/,
    );
  });
});
