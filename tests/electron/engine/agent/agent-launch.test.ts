/**
 * How an agent column's command is read before it runs (engine/agent/agent-launch.ts), on layouts built in a
 * temp folder with a home folder of its own: what each command shows, what it never shows (the home folder,
 * a folder of keys, the temp folder, /), the checked `paths`, the launchers and their errors.
 */
import { chmodSync, mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resolveAgentLaunch } from '../../../../electron/engine/agent/agent-launch.js';
import { codeWords } from '../../../../electron/engine/agent/launch/command-words.js';
import type { AgentCommand } from '../../../../shared/agent-command.js';

let base = '';
let home = '';
const file = (p: string, text = '') => {
  mkdirSync(join(p, '..'), { recursive: true });
  writeFileSync(p, text);
  return p;
};
// `home` stands for the user's home folder, `tmp` for the temp folder; PATH holds only the system's interpreters.
const launch = (agent: AgentCommand, extra: { env?: NodeJS.ProcessEnv; dataDir?: string } = {}) =>
  resolveAgentLaunch(agent, {
    env: { PATH: '/usr/bin:/bin', ...extra.env },
    home,
    tmp: join(base, 'tmp'),
    dataDir: extra.dataDir ?? null,
  });

beforeAll(() => {
  base = realpathSync(mkdtempSync(join(tmpdir(), 'parallax-launch-')));
  home = join(base, 'home', 'me');
  mkdirSync(join(base, 'tmp'), { recursive: true });
  mkdirSync(join(home, '.ssh'), { recursive: true });
});
afterAll(() => rmSync(base, { recursive: true, force: true }));

describe('the project root of the script', () => {
  it('is the nearest folder above it holding a marker, never the home folder', async () => {
    file(join(home, '.git', 'HEAD')); // a dotfiles repository in the home folder
    const script = file(join(home, 'code', 'agent', 'src', 'agent.py'));
    file(join(home, 'code', 'agent', 'pyproject.toml'));
    expect((await launch({ command: ['python3', script] })).shown[0]).toEqual({
      path: join(home, 'code', 'agent'),
      why: 'the project root of agent.py (it holds pyproject.toml)',
    });
    // No marker below the home folder's: the script's own folder, not the home folder that has .git.
    const loose = file(join(home, 'scratch', 'agent.py'));
    expect((await launch({ command: ['python3', loose] })).shown).toEqual([
      {
        path: join(home, 'scratch'),
        why: 'the folder of agent.py (no package.json, pyproject.toml, requirements.txt, .venv, .git above it)',
      },
    ]);
  });

  it('a script straight in the home folder or in ~/.ssh is shown alone', async () => {
    const inHome = file(join(home, 'agent.py'));
    expect((await launch({ command: ['python3', inHome] })).shown).toEqual([
      { path: inHome, why: `agent.py alone: its folder ${home} is not shown (it is your home folder)` },
    ]);
    const inSsh = file(join(home, '.ssh', 'agent.py'));
    expect((await launch({ command: ['python3', inSsh] })).shown[0]!.why).toMatch(
      /agent\.py alone: .*it is in ~\/\.ssh, where keys are kept/,
    );
  });

  it('adds the node_modules a monorepo hoists above the package, and packages linked from elsewhere', async () => {
    const mono = join(home, 'mono');
    file(join(mono, 'package.json'), '{}');
    file(join(mono, 'node_modules', 'ai', 'package.json'), '{}');
    const pkg = join(mono, 'packages', 'agent');
    file(join(pkg, 'package.json'), '{}');
    const script = file(join(pkg, 'src', 'agent.mjs'));
    const shared = join(home, 'libs', 'tools');
    file(join(shared, 'package.json'), '{}');
    mkdirSync(join(pkg, 'node_modules', '@me'), { recursive: true });
    symlinkSync(shared, join(pkg, 'node_modules', '@me', 'tools'));
    const l = await launch({ command: ['node', script] });
    expect(l.shown.map((s) => s.path)).toEqual([pkg, join(mono, 'node_modules'), shared]);
    expect(l.shown[2]!.why).toBe(`the package @me/tools, linked from ${join(pkg, 'node_modules', '@me', 'tools')}`);
  });
});

