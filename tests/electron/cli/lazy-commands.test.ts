/**
 * Commands load what they run inside their action (the `cli-commands-load-lazily` boundary rule keeps the top
 * of every command file light), and the CLI loads only the file of the command named. Loaded that way, bad input
 * still gets the command's own clear error and exit 1, and --version / --help still describe every command.
 */
import { spawn } from 'node:child_process';
import { mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cliModuleArgv, runCli, type CliResult } from '../host/cli-process.js';
import { generate } from '../../helpers/history-seed.js';

const COMMAND_FILES = [
  'start',
  'run',
  'report',
  'tasks',
  'sim-server',
  'compare',
  'history',
  'serve',
  'exec',
  'prices',
  'suite',
  'tools',
].map((c) => `./${c}.js`);
const PROBE = join(process.cwd(), 'tests/helpers/load-probe.mjs');
/** What the CLI asked to load (module specifiers matching `match`), with a resolve-hook probe preloaded. */
async function loadsOf(
  args: string[],
  env: NodeJS.ProcessEnv,
  match: string,
): Promise<CliResult & { loads: string[] }> {
  const probe = join(env.PARALLAX_DATA_DIR!, `loads-${args.join('-').replace(/[^a-z]/g, '')}.txt`);
  const child = spawn(process.execPath, ['--import', PROBE, ...cliModuleArgv, ...args], {
    env: { ...env, PARALLAX_LOAD_PROBE: probe, PARALLAX_LOAD_PROBE_MATCH: match },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (c: string) => (stdout += c));
  child.stderr.setEncoding('utf8').on('data', (c: string) => (stderr += c));
  const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
  const loads = (await readFile(probe, 'utf8').catch(() => ''))
    .trim()
    .split('\n')
    .filter(Boolean)
    .map((l) => l.slice(l.indexOf(' ') + 1));
  return { code, stdout, stderr, loads };
}

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
  });

  it('--version prints the version and --help lists every command', async () => {
    const e = await env();
    const [version, help] = await Promise.all([runCli(['--version'], e), runCli(['--help'], e)]);
    expect(version.code).toBe(0);
    expect(version.stdout.trim()).toMatch(/^\d+\.\d+\.\d+/);
    for (const command of [
      'start',
      'run',
      'report',
      'tasks',
      'sim-server',
      'compare',
      'history',
      'serve',
      'exec',
      'prices',
    ]) {
      expect(help.stdout).toMatch(new RegExp(`^  ${command}\\b`, 'm'));
    }
  });

  it("a command loads its own file and, for a report, only the asked format's renderer", async () => {
    const e = await env();
    generate(e.PARALLAX_DATA_DIR!, 3);
    const match = String.raw`^\./[a-z-]+\.js$|^markdown-it$|^diff$|^papaparse$`;
    const [json, md, help] = await Promise.all([
      loadsOf(['report', 'latest', '-f', 'json'], e, match),
      loadsOf(['report', 'latest', '-f', 'md'], e, match),
      loadsOf(['--help'], e, match),
    ]);
    expect(json.code, json.stderr).toBe(0);
    expect((JSON.parse(json.stdout) as { comparison: { id: string } }).comparison.id).toBe('cmp-000002');
    expect(json.loads.filter((l) => COMMAND_FILES.includes(l))).toEqual(['./report.js']);
    expect(json.loads).toContain('./json-report.js');
    for (const heavy of [
      './html-report.js',
      './markdown-report.js',
      './csv-report.js',
      './otlp-report.js',
      'markdown-it',
      'diff',
      'papaparse',
    ]) {
      expect(json.loads, `report -f json loaded ${heavy}`).not.toContain(heavy);
    }
    expect(md.code, md.stderr).toBe(0);
    expect(md.stdout).toContain('cmp-000002');
    expect(md.loads).toContain('./markdown-report.js');
    expect(md.loads).not.toContain('./html-report.js');
    // Help loads every command to list it, and no renderer.
    expect(help.code).toBe(0);
    for (const file of COMMAND_FILES) expect(help.loads).toContain(file);
    expect(help.loads.some((l) => l.endsWith('-report.js'))).toBe(false);
  });
  it('`parallax history` lists without loading zod or the event schema (a summary is checked by hand)', async () => {
    const e = await env();
    generate(e.PARALLAX_DATA_DIR!, 3);
    const match = String.raw`^zod$|schema\.js$|^\./summary\.js$|^\.\./\.\./shared/summary\.js$|run-log-reader\.js$`;
    // The first listing builds the index from the logs (schema and all); the next one reads summaries only.
    const cold = await loadsOf(['history'], e, match);
    expect(cold.code, cold.stderr).toBe(0);
    expect(cold.loads).toContain('zod');
    const [warm, help] = await Promise.all([
      loadsOf(['history', '--limit', '2'], e, match),
      loadsOf(['history', '--help'], e, match),
    ]);
    expect(warm.code, warm.stderr).toBe(0);
    expect(warm.stdout).toMatch(/^cmp-000002 .*\n[\s\S]*^cmp-000001 /m);
    expect(warm.loads).toEqual([]);
    expect(help.code).toBe(0);
    expect(help.stdout).toContain('--refresh');
    expect(help.loads).toEqual([]);
  });
});
