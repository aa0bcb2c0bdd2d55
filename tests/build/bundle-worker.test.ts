/**
 * The bundled worker (build/bundle-worker.mjs) runs real comparisons on the simulated model: the worker entry,
 * the sandbox thread (Code Mode) and the compute thread (calculator, loading mathjs on its first call) are
 * all found beside the bundle, and the runs answer as the unbundled worker's do.
 */
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { StepEvent } from '../../shared/step-event.js';
import { groupByRun, summarizeRun } from '../../shared/summary.js';
import { createHost, type Host } from '../../electron/host/host.js';
import { forkLauncher } from '../../electron/host/launcher.js';
// @ts-expect-error -- a plain .mjs build script, without types
import { bundleWorker } from '../../build/bundle-worker.mjs';

const outdir = `dist/worker-test-${process.pid}`;
let entry = '';
let host: Host | null = null;
let dataDir = '';
const events: StepEvent[] = [];

beforeAll(async () => {
  entry = await (bundleWorker as (dir: string) => Promise<string>)(outdir);
  dataDir = await mkdtemp(join(tmpdir(), 'parallax-bundle-'));
  host = createHost({
    dataDir,
    getApiKey: async () => null,
    onWarning: () => {},
    onEvents: (b) => events.push(...b),
    launcher: forkLauncher({ entry }),
  });
});

afterAll(async () => {
  await host?.close();
  await rm(join(process.cwd(), outdir), { recursive: true, force: true });
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
});

describe('the bundled worker', () => {
  it('is a few files: the three entries and their shared chunks', async () => {
    const files = await readdir(join(process.cwd(), outdir));
    expect(files).toEqual(expect.arrayContaining(['worker-main.js', 'sandbox-thread.js', 'compute-thread.js']));
    // Libraries loaded only when needed (tokenizer, HTML converter, MCP, Anthropic, task sets) are chunks of their
    // own; the rest is shared chunks. Module-by-module output would be a file per source file and per package file.
    const sources = (await readdir(join(process.cwd(), 'electron'), { recursive: true })).filter((f) =>
      f.endsWith('.ts'),
    );
    expect(files.filter((f) => f.endsWith('.js')).length).toBeLessThan(sources.length / 5);
  });

  it('runs ReAct (calculator on the compute thread) and Code Mode (QuickJS thread) on weather-f; both answer correctly', async () => {
    const meta = await host!['comparison:start']({
      task: 'weather-f',
      modes: ['react', 'code'],
      provider: { name: 'simulated', baseUrl: null, model: 'sim' },
    });
    await host!.whenDone(meta.id);
    const byRun = groupByRun(events);
    for (const r of meta.runs) {
      const s = summarizeRun(byRun.get(r.runId) ?? []);
      expect(s.status, s.error ?? '').toBe('answered');
      expect(s.validation?.ok, s.validation?.detail).toBe(true);
    }
    const [react, code] = meta.runs.map((r) => byRun.get(r.runId) ?? []);
    const calc = react.find((e) => e.type === 'tool-finished' && e.name === 'calculator');
    expect(calc?.type === 'tool-finished' && calc.error).toBe(null);
    const program = code.find((e) => e.type === 'code-run');
    expect(program?.type === 'code-run' && program.error).toBe(null);
    // The calculator's first calculation left mathjs's code cache beside the bundle, for the next thread to load.
    const files = await readdir(join(process.cwd(), outdir));
    expect(files.filter((f) => /^math\.js\.[0-9a-f]{12}\.cache$/.test(f))).toHaveLength(1);
  });
});
