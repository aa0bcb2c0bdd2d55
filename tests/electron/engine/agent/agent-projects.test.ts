/**
 * Agent columns for agent projects as they are on disk, each built in a temp folder from real parts
 * (tests/helpers/agent-projects.ts) and run as a column on the real engine and the simulated model: a
 * JavaScript project with src/ and its node_modules at the root (openai installed by npm), the same project's
 * TypeScript agent through `npx tsx`, a Python project's virtual environment (as written and through
 * `uv run`), and an interpreter reached through a version manager's shim outside the system folders. Run with
 * bubblewrap and with PARALLAX_SANDBOX=off: each answers both ways; under bubblewrap the record says what it saw.
 */
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resolveAgentLaunch } from '../../../../electron/engine/agent/agent-launch.js';
import { shellSandbox } from '../../../../electron/engine/sandbox/shell-sandbox.js';
import type { AgentCommand } from '../../../../shared/agent-command.js';
import { jsProject, pythonShim, SYSTEM_PYTHON, tutorialProject, venvProject } from '../../../helpers/agent-projects.js';
import { agentRuns, finished, ofType, TEST_AGENTS, type AgentRunResult } from '../../../helpers/agent-runs.js';

const { agentRun } = agentRuns('parallax-agent-projects-');
const sandboxed = shellSandbox().kind === 'bubblewrap';
let root = '';
let js = '';
let venv = '';

