/**
 * MCP tools in runs, end to end through runEngine: every mode calls our test server's tools through its own
 * way (native calls, run_code programs in JavaScript and Python, search_tools, text actions), against a
 * scripted model; the calls are recorded like any tool's. Then the simulated model: every mode still answers
 * every built-in task with an MCP server beside its tools, and a server that fails is a run warning naming it.
 */
import { randomUUID } from 'node:crypto';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';

// The Code Mode (Python) runs' programs on one Pyodide child (tests/helpers/shared-sandboxes.ts).
vi.mock('../../../../electron/engine/sandbox/python/py-sandbox.js', async (original) =>
  (await import('../../../helpers/shared-sandboxes.js')).onePyChild(await original()),
);
import { closeSharedSandboxes } from '../../../helpers/shared-sandboxes.js';
import { MODE_IDS, parseSettings, type ModeId } from '../../../../shared/run-spec.js';
import type { McpServerConfig } from '../../../../shared/mcp-config.js';
import type { StepEvent } from '../../../../shared/step-event.js';
import { runEngine, warmUpEngine } from '../../../../electron/engine/run-engine.js';
import { startSimServer, type SimServer } from '../../../../electron/sim/index.js';
import { prepareFixture } from '../../../../electron/tasks/fixtures.js';
import { resolveTask } from '../../../../electron/tasks/resolve.js';
import { stdioServer } from '../../../helpers/mcp-test-server.js';
import { runTaskOf } from '../../../../electron/tasks/index.js';

function chunk(delta: object, finish: string | null = null): string {
  return `data: ${JSON.stringify({ id: 'x', object: 'chat.completion.chunk', created: 0, model: 'm', choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`;
}
type Call = { name: string; arguments: string };
const JS = 'const [add] = search_tools("add two numbers sum"); print(add(2, 40).sum); print(add({a: 1, b: 2}).sum);';
const PY = 'add = search_tools("add two numbers sum")[0]\nprint(add(2, 40)["sum"])\nprint(add(a=1, b=2)["sum"])';

/** Per mode, what the scripted model does at each step (no entry: answer). */
const SCRIPT: Partial<Record<ModeId, (Call[] | string)[]>> = {
  react: [
    [
      { name: 't_add', arguments: '{"a":2,"b":40}' },
      { name: 't_fail', arguments: '{"reason":"no access"}' },
    ],
  ],
  'react-search': [
    [{ name: 'search_tools', arguments: '{"query":"add two numbers sum"}' }],
    [{ name: 't_add', arguments: '{"a":2,"b":40}' }],
  ],
  'react-text': ['Thought: add them.\nAction: t_add\nAction Input: {"a": 2, "b": 40}\n'],
  code: [[{ name: 'run_code', arguments: JSON.stringify({ code: JS }) }]],
  hybrid: [[{ name: 'run_code', arguments: JSON.stringify({ code: JS }) }]],
  'code-py': [[{ name: 'run_code', arguments: JSON.stringify({ code: PY }) }]],
};

let model: Server;
let url = '';
let sim: SimServer;
const bodies = new Map<string, Record<string, unknown>[]>();
const dirs: string[] = [];

async function workspaceFor(task?: string): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'parallax-mcp-run-'));
  dirs.push(dir);
  if (task) await prepareFixture(task, dir);
  return dir;
}

interface RunOptions {
  task?: string;
  sim?: boolean;
  approvals?: Record<string, string>;
  answer?: 'allow' | 'deny';
}

async function run(mode: ModeId, servers: readonly McpServerConfig[], opts: RunOptions = {}): Promise<StepEvent[]> {
  const events: StepEvent[] = [];
  const runId = randomUUID();
  const task = opts.task ? resolveTask(opts.task, { fixtureUrl: null }) : { id: null, text: 'add 2 and 40' };
  await runEngine(
    {
      runId,
      task,
      mode,
      provider: opts.sim
        ? { name: 'simulated', baseUrl: sim.url, model: 'sim', simulated: true }
        : { name: 'scripted', baseUrl: url, model: 'm', simulated: false },
      apiKeyEnv: null,
      settings: parseSettings({ maxSteps: 6, ...(opts.approvals ? { approvals: opts.approvals } : {}) }),
      workspace: await workspaceFor(opts.task),
      mcpServers: servers,
    },
    {
      apiKey: null,
      signal: new AbortController().signal,
      emit: (e) => events.push(e),
      ...(opts.answer ? { askApproval: async () => opts.answer! } : {}),
    },
    runTaskOf(task),
  );
  return events;
}

