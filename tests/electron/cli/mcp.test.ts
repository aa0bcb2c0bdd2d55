/**
 * `--mcp FILE` through the real CLI in child processes: compare (workers open the servers before release),
 * tools (what each mode offers, visible or found by search), exec (a program calls an MCP tool), and bad
 * files refused with the server and field named.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { StepEvent } from '../../../shared/step-event.js';
import { HistoryStore } from '../../../electron/host/history-store.js';
import { runCli } from '../host/cli-process.js';
import { stdioServer } from '../../helpers/mcp-test-server.js';

let dir: string;
let config: string;
let env: NodeJS.ProcessEnv;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'parallax-cli-mcp-'));
  const t = stdioServer('t');
  config = join(dir, 'mcp.json');
  await writeFile(
    config,
    JSON.stringify({
      mcpServers: {
        t: { command: t.transport === 'stdio' ? t.command : '', args: t.transport === 'stdio' ? t.args : [] },
      },
    }),
  );
  env = { ...process.env, PARALLAX_DATA_DIR: join(dir, 'data') };
  delete env.OPENAI_API_KEY;
});
afterAll(() => rm(dir, { recursive: true, force: true }));

interface Offer {
  name: string;
  source: string;
  as: string;
  offered: string;
  signature?: string;
  parameters?: Record<string, unknown>;
}

describe('parallax --mcp', () => {
  it("compare: every worker offers the server's tools, recorded in run-started, and the runs answer", async () => {
    const res = await runCli(
      ['compare', '--task', 'log-stats', '--modes', 'react,code', '--mcp', config, '--json'],
      env,
    );
    expect(res.code, res.stderr).toBe(0);
    const out = JSON.parse(res.stdout) as {
      comparisonId: string;
      runs: { mode: string; status: string; validation: { ok: boolean } | null }[];
    };
    expect(out.runs.map((r) => [r.mode, r.status, r.validation?.ok])).toEqual([
      ['react', 'answered', true],
      ['code', 'answered', true],
    ]);
    const stored = await new HistoryStore(join(dir, 'data')).open(out.comparisonId);
    const started = stored.events.filter(
      (e): e is Extract<StepEvent, { type: 'run-started' }> => e.type === 'run-started',
    );
    expect(started.map((e) => e.mode)).toEqual(['react', 'code']);
    expect(started[0].tools.map((t) => t.name)).toContain('t_add');
    expect(started[1].tools.map((t) => t.name)).toEqual(['run_code']); // hidden behind search_tools in Code Mode
    expect(stored.events.filter((e) => e.type === 'run-warning')).toEqual([]);
    // The config is not recorded: a server's env may hold a token.
    expect(JSON.stringify(stored.events)).not.toContain('mcp-test-server');
  });

  it("tools --json: each mode's tools with schema or signature, visible or found by search", async () => {
    const res = await runCli(['tools', '--mcp', config, '--json', '--workspace', dir], env);
    expect(res.code, res.stderr).toBe(0);
    const out = JSON.parse(res.stdout) as {
      modes: { mode: string; modeTools: string[]; tools: Offer[] }[];
      servers: { name: string; tools: number }[];
      problems: string[];
    };
    expect(out.servers).toEqual([{ name: 't', tools: 10 }]); // every tool of tests/helpers/mcp-test-server.ts
    expect(out.problems).toEqual([]);
    const offer = (mode: string, name: string) =>
      out.modes.find((m) => m.mode === mode)!.tools.find((t) => t.name === name);
    expect(offer('react', 't_add')).toMatchObject({
      source: 't',
      as: 'schema',
      offered: 'visible',
      parameters: { properties: { a: { type: 'number' } }, required: ['a', 'b'] },
    });
    expect(offer('react-text', 't_add')).toMatchObject({ as: 'prompt', offered: 'visible' });
    expect(offer('react-search', 't_add')).toMatchObject({ as: 'schema', offered: 'search' });
    expect(offer('code', 't_add')).toMatchObject({
      as: 'function',
      offered: 'search',
      signature: 't_add(a: number, b: number): {sum: number}',
    });
    expect(offer('hybrid', 't_echo')).toMatchObject({
      as: 'function',
      offered: 'search',
      signature: 't_echo(text: string, tags?: string[]): string',
    });
    expect(offer('code-py', 't_add')).toMatchObject({
      as: 'python-function',
      offered: 'search',
      signature: 'def t_add(a: float, b: float) -> TypedDict[{"sum": float}]',
    });
    expect(offer('react', 'read_file')).toMatchObject({ source: 'built-in', offered: 'visible' });
    expect(out.modes.find((m) => m.mode === 'code')!.modeTools).toEqual(['run_code']);
  });

  it('exec --mcp: a program finds an MCP tool with search_tools and calls it', async () => {
    const program = join(dir, 'add.js');
    await writeFile(
      program,
      'const [add] = search_tools("add two numbers sum");\nprint(add(2, 40).sum, add({a: 1, b: 1}).sum);\n',
    );
    const res = await runCli(['exec', program, '--mcp', config, '--workspace', dir, '--json'], env);
    expect(res.code, res.stderr).toBe(0);
    const out = JSON.parse(res.stdout) as {
      output: string;
      error: unknown;
      toolCalls: { name: string; args: unknown; error: string | null }[];
    };
    expect(out.output).toBe('42 2\n');
    expect(out.error).toBeNull();
    expect(out.toolCalls.map((c) => [c.name, c.args, c.error])).toEqual([
      ['t_add', { a: 2, b: 40 }, null],
      ['t_add', { a: 1, b: 1 }, null],
    ]);
  });

  it('refuses a bad file naming the server and the field, and warns of a server that fails (exit 0)', async () => {
    const bad = join(dir, 'bad.json');
    await writeFile(bad, JSON.stringify({ mcpServers: { files: { command: 'npx', args: '-y x' } } }));
    const failing = join(dir, 'failing.json');
    await writeFile(failing, JSON.stringify({ mcpServers: { gone: { command: join(dir, 'no-such-server') } } }));
    const program = join(dir, 'one.js');
    await writeFile(program, 'print(1 + 1);\n');
    const [badRun, missing, tools, exec] = await Promise.all([
      runCli(['run', '--task', 'calc', '--mcp', bad], env),
      runCli(['compare', '--task', 'calc', '--mcp', join(dir, 'nowhere.json')], env),
      runCli(['tools', '--mcp', failing, '--mode', 'react'], env),
      runCli(['exec', program, '--mcp', failing, '--workspace', dir], env),
    ]);
    expect(exec.code, exec.stderr).toBe(0);
    expect(exec.stderr).toMatch(/^warning: MCP server "gone" \(the command ".*no-such-server"\) failed to start/);
    expect(exec.stderr).not.toMatch(/error:/);
    expect(exec.stdout).toContain('2');
    expect(badRun.code).toBe(1);
    expect(badRun.stderr).toContain(`--mcp ${bad}: MCP server "files": field "args": must be a list of strings`);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toMatch(
      /--mcp: no file at .*nowhere\.json\. Give the path of a JSON file with an "mcpServers" object/,
    );
    expect(tools.code).toBe(0);
    expect(tools.stderr).toMatch(/^warning: MCP server "gone" \(the command ".*no-such-server"\) failed to start/);
    expect(tools.stdout).toContain('read_file'); // the built-in tools are still listed
  });
});
