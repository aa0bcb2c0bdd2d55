/**
 * The simulated model tells the modes apart by the tools offered (and the text format in the system prompt), and its ReAct + tool search policies
 * search before calling and stop when a search finds nothing. Pure calls to decide(): no server, no tools.
 */
import { mkdtemp, realpath, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMode } from '../../../electron/engine/modes/index.js';
import { decide } from '../../../electron/sim/index.js';
import { modeOf } from '../../../electron/sim/policies/index.js';
import { SEARCH_QUERIES } from '../../../electron/sim/policies/react-search.js';
import type { WireMessage, WireTool } from '../../../electron/sim/types.js';
import { MODE_IDS, parseSettings, type ModeId } from '../../../shared/run-spec.js';
import { BUILTIN_TASKS } from '../../../shared/tasks.js';

let workspace: string;
const wire = new Map<ModeId, WireTool[]>();
const prompts = new Map<ModeId, string>();

beforeAll(async () => {
  workspace = await realpath(await mkdtemp(join(tmpdir(), 'parallax-sim-modes-')));
  for (const id of MODE_IDS) {
    const mode = createMode(id, { workspace, settings: parseSettings({}) });
    // A text mode offers its tools in the system prompt, not as a tools parameter.
    wire.set(
      id,
      mode.text
        ? []
        : mode.tools().map((t) => ({
            type: 'function',
            function: { name: t.name, description: t.description, parameters: t.parameters },
          })),
    );
    prompts.set(id, mode.systemPrompt);
    mode.dispose?.();
  }
});
afterAll(async () => {
  await rm(workspace, { recursive: true, force: true });
});

const task = (id: string) => BUILTIN_TASKS.find((t) => t.id === id)!.text;
const names = (tools: readonly WireTool[]) => new Set(tools.map((t) => t.function.name));
const plannedCalls = (r: ReturnType<typeof decide>['reply']) =>
  r.kind === 'tools' ? r.calls.map((c) => [c.name, JSON.parse(c.arguments)]) : [];

describe('the simulated model and the modes', () => {
  it('recognises each mode from the tools its first request offers, and ReAct + tool search once tools were added', () => {
    const runCode = (tools: readonly WireTool[]) =>
      tools.find((t) => t.function.name === 'run_code')?.function.description;
    for (const id of MODE_IDS)
      expect(
        modeOf(names(wire.get(id)!), { systemPrompt: prompts.get(id), runCodeDescription: runCode(wire.get(id)!) }),
      ).toBe(id);
    const grown = [
      ...wire.get('react-search')!,
      ...wire.get('react')!.filter((t) => t.function.name === 'get_weather'),
    ];
    expect(modeOf(names(grown))).toBe('react-search');
  });

  it('ReAct + tool search looks for both hidden tools of time-and-title in one step; ReAct calls them at once', () => {
    const messages: WireMessage[] = [
      { role: 'user', content: task('time-and-title').replace('{{FIXTURE_URL}}', 'http://127.0.0.1:9/page') },
    ];
    expect(plannedCalls(decide(messages, wire.get('react-search')!).reply)).toEqual([
      ['search_tools', { query: SEARCH_QUERIES.current_time }],
      ['search_tools', { query: SEARCH_QUERIES.fetch_url }],
    ]);
    expect(plannedCalls(decide(messages, wire.get('react')!).reply).map(([n]) => n)).toEqual([
      'current_time',
      'fetch_url',
    ]);
  });

  it('Hybrid writes a program for the batch work of log-stats', () => {
    const reply = decide([{ role: 'user', content: task('log-stats') }], wire.get('hybrid')!).reply;
    expect(plannedCalls(reply).map(([n]) => n)).toEqual(['run_code']);
  });

  it("searches once more by the tool's likely name when a search found nothing, then answers quoting the search", () => {
    const messages: WireMessage[] = [
      { role: 'user', content: task('calc') },
      {
        role: 'assistant',
        content: null,
        tool_calls: [
          {
            id: 'c1',
            type: 'function',
            function: { name: 'search_tools', arguments: JSON.stringify({ query: SEARCH_QUERIES.calculator }) },
          },
        ],
      },
      {
        role: 'tool',
        tool_call_id: 'c1',
        content: 'No tool matched "arithmetic calculator". Try other English words.',
      },
    ];
    const again = decide(messages, wire.get('react-search')!).reply;
    expect(plannedCalls(again)).toEqual([['search_tools', { query: 'calculator' }]]);
    messages.push(
      {
        role: 'assistant',
        content: null,
        tool_calls: [
          {
            id: 'c2',
            type: 'function',
            function: { name: 'search_tools', arguments: JSON.stringify({ query: 'calculator' }) },
          },
        ],
      },
      { role: 'tool', tool_call_id: 'c2', content: 'No tool matched "calculator". Try other English words.' },
    );
    const reply = decide(messages, wire.get('react-search')!).reply;
    expect(reply.kind).toBe('text');
    expect(reply.text).toMatch(
      /could not find the tools.*\n- calculator: search_tools\("calculator"\) answered: No tool matched/,
    );
  });
});
