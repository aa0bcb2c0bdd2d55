/**
 * `npm run bench -- agent-layouts`: agent projects as they are on disk (tests/helpers/agent-projects.ts), each
 * run once as an agent column on the simulated model: how it ended, which program ran, and for a data file
 * on the command line what the program could read. PARALLAX_BENCH_BEFORE=<another checkout> (its sources)
 * runs the same layouts through that checkout's engine too, for a before/after table.
 */
import { randomUUID } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { jsProject, pythonShim, tutorialProject, venvProject } from '../tests/helpers/agent-projects.js';

const HERE = fileURLToPath(new URL('..', import.meta.url));
const MISBEHAVE = join(HERE, 'tests/fixtures/agents/misbehave.py');

interface Row {
  readonly label: string;
  readonly outcome: string;
}

async function runLayouts(tree: string, root: string): Promise<Row[]> {
  const { runEngine } = (await import(
    join(tree, 'electron/engine/run-engine.ts')
  )) as typeof import('../electron/engine/run-engine.js');
  // Tasks moved from electron/engine/tasks to electron/tasks (one definition each); an older checkout has the former.
  const moved = existsSync(join(tree, 'electron/tasks/index.ts'));
  const tasksAt = (file: string) => join(tree, moved ? `electron/tasks/${file}` : 'electron/engine/tasks/index.ts');
  const { prepareFixture } = (await import(tasksAt('fixtures.ts'))) as typeof import('../electron/tasks/fixtures.js');
  const { resolveTask } = (await import(tasksAt('resolve.ts'))) as typeof import('../electron/tasks/resolve.js');
  const runTaskOf = moved
    ? ((await import(tasksAt('index.ts'))) as typeof import('../electron/tasks/index.js')).runTaskOf
    : () => null;
  const { startSimServer } = (await import(
    join(tree, 'electron/sim/index.ts')
  )) as typeof import('../electron/sim/index.js');
  const { parseSettings } = (await import(join(tree, 'shared/run-spec.ts'))) as typeof import('../shared/run-spec.js');
  const js = join(root, 'my-agent');
  const venv = join(root, 'py-agent');
  const shims = join(root, 'tools/pyenv/shims');
  const shimmed = join(root, 'shim-agent');
  const layouts: [string, string[], string | null][] = [
    ['JS: node src/agent.mjs, openai in root node_modules', ['node', join(js, 'src/agent.mjs')], null],
    ['TS: npx tsx src/agent.ts', ['npx', 'tsx', join(js, 'src/agent.ts')], null],
    ['Python venv: .venv/bin/python agent.py', [join(venv, '.venv/bin/python'), join(venv, 'agent.py')], null],
    ['uv run agent.py', ['uv', 'run', join(venv, 'agent.py')], null],
    ['shim named: tools/pyenv/shims/python3 agent.py', [join(shims, 'python3'), join(shimmed, 'react_agent.py')], null],
    [
      'shim on PATH: python3 agent.py',
      ['python3', join(shimmed, 'react_agent.py')],
      `${shims}${delimiter}${process.env.PATH}`,
    ],
    [
      'data word: python3 agent.py private/known_hosts',
      ['python3', MISBEHAVE, 'read', join(root, 'private', 'known_hosts')],
      null,
    ],
  ];
  const sim = await startSimServer();
  const rows: Row[] = [];
  try {
    for (const [label, command, path] of layouts) {
      const saved = process.env.PATH;
      if (path) process.env.PATH = path;
      const dir = mkdtempSync(join(root, 'ws-'));
      await prepareFixture('log-stats', dir);
      const events: {
        type: string;
        status?: string;
        error?: string | null;
        answer?: string;
        validation?: { ok: boolean } | null;
        shellSandbox?: { reason: string };
      }[] = [];
      try {
        await runEngine(
          {
            runId: randomUUID(),
            task: resolveTask('log-stats', { fixtureUrl: null }),
            mode: 'agent',
            provider: { name: 'simulated', baseUrl: sim.url, model: 'sim', simulated: true },
            apiKeyEnv: null,
            settings: parseSettings({}),
            workspace: dir,
            fixtureUrl: null,
            agent: { command },
          },
          { apiKey: null, signal: new AbortController().signal, emit: (e) => events.push(e as never) },
          runTaskOf({ id: 'log-stats' }),
        );
      } finally {
        process.env.PATH = saved;
      }
      const end = events.find((e) => e.type === 'run-finished')!;
      const ran = /The agent \(([^)]+)\)/.exec(
        events.find((e) => e.type === 'run-started')?.shellSandbox?.reason ?? '',
      )?.[1];
      const outcome =
        end.status !== 'answered'
          ? `${end.status}: ${(end.error ?? '').replace(/\s+/g, ' ').slice(0, 160)}`
          : label.startsWith('data')
            ? `read ${end.answer}`
            : `answered, valid ${end.validation?.ok}${ran ? ` (ran ${ran})` : ''}`;
      rows.push({ label, outcome });
    }
  } finally {
    await sim.close();
  }
  return rows;
}

export default async function main(): Promise<void> {
  const root = realpathSync(mkdtempSync(join(tmpdir(), 'parallax-layouts-bench-')));
  try {
    jsProject(root);
    venvProject(root);
    pythonShim(root);
    tutorialProject(root, 'shim-agent');
    mkdirSync(join(root, 'private'));
    writeFileSync(join(root, 'private', 'known_hosts'), 'github.com ssh-ed25519 AAAA\n');
    writeFileSync(join(root, 'private', 'id_ed25519'), 'PRIVATE KEY\n');
    const before = process.env.PARALLAX_BENCH_BEFORE;
    const trees: [string, string][] = [
      ...(before ? [['before', before] as [string, string]] : []),
      ['this checkout', HERE],
    ];
    for (const [name, tree] of trees) {
      console.log(`${name} (${tree}), sandbox: ${process.env.PARALLAX_SANDBOX === 'off' ? 'off' : 'as detected'}`);
      for (const r of await runLayouts(tree, root)) console.log(`  ${r.label.padEnd(52)} ${r.outcome}`);
    }
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}
