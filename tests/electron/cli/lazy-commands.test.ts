/**
 * Commands load what they run inside their action (the `cli-commands-load-lazily` boundary rule keeps the top
 * of every command file light). Loaded that way, bad input still gets the command's own clear error and exit 1,
 * and --version / --help still describe every command.
 */
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../host/cli-process.js';

async function env(): Promise<NodeJS.ProcessEnv> {
  return { ...process.env, PARALLAX_DATA_DIR: await mkdtemp(join(tmpdir(), 'parallax-lazy-')) };
}

describe('lazily loaded commands', () => {
  it('report, compare, prices remove and exec fail on bad input with their own message, exit 1', async () => {
    const e = await env();
    const [report, compare, prices, exec] = await Promise.all([
      runCli(['report', 'no-such-comparison'], e),
      runCli(['compare', '--task', 'log-stats', '--modes', 'react,bogus'], e),
      runCli(['prices', 'remove', 'no-such-model'], e),
      runCli(['exec', join(tmpdir(), 'parallax-no-such-program.js')], e),
    ]);
    expect(report.code).toBe(1);
    expect(report.stderr).toMatch(/No comparison "no-such-comparison" in .*parallax history/s);
    expect(compare.code).toBe(1);
    expect(compare.stderr).toContain('Unknown mode "bogus". The modes are: react, code');
    expect(prices.code).toBe(1);
    expect(prices.stderr).toContain('The price table has no price for "no-such-model"');
    expect(exec.code).toBe(1);
    expect(exec.stderr).toMatch(/no file at .*parallax-no-such-program\.js: give the path of a \.js or \.py program/);
  }, 60_000);

  it('--version prints the version and --help lists every command', async () => {
    const e = await env();
    const [version, help] = await Promise.all([runCli(['--version'], e), runCli(['--help'], e)]);
    expect(version.code).toBe(0);
    expect(version.stdout.trim()).toMatch(/^\d+\.\d+\.\d+/);
    for (const command of ['start', 'run', 'report', 'tasks', 'sim-server', 'compare', 'history', 'serve', 'exec', 'prices']) {
      expect(help.stdout).toMatch(new RegExp(`^  ${command}\\b`, 'm'));
    }
  }, 60_000);
});
