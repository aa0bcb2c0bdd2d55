/**
 * The simulated model serving another ReAct agent whose tools answer in plain text, not Parallax's JSON
 * shapes: a listing one name per line, shell output as printed, a time and a page as lines of text. The
 * agent side runs real tools over the real workspace (fs, /bin/sh, fetch) and returns what they give as text.
 */
import { exec } from 'node:child_process';
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSimServer, type SimServer } from '../../../electron/sim/index.js';
import { logStatsStyle } from '../../../electron/sim/policies/log-stats.js';
import { resolveTask } from '../../../electron/tasks/resolve.js';
import { startFixtureServer, type FixtureServer } from '../../../electron/tasks/fixture-server.js';
import { validateAnswer } from '../../../electron/tasks/index.js';
import { capturingClient, fixtureFolders, trialWhere, type Msg, type WireCall } from './drive.js';

let sim: SimServer;
let page: FixtureServer;
const folders = fixtureFolders('parallax-plain-tools');

beforeAll(async () => {
  sim = await startSimServer();
  page = await startFixtureServer();
});
afterAll(async () => {
  await sim.close();
  await page.close();
  await folders.removeAll();
});

const fn = (name: string, params: string[]) => ({
  type: 'function',
  function: {
    name,
    description: name.replace('_', ' '),
    parameters: {
      type: 'object',
      properties: Object.fromEntries(params.map((p) => [p, { type: 'string' }])),
      required: params,
    },
  },
});
const TOOLS = [
  fn('list_dir', ['path']),
  fn('read_file', ['path']),
  fn('run_shell', ['command']),
  fn('current_time', ['timezone']),
  fn('fetch_url', ['url']),
];

async function plainTool(name: string, args: Record<string, string>, workspace: string): Promise<string> {
  switch (name) {
    case 'list_dir':
      return (await readdir(path.join(workspace, args.path ?? '.'))).sort().join('\n');
    case 'read_file':
      return readFile(path.join(workspace, args.path), 'utf8');
    case 'run_shell':
      return new Promise((resolve) =>
        exec(args.command, { cwd: workspace }, (_err, stdout, stderr) =>
          resolve(`${stdout}${stderr}` || '(no output)'),
        ),
      );
    case 'current_time':
      return `${new Date().toLocaleString('sv-SE', { timeZone: args.timezone })} (${args.timezone})`;
    case 'fetch_url': {
      const html = await (await fetch(args.url)).text();
      return `Title: ${/<title>([^<]*)<\/title>/i.exec(html)?.[1] ?? ''}\n\n${html.replace(/<[^>]+>/g, ' ').slice(0, 300)}`;
    }
  }
  return `Error: unknown tool ${name}`;
}

async function plainAgent(task: string, workspace: string, trial: number) {
  const client = capturingClient(sim.url, [], { 'x-parallax-sim-trial': String(trial) });
  const messages: Msg[] = [{ role: 'user', content: task }];
  const results: string[] = [];
  for (let step = 0; step < 8; step++) {
    const reply = await client.chat.completions.create({
      model: 'sim',
      messages: messages as never,
      tools: TOOLS as never,
    });
    const message = reply.choices[0].message;
    const calls = (message.tool_calls ?? []) as WireCall[];
    messages.push({ role: 'assistant', content: message.content, ...(calls.length ? { tool_calls: calls } : {}) });
    if (calls.length === 0)
      return {
        answer: message.content ?? '',
        results,
        calls: messages.flatMap((m) => (m.tool_calls as WireCall[] | undefined) ?? []),
      };
    for (const call of calls) {
      const result = await plainTool(
        call.function.name,
        JSON.parse(call.function.arguments) as Record<string, string>,
        workspace,
      );
      results.push(result);
      messages.push({ role: 'tool', tool_call_id: call.id, content: result });
    }
  }
  throw new Error('no answer after 8 steps');
}

describe('another ReAct agent whose tools answer in plain text', () => {
  it('log-stats with shell output as printed (the documented trial)', async () => {
    const workspace = await folders.workspaceFor('log-stats', 11);
    const task = resolveTask('log-stats', { fixtureUrl: null });
    const run = await plainAgent(task.text, workspace, 1);
    expect(run.calls.map((c) => c.function.name)).toEqual(['run_shell', 'run_shell', 'run_shell', 'run_shell']);
    expect((await validateAnswer(task, run.answer, { workspace }))?.ok).toBe(true);
  });

  it('log-stats reading the files: a listing with one name per line', async () => {
    const trial = trialWhere(logStatsStyle, (s) => s.react === 'read');
    const workspace = await folders.workspaceFor('log-stats', 12);
    const task = resolveTask('log-stats', { fixtureUrl: null });
    const run = await plainAgent(task.text, workspace, trial);
    expect(run.calls[0].function.name).toBe('list_dir');
    expect(run.calls.filter((c) => c.function.name === 'read_file').length).toBeGreaterThan(1);
    expect((await validateAnswer(task, run.answer, { workspace }))?.ok).toBe(true);
  });

  it('time-and-title with the time and the page as text', async () => {
    const workspace = await folders.emptyFolder('time-and-title');
    const task = resolveTask('time-and-title', { fixtureUrl: page.url });
    const run = await plainAgent(task.text, workspace, 1);
    expect(run.calls.map((c) => c.function.name).sort()).toEqual(['current_time', 'fetch_url']);
    expect((await validateAnswer(task, run.answer, { workspace }))?.ok, run.answer).toBe(true);
  });
});
