/**
 * The bundled CLI (build/bundle-worker.mjs) does what the CLI does: lists every command, runs Code Mode in its own
 * process (QuickJS thread and compute thread found beside the bundle, mathjs and QuickJS's WebAssembly loaded from
 * node_modules) and a comparison in worker processes. Both of its forms: the CommonJS script with its code cache,
 * which bin/parallax.js runs (through bin/run-cached.js), and the ES module bundle it falls back to.
 */
import { isAscii } from 'node:buffer';
import { execFile } from 'node:child_process';
import { mkdtemp, readdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
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

const script = () => join(process.cwd(), outdir, 'parallax.cjs');
const env = () => ({ ...process.env, PARALLAX_DATA_DIR: dataDir });
/** The ES module bundle. */
const esm = (args: string[]) => exec(process.execPath, [entry, ...args], { env: env(), timeout: 90_000 });
/** The CommonJS script with its code cache, as bin/parallax.js runs it. */
const cli = (args: string[]) =>
  exec(process.execPath, ['bin/run-cached.js', script(), ...args], { env: env(), timeout: 90_000 });

describe('the bundled CLI', () => {
  it('is its entry, the two thread entries, and chunks; --help lists every command', async () => {
    const files = await readdir(join(process.cwd(), outdir));
    expect(files).toEqual(
      expect.arrayContaining([
        'parallax.js',
        'parallax.cjs',
        'parallax.cjs.cache',
        'sandbox-thread.js',
        'compute-thread.js',
        'package.json',
      ]),
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
    expect((await esm(['run', '--help'])).stdout).toBe(recorded.run);
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

  it('compares two modes in worker processes, started from their script with the code cache the build made', async () => {
    // The workers' cache (dist/worker, made by `npm run build` under the workers' V8 flags) is taken as it is.
    const cache = join(process.cwd(), 'dist', 'worker', 'worker-main.cjs.cache');
    const first = (await readFile(cache)).subarray(0, 200).toString('latin1').split('\n')[0];
    const size = (await stat(join(process.cwd(), 'dist', 'worker', 'worker-main.cjs'))).size;
    expect(first).toBe(`parallax-code-cache ${size} ${process.version} ${process.versions.v8}`);
    const before = await stat(cache);
    const { stdout } = await cli(['compare', '--task', 'calc', '--modes', 'react,code', '--json']);
    expect((await stat(cache)).mtimeMs).toBe(before.mtimeMs);
    const out = JSON.parse(stdout) as { runs: { mode: string; status: string }[] };
    expect(out.runs.map((r) => [r.mode, r.status])).toEqual([
      ['react', 'answered'],
      ['code', 'answered'],
    ]);
  });

  it('answers the same from the ES module bundle as from the script, which is all ASCII', async () => {
    // Read as one-byte text by bin/run-cached.js (build/bundle-worker.mjs escapes every source's other characters).
    expect(isAscii(await readFile(script()))).toBe(true);
    const args = ['run', '--task', 'calc', '--mode', 'code', '--json'];
    const [a, b] = [JSON.parse((await esm(args)).stdout) as unknown, JSON.parse((await cli(args)).stdout) as unknown];
    expect(b).toEqual(a);
    expect(a).toMatchObject({ status: 'answered', simulated: true });
  });

  it("uses the build's code cache as it is; replaces one for another bundle or a damaged one; leaves other flags' alone", async () => {
    const cache = `${script()}.cache`;
    const stamp = async () =>
      `parallax-code-cache ${(await stat(script())).size} ${process.version} ${process.versions.v8}\n`;
    const firstLine = async () => `${(await readFile(cache)).subarray(0, 200).toString('latin1').split('\n')[0]}\n`;
    expect(await firstLine()).toBe(await stamp());
    const before = await stat(cache);
    const tasks = async (flags: string[] = []) =>
      JSON.parse(
        (await exec(process.execPath, [...flags, 'bin/run-cached.js', script(), 'tasks', '--json'], { env: env() }))
          .stdout,
      ) as unknown;
    const listed = await tasks();
    // Taken: left as it was.
    expect((await stat(cache)).mtimeMs).toBe(before.mtimeMs);
    const good = await readFile(cache);
    const head = (await stamp()).length;
    const probeEnd = head + 4 + good.readUInt32LE(head);
    // Another bundle's cache, then this one's with its code damaged: the output is the same, and a cache for this
    // bundle is written at exit.
    for (const damaged of [
      Buffer.concat([
        Buffer.from(`parallax-code-cache 12 ${process.version} ${process.versions.v8}\n`),
        good.subarray(head),
      ]),
      Buffer.concat([good.subarray(0, probeEnd), Buffer.alloc(4096, 7)]),
    ]) {
      await writeFile(cache, damaged);
      expect(await tasks()).toEqual(listed);
      const fresh = await readFile(cache);
      expect(fresh.length).toBeGreaterThan(100_000);
      expect(fresh.equals(damaged)).toBe(false);
      expect(await firstLine()).toBe(await stamp());
    }
    // Made under other V8 flags (as the workers' is): a run without them answers the same (from the ES module
    // bundle) and leaves it as it is; a run with them takes it.
    await rm(cache);
    await exec(process.execPath, ['--max-old-space-size=300', 'bin/run-cached.js', script(), 'tasks', '--json'], {
      env: { ...env(), PARALLAX_CODE_CACHE: 'write' },
    });
    const other = await readFile(cache);
    expect(await tasks()).toEqual(listed);
    expect((await readFile(cache)).equals(other)).toBe(true);
    expect(await tasks(['--max-old-space-size=300'])).toEqual(listed);
    expect((await readFile(cache)).equals(other)).toBe(true);
    // PARALLAX_CODE_CACHE=off: neither read nor written.
    await rm(cache);
    await exec(process.execPath, ['bin/run-cached.js', script(), 'tasks', '--json'], {
      env: { ...env(), PARALLAX_CODE_CACHE: 'off' },
    });
    await expect(stat(cache)).rejects.toThrow(/ENOENT/);
  });
});
