/**
 * `parallax compare` on the simulated model: the CLI (its host and the simulated model it serves) must not begin
 * to load the tokenizer before the workers' first requests, or it takes the cores they load on. A resolve-hook
 * probe preloaded into the real CLI notes when each tokenizer module is first asked for; the stored events say
 * when each worker sent its first request. The counts it records need the tokenizer: they are still there.
 */
import { spawn } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { ModelResponseEvent } from '../../../shared/step-event.js';
import { HistoryStore } from '../../../electron/host/history-store.js';
import { cliModuleArgv } from '../host/cli-process.js';

const PROBE = join(process.cwd(), 'tests/helpers/load-probe.mjs');
const dirs: string[] = [];
afterAll(() => Promise.all(dirs.map((d) => rm(d, { recursive: true, force: true }))));

describe('parallax compare loads its tokenizer after the first request', () => {
  it('nothing of the tokenizer is asked for before a worker sent its first request; usage and composition are recorded', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'parallax-compare-probe-'));
    dirs.push(dataDir);
    const probe = join(dataDir, 'loads.txt');
    // Module by module (cliModuleArgv: tsc's output or the sources), so the probe sees each module's own name.
    const child = spawn(
      process.execPath,
      ['--import', PROBE, ...cliModuleArgv, 'compare', '--task', 'log-stats', '--modes', 'react,code', '--json'],
      {
        env: {
          ...process.env,
          PARALLAX_DATA_DIR: dataDir,
          PARALLAX_LOAD_PROBE: probe,
          // The engine's counter and tracker (not shared/prompt-composition.ts, which only names the parts).
          PARALLAX_LOAD_PROBE_MATCH: 'count-tokens|tokens/prompt-composition|gpt-tokenizer',
        },
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (c: string) => (stdout += c));
    child.stderr.setEncoding('utf8').on('data', (c: string) => (stderr += c));
    const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
    expect(code, stderr).toBe(0);

    const { comparisonId } = JSON.parse(stdout) as { comparisonId: string };
    const stored = await new HistoryStore(dataDir).open(comparisonId);
    const firstRequests = stored.meta.runs.map(({ runId }) => {
      const started = stored.events.find((e) => e.runId === runId && e.type === 'run-started');
      const request = stored.events.find((e) => e.runId === runId && e.type === 'model-request');
      expect(started?.type === 'run-started' && request, `run ${runId} sent a request`).toBeTruthy();
      return started!.type === 'run-started' ? started!.startedAt + request!.t : NaN;
    });
    // Counted with the tokenizer: the simulated usage and the prompt composition of every reply.
    const replies = stored.events.filter((e): e is ModelResponseEvent => e.type === 'model-response');
    expect(replies.length).toBeGreaterThanOrEqual(2);
    for (const r of replies) {
      expect(r.usage?.prompt, 'usage counted').toBeGreaterThan(0);
      expect(r.promptComposition, 'composition counted').toBeDefined();
    }

    const loads = (await readFile(probe, 'utf8'))
      .trim()
      .split('\n')
      .map((l) => ({ at: Number(l.split(' ')[0]), what: l.slice(l.indexOf(' ') + 1) }));
    expect(
      loads.some((l) => /count-tokens|gpt-tokenizer/.test(l.what)),
      'the probe saw the tokenizer load',
    ).toBe(true);
    // The stamps are whole milliseconds in the probe and a worker's start plus a fraction: compared by the millisecond.
    const first = Math.floor(Math.min(...firstRequests));
    for (const l of loads)
      expect(l.at, `${l.what} asked for ${first - l.at} ms before the first request was sent`).toBeGreaterThanOrEqual(
        first,
      );
  });
});
