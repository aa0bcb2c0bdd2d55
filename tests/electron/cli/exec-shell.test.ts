/**
 * `parallax exec` runs a program's tool calls with no run around it: its run_shell follows the approval policy
 * as a run's does. With bubblewrap a command reaches nothing outside the workspace; with the OS sandbox switched
 * off (as without bubblewrap) run_shell asks, and without a terminal it is refused, saying which flag allows it.
 */
import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, realpath, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { detectShellSandbox } from '../../../electron/engine/sandbox/shell-sandbox.js';
import { cliArgv } from '../host/cli-process.js';

const run = promisify(execFile);
const SECRET = 'TOP-SECRET-OUTSIDE-THE-WORKSPACE';
const bubblewrapHere = process.platform === 'linux' && detectShellSandbox({ switchedOff: false }).kind === 'bubblewrap';
let dir: string;

beforeAll(async () => {
  dir = await realpath(await mkdtemp(join(tmpdir(), 'parallax-exec-shell-')));
  await mkdir(join(dir, 'ws'));
  await writeFile(join(dir, 'outside.txt'), SECRET);
  await writeFile(
    join(dir, 'peek.js'),
    "try { print(JSON.stringify(run_shell('cat ../outside.txt'))); } catch (e) { print('refused: ' + e.message); }\n",
  );
});
afterAll(() => rm(dir, { recursive: true, force: true }));

async function exec(switchValue: string, ...extra: string[]) {
  const r = await run(process.execPath, [...cliArgv, 'exec', 'peek.js', '--workspace', join(dir, 'ws'), ...extra], {
    cwd: dir,
    timeout: 60_000,
    env: { ...process.env, PARALLAX_SANDBOX: switchValue },
  });
  return { stdout: r.stdout, stderr: r.stderr };
}

describe.each([
  { name: 'with bubblewrap', switchValue: '', contained: true, available: bubblewrapHere },
  {
    name: 'with the OS sandbox switched off (PARALLAX_SANDBOX=off)',
    switchValue: 'off',
    contained: false,
    available: process.platform === 'linux',
  },
])("parallax exec's run_shell $name", ({ switchValue, contained, available }) => {
  it.runIf(available)('cat ../outside.txt: the file outside the workspace is not read unasked', async () => {
    const r = await exec(switchValue);
    expect(r.stdout).not.toContain(SECRET);
    if (contained) expect(r.stdout).toMatch(/No such file/);
    else {
      expect(r.stdout).toMatch(
        /refused: run_shell is not allowed here \(commands would run outside an OS sandbox, reaching files outside the workspace\): pass --approve run_shell=allow to allow it/,
      );
      expect(r.stderr).toMatch(
        /run_shell asks for approval by default here .* there is no terminal to ask on, so it is denied/,
      );
    }
  });

  it.runIf(available && !contained)(
    "--approve run_shell=allow: the user's own choice, as in parallax run",
    async () => {
      expect((await exec(switchValue, '--approve', 'run_shell=allow')).stdout).toContain(SECRET);
    },
  );
});
