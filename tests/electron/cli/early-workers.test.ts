/**
 * compare's workers fork before commander and the command file load, as many as its first round takes; when
 * the count is not in the arguments (--variants, --models), or for help, none fork early. A command that fails
 * before taking them still ends, with its own message: the untaken workers are closed.
 */
import { spawn } from 'node:child_process';
import { mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { earlyWorkerPrograms } from '../../../electron/cli/early-workers.js';
import { HOST_PID_ENV } from '../../../electron/worker/worker-protocol.js';
import { cliModuleArgv, exited, runCli, startCli } from '../host/cli-process.js';
import { describe as described, waitGone, withEnv } from '../../helpers/proc-tree.js';

describe('early workers', () => {
  it("counts compare's first round from --modes, the default modes without it, and none when unknown", () => {
    const earlyWorkerCount = (args: string[]) => earlyWorkerPrograms(args).length;
    expect(earlyWorkerCount(['compare', '--task', 'calc'])).toBe(2);
    expect(earlyWorkerCount(['compare', '--task', 'calc', '--modes', 'react,code,hybrid'])).toBe(3);
    expect(earlyWorkerCount(['compare', '--modes=react, code ,react', '--task', 'calc'])).toBe(2);
    expect(earlyWorkerCount(['compare', '--task', 'calc', '--variants', 'v.json'])).toBe(0);
    expect(earlyWorkerCount(['compare', '--task', 'calc', '--models=a,b'])).toBe(0);
    expect(earlyWorkerCount(['compare', '--task', 'calc', '--help'])).toBe(0);
    expect(earlyWorkerCount(['run', '--task', 'calc'])).toBe(0);
    expect(earlyWorkerCount([])).toBe(0);
    // Each early worker prepares for its column's programs (worker-hints.ts).
    expect(earlyWorkerPrograms(['compare', '--task', 'calc'])).toEqual(['none', 'javascript']);
    expect(earlyWorkerPrograms(['compare', '--modes', 'code-py,react-search,code,nosuch'])).toEqual([
      'python',
      'none',
      'javascript',
      'none',
    ]);
    expect(earlyWorkerPrograms(['compare', '--task', 'calc', '--variants', 'v.json'])).toEqual([]);
  });

  it('a compare that fails before taking its early workers exits 1 with its message', async () => {
    const env = { ...process.env, PARALLAX_DATA_DIR: await mkdtemp(join(tmpdir(), 'parallax-early-')) };
    const [fault, typo] = await Promise.all([
      runCli(
        ['compare', '--task', 'calc', '--base-url', 'http://127.0.0.1:9/v1', '--model', 'm', '--fault', '500'],
        env,
      ),
      runCli(['compare', '--task', 'calc', '--taks', 'x'], env),
    ]);
    expect(fault.code, fault.stderr).toBe(1);
    expect(fault.stderr).toContain('--fault works only with the simulated model.');
    expect(typo.code).toBe(1);
    expect(typo.stderr).toContain("unknown option '--taks'");
  });

  it('a compare that fails on its flags leaves no worker behind: the workers of that CLI are killed with it', async () => {
    const env = { ...process.env, PARALLAX_DATA_DIR: await mkdtemp(join(tmpdir(), 'parallax-early-')) };
    const failing = [
      // commander's own rejection (it ends the process itself)
      ['compare', '--task', 'calc', '--taks', 'x'],
      // compare's own check, before it takes the workers
      ['compare', '--task', 'calc', '--base-url', 'http://127.0.0.1:9/v1', '--model', 'm', '--fault', '500'],
      // the host's check, after it took them
      ['compare', '--task', 'calc', '--modes', 'react,bogus'],
    ];
    for (const args of failing) {
      const child = startCli(args, env);
      const result = await exited(child);
      expect(result.code, result.stderr).toBe(1);
      // Killed (SIGKILL) before the CLI exits; one may still be tearing down when its parent is gone.
      const left = await waitGone(withEnv(HOST_PID_ENV, String(child.pid)), 60_000);
      expect(left.map(described), args.join(' ')).toEqual([]);
    }
  });

  it('forks them before commander and the command file load', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'parallax-early-'));
    const probe = join(dir, 'loads.txt');
    const child = spawn(
      process.execPath,
      [
        '--import',
        join(process.cwd(), 'tests/helpers/load-probe.mjs'),
        ...cliModuleArgv,
        'compare',
        '--task',
        'calc',
        '--taks',
        'x',
      ],
      {
        env: {
          ...process.env,
          PARALLAX_DATA_DIR: dir,
          PARALLAX_LOAD_PROBE: probe,
          PARALLAX_LOAD_PROBE_MATCH: String.raw`^commander$|/launcher\.js$|^\./compare\.js$`,
        },
        stdio: 'ignore',
      },
    );
    expect(await new Promise((resolve) => child.on('close', resolve))).toBe(1);
    const loads = (await readFile(probe, 'utf8'))
      .trim()
      .split('\n')
      .map((l) => l.slice(l.indexOf(' ') + 1));
    const first = (match: RegExp) => loads.findIndex((l) => match.test(l));
    expect(first(/launcher\.js$/), loads.join(', ')).toBeGreaterThanOrEqual(0);
    expect(first(/launcher\.js$/)).toBeLessThan(first(/^commander$/));
    expect(first(/launcher\.js$/)).toBeLessThan(first(/compare\.js$/));
  });
});
