/**
 * `npm run bench -- agent-start`: what an agent column adds to a run's start.
 * 1. Resolving its command when the comparison starts (engine/agent/agent-launch.ts), once per column: a
 *    system python3, this machine's python3 from PATH (through a version manager's shim where there is one), a
 *    shim script as pyenv writes one (made here), node, and `npx tsx` in a project.
 * 2. A run's start to its first model request: the built-in ReAct (the loop asks at once) beside agent columns
 *    (sandbox, bridge, interpreter and the program's own imports before it asks): the tutorial's stdlib Python
 *    agent and the openai-SDK JavaScript agent, each in bubblewrap (where it works) and without an OS sandbox.
 * Alternated, medians; the simulated model in this process.
 */
import { randomUUID } from 'node:crypto';
import { mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { resolveAgentLaunch } from '../electron/engine/agent/agent-launch.js';
import { runAgent } from '../electron/engine/agent/agent-run.js';
import { EventRecorder } from '../electron/engine/event-recorder.js';
import { createChatClient } from '../electron/engine/provider/chat-client.js';
import { runEngine } from '../electron/engine/run-engine.js';
import { detectShellSandbox, shellSandbox, type ShellSandboxInfo } from '../electron/engine/sandbox/shell-sandbox.js';
import { prepareFixture } from '../electron/tasks/fixtures.js';
import { runTaskOf } from '../electron/tasks/index.js';
import { resolveTask } from '../electron/tasks/resolve.js';
import { startSimServer } from '../electron/sim/index.js';
import type { AgentCommand } from '../shared/agent-command.js';
import { parseSettings, type ModeId, type RunSpec } from '../shared/run-spec.js';
import type { StepEvent } from '../shared/step-event.js';
import { jsProject, pythonShim, SYSTEM_PYTHON, tutorialProject } from '../tests/helpers/agent-projects.js';

const ROUNDS = 7;
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const fmt = (xs: number[]) =>
  `median ${median(xs).toFixed(1)} ms (min ${Math.min(...xs).toFixed(1)}, max ${Math.max(...xs).toFixed(1)})`;
const TUTORIAL = fileURLToPath(new URL('../examples/tutorial/react_agent.py', import.meta.url));

export default async function main(): Promise<void> {
  const root = realpathSync(mkdtempSync(join(tmpdir(), 'parallax-agent-bench-')));
  const sim = await startSimServer();
  try {
    const js = jsProject(root);
    const shim = pythonShim(root);
    const shimmed = tutorialProject(root, 'shim-agent');
    const shimEnv = { ...process.env, PATH: `${shim.shims}${delimiter}${process.env.PATH}` };
    const systemEnv = { ...process.env, PATH: '/usr/bin:/bin' };

    console.log(`1. Resolving a column's command (once per column, when the comparison starts), ${ROUNDS} rounds`);
    const cases: [string, AgentCommand, NodeJS.ProcessEnv][] = [
      ['python3 on /usr/bin (system)', { command: ['python3', TUTORIAL] }, systemEnv],
      [
        `python3 from this PATH (${(await resolveAgentLaunch({ command: ['python3', TUTORIAL] }, { env: process.env })).notes.some((n) => /shim/.test(n)) ? 'a shim: asked' : 'no shim'})`,
        { command: ['python3', TUTORIAL] },
        process.env,
      ],
      ['python3 through a pyenv-style shim script', { command: ['python3', join(shimmed, 'react_agent.py')] }, shimEnv],
      ['node src/agent.mjs', { command: ['node', join(js, 'src/agent.mjs')] }, process.env],
      ['npx tsx src/agent.ts', { command: ['npx', 'tsx', join(js, 'src/agent.ts')] }, process.env],
    ];
    for (const [label, agent, env] of cases) {
      const times: number[] = [];
      for (let i = 0; i < ROUNDS; i++) {
        const t0 = performance.now();
        await resolveAgentLaunch(agent, { env });
        times.push(performance.now() - t0);
      }
      console.log(`  ${label.padEnd(52)} ${fmt(times)}`);
    }

    const bwrap = shellSandbox();
    const none = detectShellSandbox({ switchedOff: true });
    const sandboxes: [string, ShellSandboxInfo][] =
      bwrap.kind === 'bubblewrap'
        ? [
            ['bubblewrap', bwrap],
            ['no OS sandbox', none],
          ]
        : [['no OS sandbox', none]];
    const columns: [string, AgentCommand | null][] = [
      ['ReAct (built-in)', null],
      ['tutorial Python agent (system python3)', { command: [SYSTEM_PYTHON, TUTORIAL] }],
      ['openai-SDK JavaScript agent (node)', { command: ['node', join(js, 'src/agent.mjs')] }],
    ];
    console.log(`\n2. Run start → its first model request (log-stats, simulated model), ${ROUNDS} rounds alternated`);
    const series = new Map<string, number[]>();
    for (let i = 0; i < ROUNDS; i++) {
      for (const [sandboxLabel, info] of sandboxes) {
        for (const [label, agent] of columns) {
          if (!agent && sandboxLabel !== sandboxes[0]![0]) continue; // the loop does not start a process
          const key = agent ? `${label}, ${sandboxLabel}` : label;
          const t = await firstRequestMs(sim.url, root, agent, info);
          series.set(key, [...(series.get(key) ?? []), t]);
        }
      }
    }
    const base = median(series.get('ReAct (built-in)')!);
    for (const [key, xs] of series)
      console.log(
        `  ${key.padEnd(64)} ${fmt(xs)}${key.startsWith('ReAct') ? '' : `  (+${(median(xs) - base).toFixed(0)} ms over ReAct)`}`,
      );
  } finally {
    await sim.close();
    rmSync(root, { recursive: true, force: true });
  }
}

/** One run to its first model request (t of the first model-request event), then cancelled. */
async function firstRequestMs(
  simUrl: string,
  root: string,
  agent: AgentCommand | null,
  sandbox: ShellSandboxInfo,
): Promise<number> {
  const dir = mkdtempSync(join(root, 'ws-'));
  await prepareFixture('log-stats', dir);
  const ac = new AbortController();
  let first = -1;
  const spec: RunSpec = {
    runId: randomUUID(),
    task: resolveTask('log-stats', { fixtureUrl: null }),
    mode: (agent ? 'agent' : 'react') as ModeId,
    provider: { name: 'simulated', baseUrl: simUrl, model: 'sim', simulated: true },
    apiKeyEnv: null,
    settings: parseSettings({ approvals: { run_shell: 'allow' } }),
    workspace: dir,
    fixtureUrl: null,
    ...(agent ? { agent, agentLaunch: await resolveAgentLaunch(agent, { env: process.env }) } : {}),
  };
  const emit = (e: StepEvent) => {
    if (e.type === 'model-request' && first < 0) {
      first = performance.now() - t0;
      ac.abort('bench: first request seen');
    }
  };
  const t0 = performance.now();
  if (!agent) await runEngine(spec, { apiKey: null, signal: ac.signal, emit }, runTaskOf(spec.task));
  else {
    // As run-engine.ts hands an agent spec over, with the sandbox chosen here.
    const client = createChatClient(spec.provider, null, {
      timeoutMs: 60_000,
      idleTimeoutMs: 60_000,
      deadlineMs: 60_000,
      streamOptions: true,
    });
    await runAgent({
      spec: spec as RunSpec & { agent: AgentCommand },
      client,
      recorder: new EventRecorder(spec.runId, emit),
      signal: ac.signal,
      sandbox,
    });
  }
  rmSync(dir, { recursive: true, force: true });
  if (first < 0) throw new Error(`no model request from ${agent ? agent.command.join(' ') : 'ReAct'}`);
  return first;
}
