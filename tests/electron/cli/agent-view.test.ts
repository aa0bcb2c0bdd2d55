/**
 * What an agent column will see, through the real CLI before and during a run: `parallax tools --variants FILE`
 * and `--suite FILE` on real layouts in a temp folder (a JavaScript project, a pyenv-style shim on PATH, a data
 * file on the command line), and `parallax compare` and `suite run` saying which programs a file starts. The
 * comparison resolves the shim in the CLI's environment and the column answers from a worker whose own HOME
 * and PATH would not find it.
 */
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { jsProject, pythonShim, tutorialProject } from '../../helpers/agent-projects.js';
import { runCli } from '../host/cli-process.js';

const sandboxed =
  (await import('../../../electron/engine/sandbox/shell-sandbox.js')).shellSandbox().kind === 'bubblewrap';
let root = '';
let env: NodeJS.ProcessEnv = {};
let js = '';
let shim: { shims: string; install: string };
let py = '';

beforeAll(() => {
  root = realpathSync(mkdtempSync(join(tmpdir(), 'parallax-agent-view-')));
  js = jsProject(root);
  shim = pythonShim(root);
  py = tutorialProject(root, 'py-agent');
  mkdirSync(join(root, 'data'));
  writeFileSync(join(root, 'data', 'cases.json'), '[]');
  // Relative to the variants file: the scripts, and the one extra path.
  writeFileSync(
    join(root, 'agents.json'),
    JSON.stringify([
      {
        label: 'JS agent',
        mode: 'agent',
        agent: { command: ['node', 'my-agent/src/agent.mjs', join(root, 'data', 'cases.json')] },
      },
      { label: 'Py agent', mode: 'agent', agent: { command: ['python3', 'py-agent/react_agent.py'], paths: ['data'] } },
    ]),
  );
  env = {
    ...process.env,
    PATH: `${shim.shims}${delimiter}${process.env.PATH}`,
    PARALLAX_DATA_DIR: join(root, 'parallax-data'),
  };
  delete env.OPENAI_API_KEY;
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe('parallax tools --variants: what each agent column will see', () => {
  it('prints the program as it runs, the read-only folders with their reasons, and the words not shown', async () => {
    const res = await runCli(['tools', '--variants', join(root, 'agents.json')], env);
    expect(res.code, res.stderr).toBe(0);
    const out = res.stdout;
    expect(out).toContain(`JS agent (column 1): node ${join(js, 'src/agent.mjs')} ${join(root, 'data/cases.json')}`);
    expect(out).toContain(`${js}  (the project root of agent.mjs (it holds package.json))`);
    expect(out).toMatch(new RegExp(`not shown +${join(root, 'data/cases.json')}  \\(an argument, not code`));
    expect(out).toContain(
      `runs       ${realpathSync(join(shim.install, 'bin/python3'))} ${join(py, 'react_agent.py')}`,
    );
    expect(out).toContain(`${shim.install}  (the Python installation that runs it`);
    expect(out).toContain(`${join(root, 'data')}  (listed in the column's agent.paths)`);
    expect(out).toContain(
      sandboxed ? 'bubblewrap: no network but its recording proxy' : 'none here — it can read and write what you can',
    );
    const json = JSON.parse(
      (await runCli(['tools', '--variants', join(root, 'agents.json'), '--json'], env)).stdout,
    ) as { agents: { label: string; launch: { shown: { path: string }[]; hidden: { path: string }[] } }[] };
    expect(json.agents.map((a) => a.label)).toEqual(['JS agent', 'Py agent']);
    expect(json.agents[0]!.launch.hidden.map((h) => h.path)).toEqual([join(root, 'data/cases.json')]);
    expect(json.agents[1]!.launch.shown.map((s) => s.path)).toEqual([py, shim.install, join(root, 'data')]);
  });

  it('--suite: a column that cannot run is named with the reason, and the command fails', async () => {
    writeFileSync(
      join(root, 'suite.json'),
      JSON.stringify({
        name: 's',
        tasks: [{ builtin: 'log-stats' }],
        variants: [{ mode: 'agent', agent: { command: ['npx', 'tsx', 'my-agent/src/agent.ts'], paths: ['/'] } }],
      }),
    );
    const res = await runCli(['tools', '--suite', join(root, 'suite.json')], env);
    expect(res.code).toBe(1);
    expect(res.stdout).toContain('Agent · agent.ts (column 1): npx tsx');
    expect(res.stdout).toContain(
      'cannot run agent.paths: / may not be shown to an agent: it is the root of the file system.',
    );
    expect(res.stderr).toContain('One agent column cannot run as written: Agent · agent.ts.');
  });
});

describe('parallax compare and suite run with agent columns from a file', () => {
  it('says which programs the file starts, resolves the shim where PATH has it, and both agent columns answer', async () => {
    const res = await runCli(
      ['compare', '--task', 'log-stats', '--variants', join(root, 'agents.json'), '--json'],
      env,
    );
    expect(res.code, res.stderr).toBe(0);
    expect(res.stderr).toContain(
      `note: the variants file ${join(root, 'agents.json')} runs 2 programs on this machine (agent columns)`,
    );
    expect(res.stderr).toContain(`  Py agent: python3 ${join(py, 'react_agent.py')}`);
    const out = JSON.parse(res.stdout) as {
      runs: { status: string; validation: { ok: boolean } | null; column?: { label: string } }[];
    };
    for (const r of out.runs)
      expect([r.column?.label, r.status, r.validation?.ok]).toEqual([r.column?.label, 'answered', true]);
  });

  it('a suite file with an agent column says so before it runs it', async () => {
    writeFileSync(
      join(root, 'suite2.json'),
      JSON.stringify({
        name: 's2',
        tasks: [{ builtin: 'log-stats' }],
        variants: [{ mode: 'agent', agent: { command: ['node', 'my-agent/src/agent.mjs'] } }],
      }),
    );
    const res = await runCli(['suite', 'run', join(root, 'suite2.json'), '--json'], env);
    expect(res.code, res.stderr).toBe(0);
    expect(res.stderr).toContain(
      `note: the suite file ${join(root, 'suite2.json')} runs a program on this machine (agent columns)`,
    );
    expect(res.stderr).toContain('Run only files you trust.');
  });
});
