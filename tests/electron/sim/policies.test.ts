import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { startSimServer, type SimServer } from '../../../electron/sim/index.js';
import { resolveTask } from '../../../electron/tasks/resolve.js';
import { startFixtureServer, type FixtureServer } from '../../../electron/tasks/fixture-server.js';
import { validateAnswer } from '../../../electron/tasks/index.js';
import { BUILTIN_TASKS } from '../../../shared/tasks.js';
import { logStatsStyle } from '../../../electron/sim/policies/log-stats.js';
import { drive, trialWhere, type Mode, closeSandbox, fixtureFolders, toolNames } from './drive.js';

let sim: SimServer;
let page: FixtureServer;
const folders = fixtureFolders('parallax-sim');
const { workspaceFor } = folders;

beforeAll(async () => {
  sim = await startSimServer();
  page = await startFixtureServer();
});
afterAll(async () => {
  closeSandbox();
  await sim.close();
  await page.close();
  await folders.removeAll();
});

describe('every built-in task × mode reaches a validated answer with real tools', () => {
  for (const task of BUILTIN_TASKS) {
    for (const mode of ['react', 'code'] as Mode[]) {
      it(`${task.id} / ${mode}`, async () => {
        const workspace = await workspaceFor(task.id);
        const ref = resolveTask(task.id, { fixtureUrl: page.url });
        const run = await drive({
          baseURL: sim.url,
          task: ref.text,
          mode,
          workspace,
          fixtureUrl: page.url,
          taskId: task.id,
        });
        const validation = await validateAnswer(ref, run.answer, { workspace, fixtureUrl: page.url });
        expect(validation, `${run.answer}\n${validation?.detail}`).toMatchObject({ ok: true });
        expect(run.answer).toContain('simulated');
        // Every step reported usage, and prompts grow as results pile up.
        for (const s of run.steps) expect(s.usage!.prompt_tokens).toBeGreaterThan(0);
        const prompts = run.steps.map((s) => s.usage!.prompt_tokens);
        expect([...prompts].sort((a, b) => a - b)).toEqual(prompts);
      });
    }
  }
});

describe("log-stats (the variants other than the seed's run; see calibration.test.ts)", () => {
  const reading = trialWhere(logStatsStyle, (s) => s.react === 'read' && s.checks.length === 0);
  const direct = trialWhere(logStatsStyle, (s) => !s.explore);

  it('a reading trial lists, reads every .txt in one step of parallel calls, then counts with the shell when reads were truncated', async () => {
    const workspace = await workspaceFor('log-stats', 11);
    const run = await drive({
      baseURL: sim.url,
      task: BUILTIN_TASKS[0].text,
      mode: 'react',
      workspace,
      trial: reading,
    });
    expect(toolNames(run.steps[0])).toEqual(['list_dir']);
    expect(toolNames(run.steps[1])).toEqual(Array(5).fill('read_file'));
    expect(run.steps[1].calls.map((c) => JSON.parse(c.function.arguments).path)).not.toContain('archive.log');
    expect(toolNames(run.steps[2])).toEqual(['run_shell', 'run_shell']);
    expect(run.steps).toHaveLength(4);
    expect(await validateAnswer({ id: 'log-stats', text: '' }, run.answer, { workspace })).toMatchObject({ ok: true });
  });

  it('a reading trial answers straight from the reads when nothing was truncated', async () => {
    const workspace = await workspaceFor('log-stats', 3);
    const run = await drive({
      baseURL: sim.url,
      task: BUILTIN_TASKS[0].text,
      mode: 'react',
      workspace,
      truncateChars: 1_000_000,
      trial: reading,
    });
    expect(run.steps.map(toolNames)).toEqual([['list_dir'], Array(5).fill('read_file'), []]);
    expect(await validateAnswer({ id: 'log-stats', text: '' }, run.answer, { workspace })).toMatchObject({ ok: true });
  });

  it('Code Mode without a first look needs one program and keeps the file contents out of the conversation', async () => {
    const workspace = await workspaceFor('log-stats', 5);
    const react = await drive({
      baseURL: sim.url,
      task: BUILTIN_TASKS[0].text,
      mode: 'react',
      workspace,
      trial: direct,
    });
    const code = await drive({ baseURL: sim.url, task: BUILTIN_TASKS[0].text, mode: 'code', workspace, trial: direct });
    expect(code.steps.map(toolNames)).toEqual([['run_code'], []]);
    expect(code.steps[0].results[0].split('\n')).toHaveLength(5);
    // Not one log line travels to the model: every line of the fixture starts with its ISO time stamp.
    expect(JSON.stringify(code.bodies)).not.toMatch(/\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z (INFO|WARN|ERROR)/);
    const total = (r: typeof code) => r.steps.reduce((n, s) => n + s.usage!.prompt_tokens, 0);
    expect(total(code)).toBeLessThan(total(react));
  });

  it('a reading trial answers plainly when a read fails instead of retrying forever', async () => {
    const workspace = await workspaceFor('log-stats');
    // A NUL byte makes read_file refuse the file as binary.
    await writeFile(path.join(workspace, 'billing.txt'), 'INFO start\n\0\nERROR stop\n');
    const run = await drive({
      baseURL: sim.url,
      task: BUILTIN_TASKS[0].text,
      mode: 'react',
      workspace,
      trial: reading,
    });
    expect(run.steps.length).toBeLessThanOrEqual(3);
    expect(run.answer).toMatch(/could not count/i);
    expect(run.answer).toContain('billing.txt');
  });
});

