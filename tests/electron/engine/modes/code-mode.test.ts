/** Code Mode as the loop sees it: one run_code tool, one code-run event per call, the text for the model. */
import { mkdtemp, realpath, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCodeMode } from '../../../../electron/engine/modes/code-mode.js';
import type { CallContext, ModeAdapter } from '../../../../electron/engine/modes/mode.js';
import { LOG_STATS_PROGRAM } from '../../../../electron/sim/policies/log-stats.js';
import { programOutput } from '../../../../electron/sim/policies/common.js';
import { startFixtureServer, type FixtureServer } from '../../../../electron/tasks/fixture-server.js';
import { openRunToolState } from '../../../../electron/engine/tools/run-state.js';
import { warmUpTools } from '../../../../electron/engine/tools/index.js';
import { parseSettings } from '../../../../shared/run-spec.js';
import type { CodeRunEvent, StepEventInput, ToolSearchEvent } from '../../../../shared/step-event.js';

let workspace: string;
let mode: ModeAdapter;
let server: FixtureServer;

beforeAll(async () => {
  workspace = await realpath(await mkdtemp(join(tmpdir(), 'parallax-code-mode-')));
  await writeFile(join(workspace, 'app.txt'), 'ok\nERROR disk\nok\nERROR net\n');
  await writeFile(join(workspace, 'db.txt'), 'ERROR lock\nok\n');
  await writeFile(join(workspace, 'notes.md'), 'not a log');
  server = await startFixtureServer();
  await warmUpTools(); // as a worker does before a run
  // The engine lets fetch_url reach the run's own fixture page, and no other local origin.
  openRunToolState(workspace, { localOrigins: [new URL(server.url).origin] });
  mode = createCodeMode({ workspace, settings: parseSettings({}) });
});
afterAll(async () => {
  mode.dispose?.();
  await server.close();
  await rm(workspace, { recursive: true, force: true });
});

function context(step = 1, callId = 'call_1'): CallContext & { events: StepEventInput[] } {
  const events: StepEventInput[] = [];
  return { step, callId, signal: new AbortController().signal, emit: (e) => events.push(e), events };
}