describe('words that are not code', () => {
  it('python -c and -m have no script; node --require and --import are code too', () => {
    expect(codeWords('python', ['-u', '-W', 'ignore', 'agent.py', 'data.txt'])).toEqual({ code: [3], inline: false });
    expect(codeWords('python', ['-c', 'print(1)', '/x/agent.py'])).toEqual({ code: [], inline: true });
    expect(codeWords('python', ['-um', 'pkg.agent'])).toEqual({ code: [], inline: true });
    expect(
      codeWords('node', [
        '--require',
        '/p/pre.cjs',
        '--import=x',
        '--env-file',
        '/p/.env',
        '/p/agent.mjs',
        '/d/data.json',
      ]),
    ).toEqual({ code: [1, 5], inline: false });
    expect(codeWords('node', ['-e', 'x', '/p/agent.mjs'])).toEqual({ code: [], inline: true });
  });

  it('a data file or folder named on the command line, or in --opt=value, is listed as not shown', async () => {
    const script = file(join(home, 'proj', 'agent.py'));
    file(join(home, 'proj', 'requirements.txt'));
    const data = file(join(base, 'data', 'cases.json'));
    const inside = file(join(home, 'proj', 'cases.json'));
    const l = await launch({ command: ['python3', script, data, `--cases=${data}`, inside, join(home, '.ssh')] });
    expect(l.hidden.map((h) => h.path)).toEqual([data, data, join(home, '.ssh')]);
    expect(l.hidden[0]!.why).toMatch(/not shown inside the sandbox .*List it in the column's agent\.paths/);
  });
});

describe("the column's paths", () => {
  it('are shown when they exist and may be; refused with the reason otherwise', async () => {
    const script = file(join(home, 'proj2', 'agent.py'));
    const data = file(join(base, 'data2', 'cases.json'));
    const ok = await launch({ command: ['python3', script], paths: [join(base, 'data2')] });
    expect(ok.shown.at(-1)).toEqual({ path: join(base, 'data2'), why: "listed in the column's agent.paths" });
    expect(ok.hidden).toEqual([]);
    void data;
    const refused = async (p: string, extra = {}) =>
      launch({ command: ['python3', script], paths: [p] }, extra).then(
        () => 'accepted',
        (e: Error) => e.message,
      );
    expect(await refused('data2')).toMatch(/data2 is not a full path/);
    expect(await refused(join(base, 'nope'))).toMatch(/does not exist/);
    expect(await refused('/')).toMatch(/it is the root of the file system/);
    expect(await refused(home)).toMatch(/it is your home folder/);
    expect(await refused(join(base, 'home'))).toMatch(/it holds your home folder/);
    expect(await refused(join(home, '.ssh'))).toMatch(/it is in ~\/\.ssh, where keys are kept/);
    expect(await refused(join(base, 'tmp'))).toMatch(/the temp folder, which holds other runs' workspaces/);
    expect(await refused('/proc/self')).toMatch(/it is in \/proc/);
    expect(await refused(join(base, 'data2'), { dataDir: join(base, 'data2', 'parallax') })).toMatch(/Parallax's data/);
  });
});

describe('launchers and programs', () => {
  it("a script whose #! line goes through env runs with that interpreter from the user's PATH", async () => {
    const script = file(join(home, 'proj3', 'agent.py'), '#!/usr/bin/env python3\nprint(1)\n');
    chmodSync(script, 0o755);
    const l = await launch({ command: [script, 'go'] });
    expect(l.argv.slice(1)).toEqual([script, 'go']);
    expect(l.argv[0]).toMatch(/python3/);
    expect(l.notes[0]).toBe(`${script} starts with #!/usr/bin/env python3: it runs as python3 agent.py.`);
  });

  it('says what is wrong with a program that is not there, npx options and uv run without an environment', async () => {
    const script = file(join(home, 'proj4', 'agent.py'));
    file(join(home, 'proj4', 'pyproject.toml'));
    await expect(launch({ command: ['no-such-agent-runner', script] })).rejects.toThrow(
      /no-such-agent-runner is not on your PATH .* give its full path/,
    );
    await expect(launch({ command: ['npx', '-p', 'tsx', 'tsx', script] })).rejects.toThrow(
      /npx -p is not supported in an agent column/,
    );
    await expect(launch({ command: ['npx', 'tsx', 'src/agent.ts'] })).rejects.toThrow(/give the script as a path/);
    await expect(launch({ command: ['uv', 'run', script] })).rejects.toThrow(
      new RegExp(`the project ${join(home, 'proj4')} has no environment yet .*Run \`uv sync\``),
    );
    await expect(launch({ command: ['uv', 'run', '--with', 'rich', script] })).rejects.toThrow(
      /uv run --with is not supported/,
    );
  });
});