beforeAll(() => {
  root = realpathSync(mkdtempSync(join(tmpdir(), 'parallax-layouts-')));
  js = jsProject(root);
  venv = venvProject(root);
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

/** The run answered log-stats right, one recorded step per model reply, and its record says what it saw. */
function expectAnswered(run: AgentRunResult, sees: readonly string[]): void {
  const end = finished(run.events);
  expect(end.status, end.error).toBe('answered');
  expect(end.validation?.ok, end.validation?.detail).toBe(true);
  const responses = ofType(run.events, 'model-response');
  expect(responses.length).toBe(run.replies.length);
  expect(responses.length).toBeGreaterThanOrEqual(2);
  const reach = ofType(run.events, 'run-started')[0]!.shellSandbox!;
  expect(reach.kind).toBe(shellSandbox().kind);
  if (sandboxed) for (const path of sees) expect(reach.reason).toContain(path);
  else expect(reach.reason).toMatch(/without an OS sandbox/);
}

describe('a JavaScript project: script in src/, node_modules at the root', () => {
  it('node src/agent.mjs: the project root is shown, openai is found in its node_modules, the column answers', async () => {
    const agent: AgentCommand = { command: ['node', join(js, 'src/agent.mjs')] };
    const launch = await resolveAgentLaunch(agent, { env: process.env });
    expect(launch.shown).toEqual([{ path: js, why: 'the project root of agent.mjs (it holds package.json)' }]);
    expect(launch.hidden).toEqual([]);
    expectAnswered(await agentRun({ agent }), [js]);
  });

  it("npx tsx src/agent.ts: the project's own tsx runs the TypeScript agent, and it answers", async () => {
    const agent: AgentCommand = { command: ['npx', 'tsx', join(js, 'src/agent.ts')] };
    const launch = await resolveAgentLaunch(agent, { env: process.env });
    expect(launch.argv.slice(1)).toEqual([join(js, 'node_modules/tsx/dist/cli.mjs'), join(js, 'src/agent.ts')]);
    expect(launch.argv[0]).toMatch(/\/node$/);
    expect(launch.notes[0]).toMatch(/npx tsx runs .*node_modules\/\.bin\/tsx .*the project's own copy/);
    expect(launch.shown.map((s) => s.path)).toEqual([js]);
    expectAnswered(await agentRun({ agent }), [js]);
  });

  it('npx of a package the project does not have: refused before the run, saying how to install it', async () => {
    await expect(
      resolveAgentLaunch({ command: ['npx', 'ts-node', join(js, 'src/agent.ts')] }, { env: process.env }),
    ).rejects.toThrow(/ts-node is not installed in the project of .*agent\.ts .*npm install --save-dev ts-node/);
  });
});

describe('a Python project with a virtual environment', () => {
  const venvPython = () => join(venv, '.venv/bin/python');

  it('.venv/bin/python agent.py: the venv and its package are seen, the column answers', async () => {
    const agent: AgentCommand = { command: [venvPython(), join(venv, 'agent.py')] };
    const launch = await resolveAgentLaunch(agent, { env: process.env });
    expect(launch.argv[0]).toBe(venvPython()); // not its link target: python finds pyvenv.cfg beside this path
    expect(launch.env).toEqual({ VIRTUAL_ENV: join(venv, '.venv') });
    expect(launch.shown.map((s) => s.path)).toEqual([venv]);
    expectAnswered(await agentRun({ agent }), [venv]);
  });

  it("uv run agent.py: the project's environment runs it (uv itself is not needed inside)", async () => {
    const agent: AgentCommand = { command: ['uv', 'run', join(venv, 'agent.py')] };
    const launch = await resolveAgentLaunch(agent, { env: process.env });
    expect(launch.argv).toEqual([venvPython(), join(venv, 'agent.py')]);
    expectAnswered(await agentRun({ agent }), [venv]);
  });

  it("an activated venv (its bin first on PATH): python3 is the venv's", async () => {
    const env = { ...process.env, PATH: `${join(venv, '.venv/bin')}${delimiter}${process.env.PATH}` };
    const agent: AgentCommand = { command: ['python3', join(venv, 'agent.py')] };
    const launch = await resolveAgentLaunch(agent, { env });
    expect(launch.argv[0]).toBe(join(venv, '.venv/bin/python3'));
    expect(launch.pathDirs).toEqual([join(venv, '.venv/bin')]);
    expectAnswered(await agentRun({ agent, launchEnv: env }), [venv]);
  });

  it('the system python on the venv project: the import fails, and the error says what was seen and how to add a path', async () => {
    const run = await agentRun({ agent: { command: [SYSTEM_PYTHON, join(venv, 'agent.py')] } });
    const end = finished(run.events);
    expect(end.status).toBe('error');
    expect(end.error).toMatch(/ModuleNotFoundError: No module named 'agenttools'/);
    expect(end.error).toContain(`It ran ${SYSTEM_PYTHON}.`);
    expect(end.error).toMatch(/has a virtual environment \(\.venv\) that this command does not use/);
    if (sandboxed) {
      expect(end.error).toContain(
        `Inside the sandbox it saw, read-only: the system folders; ${venv} (the project root of agent.py (it holds pyproject.toml))`,
      );
      expect(end.error).toMatch(/list it in the column's agent: \{"paths": \["\/full\/path"\]\}/);
    } else {
      expect(end.error).toMatch(/without an OS sandbox, so every file this user can read was there/);
    }
  });
});

describe("an interpreter behind a version manager's shim, outside the system folders", () => {
  it('python3 on a PATH whose first entry is a shim script: the real binary runs, its installation shown', async () => {
    const { shims, install } = pythonShim(root);
    const project = tutorialProject(root, 'shim-agent');
    const env = { ...process.env, PATH: `${shims}${delimiter}${process.env.PATH}` };
    const agent: AgentCommand = { command: ['python3', join(project, 'react_agent.py')] };
    const launch = await resolveAgentLaunch(agent, { env });
    expect(launch.argv[0]).toBe(realpathSync(join(install, 'bin/python3')));
    expect(launch.shown).toEqual([
      { path: project, why: 'the project root of react_agent.py (it holds requirements.txt)' },
      { path: install, why: `the Python installation that runs it (${launch.argv[0]})` },
    ]);
    expect(launch.notes.join(' ')).toContain(`${join(shims, 'python3')} is a version manager's shim`);
    expectAnswered(await agentRun({ agent, launchEnv: env }), [project, install]);
  });
});

describe('argv words that name files are not shown', () => {
  it('a data file on the command line does not expose its folder; listed in paths, only it is shown', async () => {
    const privateDir = join(root, 'private');
    mkdirSync(privateDir);
    writeFileSync(join(privateDir, 'known_hosts'), 'github.com ssh-ed25519 AAAA\n');
    writeFileSync(join(privateDir, 'id_ed25519'), 'PRIVATE KEY\n');
    const word = join(privateDir, 'known_hosts');
    const agent: AgentCommand = {
      command: ['python3', join(TEST_AGENTS, 'misbehave.py'), 'read', word, join(privateDir, 'id_ed25519')],
    };
    const launch = await resolveAgentLaunch(agent, { env: process.env });
    expect(launch.hidden.map((h) => h.path)).toEqual([word, join(privateDir, 'id_ed25519')]);
    expect(launch.shown.some((s) => s.path.startsWith(privateDir))).toBe(false);
    const got = JSON.parse(finished((await agentRun({ agent })).events).answer) as Record<string, unknown>;
    if (sandboxed) {
      expect(got).toEqual({
        [`file:${word}`]: 'error: FileNotFoundError',
        [`folder:${word}`]: 'error: FileNotFoundError',
        [`file:${join(privateDir, 'id_ed25519')}`]: 'error: FileNotFoundError',
        [`folder:${join(privateDir, 'id_ed25519')}`]: 'error: FileNotFoundError',
      });
    } else {
      // Without an OS sandbox nothing hides it: the view says so (hidden only inside a sandbox), the record too.
      expect(got[`file:${word}`]).toMatch(/github\.com/);
    }
    // Listed in agent.paths: that file alone, not its neighbours.
    const listed = await agentRun({ agent: { ...agent, paths: [word] } });
    const seen = JSON.parse(finished(listed.events).answer) as Record<string, unknown>;
    expect(seen[`file:${word}`]).toMatch(/github\.com/);
    if (sandboxed) {
      expect(seen[`file:${join(privateDir, 'id_ed25519')}`]).toBe('error: FileNotFoundError');
      expect(seen[`folder:${word}`]).toEqual(['known_hosts']);
    }
  });
});