beforeAll(async () => {
  sim = await startSimServer();
  model = createServer((req, res) => {
    const body: Buffer[] = [];
    req.on('data', (c: Buffer) => body.push(c));
    req.on('end', () => {
      const request = JSON.parse(Buffer.concat(body).toString('utf8')) as {
        messages: { role: string; content: unknown }[];
        tools?: unknown[];
      };
      const step = request.messages.filter((m) => m.role === 'assistant').length;
      const key = modeOfRequest(request);
      bodies.set(key, [...(bodies.get(key) ?? []), request]);
      const next = SCRIPT[key]?.[step];
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      if (typeof next === 'string') res.write(chunk({ role: 'assistant', content: next }, 'stop'));
      else if (next) {
        res.write(
          chunk({
            role: 'assistant',
            content: null,
            tool_calls: next.map((function_, index) => ({
              index,
              id: `c${step}-${index}`,
              type: 'function',
              function: function_,
            })),
          }),
        );
        res.write(chunk({}, 'tool_calls'));
      } else {
        res.write(
          chunk(
            { role: 'assistant', content: key === 'react-text' ? 'Thought: done.\nFinal Answer: 42' : '42' },
            'stop',
          ),
        );
      }
      res.write(
        `data: ${JSON.stringify({ id: 'x', object: 'chat.completion.chunk', created: 0, model: 'm', choices: [], usage: { prompt_tokens: 10, completion_tokens: 1, total_tokens: 11 } })}\n\n`,
      );
      res.end('data: [DONE]\n\n');
    });
  });
  await new Promise<void>((ok) => model.listen(0, '127.0.0.1', ok));
  url = `http://127.0.0.1:${(model.address() as AddressInfo).port}/v1`;
});
afterAll(async () => {
  closeSharedSandboxes();
  model.closeAllConnections();
  await new Promise((ok) => model.close(ok));
  await sim.close();
  await Promise.all(dirs.map((d) => rm(d, { recursive: true, force: true })));
});

/** Which mode sent a request, from what it offers (the scripted model has no other way to know). */
function modeOfRequest(request: { messages: { role: string; content: unknown }[]; tools?: unknown[] }): ModeId {
  const names = (request.tools ?? []).map((t) => (t as { function: { name: string } }).function.name);
  const system = String(request.messages[0]?.content ?? '');
  if (!request.tools) return 'react-text';
  if (names.includes('search_tools') && !names.includes('run_code')) return 'react-search';
  if (names.includes('run_code')) {
    const description = String(
      (
        request.tools.find((t) => (t as { function: { name: string } }).function.name === 'run_code') as {
          function: { description: string };
        }
      ).function.description,
    );
    if (/Python/.test(description) || /Python/.test(system)) return 'code-py';
    return names.includes('list_dir') ? 'hybrid' : 'code';
  }
  return 'react';
}

const ofType = <T extends StepEvent['type']>(events: StepEvent[], type: T) =>
  events.filter((e): e is Extract<StepEvent, { type: T }> => e.type === type);

describe('MCP tools called in every mode (scripted model, our server over stdio)', () => {
  it.each<ModeId>(MODE_IDS)('%s: the calls reach the server and come back as tool results', async (mode) => {
    const events = await run(mode, [stdioServer('t')]);
    const finished = events.at(-1)!;
    expect(finished.type === 'run-finished' && [finished.status, finished.error]).toEqual(['answered', undefined]);
    expect(ofType(events, 'run-warning')).toEqual([]);
    const tools = ofType(events, 'tool-finished');
    if (mode === 'react') {
      // The two calls run at once: compared in name order.
      expect([...tools].sort((x, y) => x.name.localeCompare(y.name)).map((t) => [t.name, t.output, t.error])).toEqual([
        ['t_add', '{"sum":42}', null],
        [
          't_fail',
          expect.stringContaining('returned an error: refused: no access'),
          expect.stringContaining('refused: no access'),
        ],
      ]);
    } else if (mode === 'react-search' || mode === 'react-text') {
      expect(tools.filter((t) => t.name === 't_add').map((t) => t.output)).toEqual(['{"sum":42}']);
    } else {
      expect(tools.map((t) => t.name)).toEqual(['run_code']);
      expect(tools[0].output).toMatch(/42\n3/);
      const runs = ofType(events, 'code-run');
      expect(runs[0].toolCalls.map((c) => [c.name, c.error])).toEqual([
        ['t_add', null],
        ['t_add', null],
      ]);
    }
  });

  it("ReAct sends the server's input schema as the tool's parameters; the run records the tools offered", async () => {
    const body = bodies.get('react')![0] as {
      tools: { function: { name: string; description: string; parameters: Record<string, unknown> } }[];
    };
    const add = body.tools.find((t) => t.function.name === 't_add')!.function;
    expect(add.description).toBe('Add two numbers and return their sum.');
    expect(add.parameters).toMatchObject({
      type: 'object',
      properties: { a: { type: 'number', description: 'First addend.' } },
      required: ['a', 'b'],
    });
    const events = await run('react', [stdioServer('t')]);
    const started = events[0];
    expect(started.type === 'run-started' && started.tools.map((t) => t.name)).toEqual(
      expect.arrayContaining(['list_dir', 't_add', 't_echo', 't_fail', 't_where', 't_sleep']),
    );
  });

  it('hidden in Code Mode and ReAct + tool search until found; listed in the text prompt', () => {
    const first = (mode: ModeId) =>
      bodies.get(mode)![0] as {
        messages: { content: string }[];
        tools?: { function: { name: string; description: string } }[];
      };
    expect(first('react-search').tools!.map((t) => t.function.name)).not.toContain('t_add');
    expect(
      bodies.get('react-search')![2] &&
        (bodies.get('react-search')![2] as { tools: { function: { name: string } }[] }).tools.map(
          (t) => t.function.name,
        ),
    ).toContain('t_add');
    expect(first('code').tools!.find((t) => t.function.name === 'run_code')!.function.description).not.toContain(
      't_add',
    );
    expect(first('react-text').messages[0].content).toContain('t_add');
  });
});