describe('time-and-title', () => {
  const text = () => resolveTask('time-and-title', { fixtureUrl: page.url }).text;

  it('ReAct calls current_time and fetch_url in parallel, then answers', async () => {
    const run = await drive({
      baseURL: sim.url,
      task: text(),
      mode: 'react',
      workspace: await workspaceFor('time-and-title'),
      fixtureUrl: page.url,
    });
    expect(toolNames(run.steps[0]).sort()).toEqual(['current_time', 'fetch_url']);
    expect(run.steps).toHaveLength(2);
    expect(run.answer).toContain(page.title);
  });

  it('Code Mode with return types shown uses .title in its first program', async () => {
    const run = await drive({
      baseURL: sim.url,
      task: text(),
      mode: 'code',
      workspace: await workspaceFor('time-and-title'),
      fixtureUrl: page.url,
    });
    expect(run.steps).toHaveLength(2);
    expect(JSON.parse(run.steps[0].calls[0].function.arguments).code).toContain('.title');
  });

  it('Code Mode with return types hidden guesses a string first, reads the error, then inspects the object', async () => {
    const workspace = await workspaceFor('time-and-title');
    const run = await drive({
      baseURL: sim.url,
      task: text(),
      mode: 'code',
      workspace,
      returnTypes: false,
      fixtureUrl: page.url,
    });
    expect(run.steps).toHaveLength(3);
    expect(JSON.parse(run.steps[0].calls[0].function.arguments).code).toContain('html.match(');
    expect(run.steps[0].results[0]).toMatch(/Error at line 5, column \d+: TypeError/);
    expect(run.steps[1].text).toMatch(/did not return a string/);
    expect(JSON.parse(run.steps[1].calls[0].function.arguments).code).toContain('Object.keys(page)');
    const v = await validateAnswer(resolveTask('time-and-title', { fixtureUrl: page.url }), run.answer, { workspace });
    expect(v).toMatchObject({ ok: true });
  });

  it('reports a page that cannot be fetched instead of looping', async () => {
    const dead = await startFixtureServer();
    await dead.close();
    const task = resolveTask('time-and-title', { fixtureUrl: dead.url }).text;
    for (const mode of ['react', 'code'] as Mode[]) {
      const run = await drive({
        baseURL: sim.url,
        task,
        mode,
        workspace: await workspaceFor('time-and-title'),
        fixtureUrl: dead.url,
      });
      expect(run.steps.length).toBeLessThanOrEqual(3);
      expect(run.answer).toMatch(/could not/i);
      expect(run.answer).toMatch(/connection refused/);
    }
  });
});

describe('weather-f and calc', () => {
  it('ReAct weather: get_weather, then calculator on its reading, then the answer', async () => {
    const run = await drive({
      baseURL: sim.url,
      task: BUILTIN_TASKS[2].text,
      mode: 'react',
      workspace: await workspaceFor('weather-f'),
    });
    expect(run.steps.map(toolNames)).toEqual([['get_weather'], ['calculator'], []]);
    const reading = JSON.parse(run.steps[0].results[0]) as { tempC: number };
    expect(JSON.parse(run.steps[1].calls[0].function.arguments).expression).toBe(`${reading.tempC} * 9 / 5 + 32`);
  });

  it('Code Mode weather with return types hidden looks at the object before converting', async () => {
    const run = await drive({
      baseURL: sim.url,
      task: BUILTIN_TASKS[2].text,
      mode: 'code',
      workspace: await workspaceFor('weather-f'),
      returnTypes: false,
    });
    expect(run.steps).toHaveLength(3);
    expect(await validateAnswer({ id: 'weather-f', text: '' }, run.answer, { workspace: '.' })).toMatchObject({
      ok: true,
    });
  });

  it('answers plainly when the arithmetic has no finite result', async () => {
    for (const mode of ['react', 'code'] as Mode[]) {
      const run = await drive({
        baseURL: sim.url,
        task: 'What is 1 / 0?',
        mode,
        workspace: await workspaceFor('calc'),
      });
      expect(run.steps).toHaveLength(2);
      expect(run.answer).toMatch(
        mode === 'react'
          ? /calculator failed: Error: "1 \/ 0" has no finite result/
          : /no finite numeric result: my program printed Infinity/,
      );
    }
  });

  it('follows the numbers in the question, not a fixed script', async () => {
    for (const mode of ['react', 'code'] as Mode[]) {
      const run = await drive({
        baseURL: sim.url,
        task: 'What is (17 + 4) * 3?',
        mode,
        workspace: await workspaceFor('calc'),
      });
      expect(run.answer).toContain('= 63');
    }
    const run = await drive({
      baseURL: sim.url,
      task: 'What is the temperature in London right now? Convert it to Fahrenheit.',
      mode: 'react',
      workspace: await workspaceFor('weather-f'),
    });
    expect(JSON.parse(run.steps[0].calls[0].function.arguments)).toEqual({ city: 'London' });
  });
});

describe('detectTask', () => {
  it('recognises the built-in tasks from their key phrases, also when worded by another agent', async () => {
    const { detectTask } = await import('../../../electron/sim/index.js');
    expect(detectTask('Count total lines and ERROR lines of each .txt log here; which has most?')).toEqual({
      id: 'log-stats',
    });
    expect(detectTask('What time is it in Europe/London? Also give the title of https://a.test/x.')).toEqual({
      id: 'time-and-title',
      url: 'https://a.test/x',
      timezone: 'Europe/London',
    });
    expect(detectTask('What is the temperature in New York now, in Fahrenheit?')).toEqual({
      id: 'weather-f',
      city: 'New York',
    });
    expect(detectTask('Please calculate 2 ^ 10 - 24')).toEqual({ id: 'calc', expression: '2 ^ 10 - 24' });
    for (const other of ['What is the title of the book The Time Machine?', 'What is 42?', 'Write a poem.', ''])
      expect(detectTask(other)).toBeNull();
  });
});
