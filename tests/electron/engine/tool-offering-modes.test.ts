/**
 * The four ways of offering tools, end to end: runEngine over real HTTP against the simulated model, every
 * mode on every built-in task (each on its own fixture copy), then `parallax compare` with all four modes.
 */
import { randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';

// The Code Mode (Python) runs' programs on one Pyodide child (tests/helpers/shared-sandboxes.ts).
vi.mock('../../../electron/engine/sandbox/python/py-sandbox.js', async (original) =>
  (await import('../../helpers/shared-sandboxes.js')).onePyChild(await original()),
);
import { MODE_IDS, parseSettings, type ModeId, type RunSettingsInput } from '../../../shared/run-spec.js';
import type { StepEvent } from '../../../shared/step-event.js';
import { summarizeRun, type RunSummary } from '../../../shared/summary.js';
import { BUILTIN_TASKS } from '../../../shared/tasks.js';
import { runEngine } from '../../../electron/engine/run-engine.js';
import { startSimServer, type SimServer } from '../../../electron/sim/index.js';
import { prepareFixture } from '../../../electron/tasks/fixtures.js';
import { resolveTask } from '../../../electron/tasks/resolve.js';
import { runTaskOf } from '../../../electron/tasks/index.js';
import { startFixtureServer, type FixtureServer } from '../../../electron/tasks/fixture-server.js';
import { runCli } from '../host/cli-process.js';
import { closeSharedSandboxes } from '../../helpers/shared-sandboxes.js';

let sim: SimServer;
let page: FixtureServer;
const dirs: string[] = [];
const runs = new Map<string, { events: StepEvent[]; summary: RunSummary }>();

async function run(task: string, mode: ModeId, settings: RunSettingsInput = {}) {
  const workspace = await mkdtemp(join(tmpdir(), 'parallax-offering-'));
  dirs.push(workspace);
  await prepareFixture(task, workspace);
  const events: StepEvent[] = [];
  const ref = resolveTask(task, { fixtureUrl: page.url });
  await runEngine(
    {
      runId: randomUUID(),
      task: ref,
      mode,
      provider: { name: 'simulated', baseUrl: sim.url, model: 'sim', simulated: true },
      apiKeyEnv: null,
      settings: parseSettings(settings),
      workspace,
      fixtureUrl: page.url,
    },
    { apiKey: null, signal: new AbortController().signal, emit: (e) => events.push(e) },
    runTaskOf(ref),
  );
  return { events, summary: summarizeRun(events) };
}

beforeAll(async () => {
  sim = await startSimServer();
  page = await startFixtureServer();
  // One run per mode and task, the four modes of a task at once, as a comparison starts them.
  for (const task of BUILTIN_TASKS) {
    const done = await Promise.all(MODE_IDS.map((mode) => run(task.id, mode)));
    MODE_IDS.forEach((mode, i) => runs.set(`${mode}/${task.id}`, done[i]));
  }
});
afterAll(async () => {
  closeSharedSandboxes();
  await sim.close();
  await page.close();
  await Promise.all(dirs.map((d) => rm(d, { recursive: true, force: true })));
});

const of = (mode: ModeId, task: string) => runs.get(`${mode}/${task}`)!;
const ofType = <T extends StepEvent['type']>(events: StepEvent[], type: T) =>
  events.filter((e): e is Extract<StepEvent, { type: T }> => e.type === type);
const firstPrompt = (mode: ModeId, task: string) => ofType(of(mode, task).events, 'model-response')[0].usage!.prompt;
const callsPerStep = (events: StepEvent[]) =>
  ofType(events, 'model-response').map((r) => r.toolCalls.map((c) => c.name).sort());
const requestTools = (events: StepEvent[]) => ofType(events, 'model-request').map((r) => r.toolNames);
const COMMON = ['list_dir', 'read_file', 'write_file', 'run_shell', 'search_tools'];

describe('Hybrid and ReAct + tool search with the simulated model', () => {
  it('answer every built-in task, and the answers pass validation', () => {
    for (const mode of ['hybrid', 'react-search'] as const) {
      for (const task of BUILTIN_TASKS) {
        const { summary } = of(mode, task.id);
        expect([mode, task.id, summary.status, summary.validation?.ok], summary.validation?.detail).toEqual([
          mode,
          task.id,
          'answered',
          true,
        ]);
      }
    }
  });

  it('ReAct + tool search sends a smaller first request than ReAct on every task', () => {
    for (const task of BUILTIN_TASKS)
      expect(firstPrompt('react-search', task.id), task.id).toBeLessThan(firstPrompt('react', task.id));
  });

  it('ReAct + tool search on time-and-title: two searches at once, both found tools at once, then the answer', () => {
    const { events } = of('react-search', 'time-and-title');
    expect(callsPerStep(events)).toEqual([['search_tools', 'search_tools'], ['current_time', 'fetch_url'], []]);
    const tools = requestTools(events);
    expect(tools[0]).toEqual(COMMON);
    for (const later of tools.slice(1)) expect(later).toEqual([...COMMON, 'current_time', 'fetch_url']);
    // One tool-search event per search call, in the step and under the id of that call.
    const searchCalls = ofType(events, 'tool-started').filter((t) => t.name === 'search_tools');
    const searches = ofType(events, 'tool-search');
    expect(searches.map((s) => [s.step, s.callId])).toEqual(searchCalls.map((c) => [c.step, c.callId]));
    expect(searches.map((s) => s.hits[0]?.name)).toEqual(['current_time', 'fetch_url']);
  });

  it('ReAct + tool search on weather-f finds each tool when it needs it: the tool list grows twice', () => {
    const { events } = of('react-search', 'weather-f');
    expect(callsPerStep(events)).toEqual([['search_tools'], ['get_weather'], ['search_tools'], ['calculator'], []]);
    expect(new Set(requestTools(events).map((t) => t.join()))).toEqual(
      new Set([COMMON, [...COMMON, 'get_weather'], [...COMMON, 'get_weather', 'calculator']].map((t) => t.join())),
    );
    expect(ofType(events, 'tool-search')).toHaveLength(2);
  });

  it('ReAct + tool search on log-stats works as ReAct, without searching', () => {
    const { events } = of('react-search', 'log-stats');
    expect(callsPerStep(events)).toEqual(callsPerStep(of('react', 'log-stats').events));
    expect(ofType(events, 'tool-search')).toHaveLength(0);
  });

  it('Hybrid does log-stats with programs (a first look, then one counting program), and its first request sits between Code Mode and ReAct', () => {
    const { events } = of('hybrid', 'log-stats');
    expect(callsPerStep(events)).toEqual([['run_code'], ['run_code'], []]);
    expect(ofType(events, 'code-run')).toHaveLength(2);
    expect(ofType(events, 'code-run')[1].toolCalls.filter((c) => c.name === 'read_file').length).toBeGreaterThan(1);
    for (const task of BUILTIN_TASKS) {
      expect(firstPrompt('hybrid', task.id), task.id).toBeGreaterThan(firstPrompt('code', task.id));
      expect(firstPrompt('hybrid', task.id), task.id).toBeLessThan(firstPrompt('react', task.id));
    }
  });

  it('tells the model about an unknown tool, listing the tools of its mode, and goes on', async () => {
    const expected: Record<string, string> = {
      hybrid: 'list_dir, read_file, run_code',
      'react-search': COMMON.join(', '),
    };
    for (const mode of ['hybrid', 'react-search'] as const) {
      const { events, summary } = await run('calc', mode, { simFaults: ['unknown-tool'] });
      const failed = ofType(events, 'tool-finished').find((t) => t.error !== null)!;
      expect(failed.output).toMatch(
        new RegExp(`^Error: Tool "\\w+" does not exist\\. Available tools: ${expected[mode]}\\. Call one`),
      );
      expect(summary.validation?.ok).toBe(true);
    }
  });
});

describe('parallax compare with the four modes', () => {
  it('--modes react,code,hybrid,react-search --json: all four answer time-and-title', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'parallax-cli-four-'));
    dirs.push(dataDir);
    const env: NodeJS.ProcessEnv = { ...process.env, PARALLAX_DATA_DIR: dataDir };
    delete env.OPENAI_API_KEY;
    const res = await runCli(['compare', '--task', 'time-and-title', '--modes', MODE_IDS.join(','), '--json'], env);
    expect(res.code, res.stderr).toBe(0);
    const out = JSON.parse(res.stdout) as {
      runs: { mode: string; status: string; validation: { ok: boolean } | null }[];
    };
    expect(out.runs.map((r) => [r.mode, r.status, r.validation?.ok])).toEqual(
      MODE_IDS.map((m) => [m, 'answered', true]),
    );
    expect(res.stderr).toMatch(/\[ReAct \+ tool search\]\s+1 /);
  });
});