describe('what the model is offered', () => {
  it('exactly one tool, run_code, whose description carries the catalog with return types', () => {
    const tools = mode.tools();
    expect(tools.map((t) => t.name)).toEqual(['run_code']);
    const [runCode] = tools;
    expect(runCode.parameters).toEqual({
      type: 'object',
      properties: { code: { type: 'string', description: 'The JavaScript program to run.' } },
      required: ['code'],
      additionalProperties: false,
    });
    const d = runCode.description;
    for (const line of [
      '- list_dir(path: string = "."): string[]',
      '- read_file(path: string): string',
      '- write_file(path: string, content: string): string',
    ]) {
      expect(d).toContain(line);
    }
    expect(d).toMatch(/^- run_shell\(command: string\): \{exitCode/m);
    expect(d).toContain('- search_tools(query: string): tool[]');
    expect(d).toContain("search_tools('download web page')[0]");
    expect(d).toMatch(/Only what it prints/);
    expect(d).toMatch(/starts fresh/);
    // Hidden tools are not named: the catalog stays short and search finds them.
    for (const hidden of ['fetch_url', 'current_time', 'calculator', 'get_weather']) expect(d).not.toContain(hidden);
    expect(d.length).toBeLessThan(1200);
    expect(mode.systemPrompt).toMatch(/run_code/);
    expect(mode.systemPrompt).toMatch(/plain text/);
  });

  it('with return types off, catalog lines end at the parameter list', () => {
    const bare = createCodeMode({ workspace, settings: parseSettings({ returnTypes: false }) });
    const d = bare.tools()[0].description;
    bare.dispose?.();
    expect(d).toContain('- read_file(path: string)\n');
    expect(d).toContain('- list_dir(path: string = ".")\n');
    expect(d).toContain('- search_tools(query: string) — finds');
    expect(d).not.toContain(': string[]');
  });
});

describe('handleCall', () => {
  it('runs the program and emits one code-run event with everything measured', async () => {
    const ctx = context(2, 'call_a');
    const text = await mode.handleCall('run_code', { code: LOG_STATS_PROGRAM }, ctx);
    expect(text).toBe('app.txt\t4\t2\ndb.txt\t2\t1');
    expect(ctx.events).toHaveLength(1);
    const event = ctx.events[0] as Omit<CodeRunEvent, 'runId' | 'seq' | 't'>;
    expect(event).toMatchObject({
      type: 'code-run',
      step: 2,
      callId: 'call_a',
      code: LOG_STATS_PROGRAM,
      output: 'app.txt\t4\t2\ndb.txt\t2\t1\n',
      error: null,
      limitHit: null,
    });
    expect(event.toolCalls.map((c) => c.name)).toEqual(['list_dir', 'read_file', 'read_file']);
    expect(event.toolBytes).toBe(event.toolCalls.reduce((n, c) => n + c.resultBytes, 0));
    expect(event.toolBytes).toBeGreaterThan(event.printedBytes);
    expect(event.printedBytes).toBe(Buffer.byteLength(event.output));
    expect(event.durationMs).toBeGreaterThan(0);
  });

  it('emits a tool-search event per search_tools call, before the code-run event', async () => {
    const ctx = context();
    const code = `const fetchPage = search_tools('download web page')[0];\nconst page = fetchPage(${JSON.stringify(server.url)});\nprint('title: ' + page.title);`;
    const text = await mode.handleCall('run_code', { code }, ctx);
    expect(text).toBe(`title: ${server.title}`);
    expect(ctx.events.map((e) => e.type)).toEqual(['tool-search', 'code-run']);
    const search = ctx.events[0] as Omit<ToolSearchEvent, 'runId' | 'seq' | 't'>;
    expect(search).toMatchObject({ step: 1, callId: 'call_1', query: 'download web page' });
    expect(search.hits[0].name).toBe('fetch_url');
    expect(search.hits[0].score).toBeGreaterThan(0);
    expect(search.hits[0].signature).toBe(
      'fetch_url(url: string): {status: number, contentType: string, title: string, text: string}',
    );
  });

  it('records search hits without return types when the setting hides them from the model', async () => {
    const bare = createCodeMode({ workspace, settings: parseSettings({ returnTypes: false }) });
    const ctx = context();
    try {
      await bare.handleCall('run_code', { code: "print(search_tools('download web page')[0])" }, ctx);
    } finally {
      bare.dispose?.();
    }
    const search = ctx.events[0] as Omit<ToolSearchEvent, 'runId' | 'seq' | 't'>;
    expect(search.hits[0].signature).toBe('fetch_url(url: string)');
  });

  it("reproduces a model's wrong guess without return types: treating fetch_url's object as HTML fails at that line", async () => {
    const code = `const fetchPage = search_tools('download web page')[0];\nconst html = fetchPage(${JSON.stringify(server.url)});\nconst title = html.match(/<title>([^<]*)<\\/title>/i)[1];\nprint('title: ' + title);`;
    const text = await mode.handleCall('run_code', { code }, context());
    expect(text).toBe('Error at line 3, column 15: TypeError: not a function');
    // The simulated model's parser reads the same text.
    expect(programOutput(text)).toEqual({
      printed: '',
      error: 'Error at line 3, column 15: TypeError: not a function',
    });
  });

  it('returns output, then the error line, and records the error in the event', async () => {
    const ctx = context();
    const text = await mode.handleCall('run_code', { code: "print('partial');\nread_file('missing.txt');" }, ctx);
    expect(text).toMatch(/^partial\nError at line 2, column 1: ToolError: No file at "missing.txt"/);
    const event = ctx.events[0] as CodeRunEvent;
    expect(event.error).toMatchObject({ line: 2, column: 1 });
    expect(programOutput(text).printed).toBe('partial');
  });

  it('says so when nothing was printed', async () => {
    expect(await mode.handleCall('run_code', { code: "const names = list_dir('.');" }, context())).toBe(
      '(no output — print the results you need)',
    );
  });

  it('a limit hit is in the event and in the text', async () => {
    const quick = createCodeMode({ workspace, settings: parseSettings({ codeTimeoutMs: 300 }) });
    const ctx = context();
    const text = await quick.handleCall('run_code', { code: 'while (true) {}' }, ctx);
    quick.dispose?.();
    expect(text).toMatch(/^Error: time limit of 300 ms exceeded — the program was stopped/);
    expect((ctx.events[0] as CodeRunEvent).limitHit).toBe('time');
  });

  it('explains argument shapes it cannot run, without running anything', async () => {
    const ctx = context();
    expect(await mode.handleCall('run_code', {}, ctx)).toMatch(
      /^run_code needs \{"code": "<JavaScript program>"\}.*got no arguments/,
    );
    expect(await mode.handleCall('run_code', { program: 'print(1)' }, ctx)).toContain('got "program"');
    expect(await mode.handleCall('run_code', { code: 42 }, ctx)).toContain('with the program as one string');
    expect(await mode.handleCall('read_file', { path: 'a' }, ctx)).toMatch(
      /^Tool "read_file" does not exist\. The only tool is run_code/,
    );
    expect(ctx.events).toHaveLength(0);
  });

  it('each call starts fresh', async () => {
    await mode.handleCall('run_code', { code: 'globalThis.kept = 1;' }, context());
    expect(await mode.handleCall('run_code', { code: 'print(typeof kept);' }, context())).toBe('undefined');
  });
});
