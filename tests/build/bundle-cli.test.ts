/**
 * The bundled CLI (build/bundle-worker.mjs, what bin/parallax.js runs after a build) does what the CLI does:
 * lists every command, runs Code Mode in its own process (QuickJS thread and compute thread found beside the
 * bundle, mathjs and QuickJS's WebAssembly loaded from node_modules) and a comparison in worker processes.
 */
import { execFile } from 'node:child_process';
import { mkdtemp, readdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
// @ts-expect-error -- a plain .mjs build script, without types
import { bundleCli } from '../../build/bundle-worker.mjs';

const exec = promisify(execFile);
const outdir = `dist/cli-test-${process.pid}`;
let entry = '';
let dataDir = '';

beforeAll(async () => {
  entry = await (bundleCli as (dir: string) => Promise<string>)(outdir);
  dataDir = await mkdtemp(join(tmpdir(), 'parallax-bundle-cli-'));
});

afterAll(async () => {
  await rm(join(process.cwd(), outdir), { recursive: true, force: true });
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
});

const cli = (args: string[]) =>
  exec(process.execPath, [entry, ...args], { env: { ...process.env, PARALLAX_DATA_DIR: dataDir }, timeout: 90_000 });

describe('the bundled CLI', () => {
  it('is its entry, the two thread entries, and chunks; --help lists every command', async () => {
    const files = await readdir(join(process.cwd(), outdir));
    expect(files).toEqual(
      expect.arrayContaining(['parallax.js', 'sandbox-thread.js', 'compute-thread.js', 'package.json']),
    );
    const { stdout } = await cli(['--help']);
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
      'suite',
      'tools',
      'diff',
    ]) {
      expect(stdout).toMatch(new RegExp(`^  ${command}\\b`, 'm'));
    }
    expect((await cli(['--version'])).stdout.trim()).toMatch(/^\d+\.\d+\.\d+/);
  });

  it("prints --help and every command's --help from help.json, the same text commander prints without it", async () => {
    const file = join(process.cwd(), outdir, 'help.json');
    const recorded = JSON.parse(await readFile(file, 'utf8')) as Record<string, string>;
    const keys = Object.keys(recorded);
    expect(keys).toEqual([
      '',
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
      'diff',
    ]);
    const argsOf = (key: string) => (key === '' ? ['--help'] : [key, '--help']);
    // Printed from the file: a marked copy shows its mark.
    await writeFile(file, JSON.stringify(Object.fromEntries(keys.map((k) => [k, `marked ${k}\n`]))));
    for (const key of keys) expect((await cli(argsOf(key))).stdout).toBe(`marked ${key}\n`);
    // Without the file, and with a damaged one, commander prints the same text as was recorded.
    await rename(file, `${file}.away`);
    for (const key of keys) expect((await cli(argsOf(key))).stdout, key).toBe(recorded[key]);
    await writeFile(file, '{"": "Usage');
    expect((await cli(['run', '--help'])).stdout).toBe(recorded.run);
    await rename(`${file}.away`, file);
  });

  it('runs weather-f in Code Mode (QuickJS thread) and ReAct (calculator on the compute thread) in its own process; both answer', async () => {
    for (const mode of ['code', 'react']) {
      const { stdout } = await cli(['run', '--task', 'weather-f', '--mode', mode, '--json']);
      const out = JSON.parse(stdout) as {
        status: string;
        simulated: boolean;
        validation: { ok: boolean; detail: string };
      };
      expect(out.status, mode).toBe('answered');
      expect(out.validation.ok, out.validation.detail).toBe(true);
      expect(out.simulated).toBe(true);
    }
  });

  it('compares two modes in worker processes', async () => {
    const { stdout } = await cli(['compare', '--task', 'calc', '--modes', 'react,code', '--json']);
    const out = JSON.parse(stdout) as { runs: { mode: string; status: string }[] };
    expect(out.runs.map((r) => [r.mode, r.status])).toEqual([
      ['react', 'answered'],
      ['code', 'answered'],
    ]);
  });
});