describe("a worker's MCP connections", () => {
  it('are opened before the run is released (warmUpEngine) and used by the run, not opened again', async () => {
    const dir = await workspaceFor();
    const log = join(dir, 'starts.log');
    const spec = {
      runId: randomUUID(),
      task: { id: null, text: 'add 2 and 40' },
      mode: 'react' as const,
      provider: { name: 'scripted', baseUrl: url, model: 'm', simulated: false },
      apiKeyEnv: null,
      settings: parseSettings({ maxSteps: 6 }),
      workspace: dir,
      mcpServers: [stdioServer('t', { env: { MCP_TEST_START_LOG: log } })],
    };
    const starts = async () => (await readFile(log, 'utf8').catch(() => '')).trim().split('\n').filter(Boolean);
    await warmUpEngine(spec);
    const before = await starts();
    expect(before).toHaveLength(1);
    const events: StepEvent[] = [];
    await runEngine(
      spec,
      { apiKey: null, signal: new AbortController().signal, emit: (e) => events.push(e) },
      runTaskOf(spec.task),
    );
    expect(await starts()).toEqual(before);
    expect(ofType(events, 'tool-finished').find((t) => t.name === 't_add')!.output).toBe('{"sum":42}');
  });
});

describe("the approval policy's mcp entry governs every MCP tool", () => {
  it('deny: a direct call and a call inside a program are refused, and the runs go on', async () => {
    const react = await run('react', [stdioServer('t')], { approvals: { mcp: 'deny' } });
    expect(
      ofType(react, 'tool-finished')
        .sort((x, y) => x.name.localeCompare(y.name))
        .map((t) => [
          t.name,
          t.error !== null && /not allowed in this run \(the approval policy says deny\)/.test(t.error),
        ]),
    ).toEqual([
      ['t_add', true],
      ['t_fail', true],
    ]);
    const code = await run('code', [stdioServer('t')], { approvals: { mcp: 'deny' } });
    expect(
      ofType(code, 'code-run')[0].toolCalls.map((c) => [
        c.name,
        c.error !== null && /approval policy says deny/.test(c.error),
      ]),
    ).toEqual([['t_add', true]]);
    for (const events of [react, code]) expect(ofType(events, 'run-finished')[0].status).toBe('answered');
  });

  it("ask: the request names the MCP tool, and the user's answer decides", async () => {
    const events = await run('react', [stdioServer('t')], { approvals: { mcp: 'ask' }, answer: 'allow' });
    expect(
      ofType(events, 'approval-requested')
        .map((e) => [e.tool, e.server, e.args])
        .sort(),
    ).toEqual([
      ['t_add', 't', { a: 2, b: 40 }],
      ['t_fail', 't', { reason: 'no access' }],
    ]);
    expect(ofType(events, 'approval-resolved').map((e) => e.decision)).toEqual(['allow', 'allow']);
    expect(ofType(events, 'tool-finished').find((t) => t.name === 't_add')!.output).toBe('{"sum":42}'); // the calls run at once
    // Built-in tools keep their own entries: the mcp entry asks only for MCP tools.
    expect(ofType(events, 'run-started')[0].settings.approvals).toMatchObject({ mcp: 'ask' });
  });
});

describe('MCP servers beside the simulated model', () => {
  it.each<ModeId>(MODE_IDS)("%s still answers log-stats with an MCP server's tools offered too", async (mode) => {
    const events = await run(mode, [stdioServer('t')], { task: 'log-stats', sim: true });
    const finished = events.at(-1)!;
    expect(finished.type === 'run-finished' && [finished.status, finished.validation?.ok]).toEqual(['answered', true]);
  });

  it('a server that fails to start is a run warning with its name, after run-started, and the run goes on', async () => {
    const events = await run(
      'react',
      [stdioServer('broken', { command: join(tmpdir(), 'no-such-mcp-server') }), stdioServer('t')],
      { task: 'log-stats', sim: true },
    );
    expect(events[0].type).toBe('run-started');
    const warnings = ofType(events, 'run-warning').map((w) => w.message);
    expect(warnings).toEqual([
      expect.stringMatching(/^MCP server "broken" \(the command ".*no-such-mcp-server"\) failed to start/),
    ]);
    expect(events[0].type === 'run-started' && events[0].tools.map((t) => t.name)).toContain('t_add');
    const finished = events.at(-1)!;
    expect(finished.type === 'run-finished' && finished.status).toBe('answered');
  });
});
