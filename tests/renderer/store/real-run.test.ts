/**
 * The run model on event streams recorded from real runs: `parallax compare --task log-stats` with the simulated
 * model (once clean, once with a 429 retry and malformed tool arguments), read back from the JSONL history.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { StepEvent } from '../../../shared/step-event.js';
import { computePerStep, computeTotals } from '../../../shared/summary.js';
import { applyEvents, runStatus, type RunMap } from '../../../renderer/store/run-model.js';

const ROOT = resolve(import.meta.dirname, '..', '..', '..');
const run = promisify(execFile);

async function recordComparison(faults: string[]): Promise<{ dir: string; events: StepEvent[] }> {
  const dir = mkdtempSync(join(tmpdir(), 'parallax-store-'));
  const args = [
    join(ROOT, 'bin', 'parallax.js'),
    'compare',
    '--task',
    'log-stats',
    '--json',
    ...(faults.length ? ['--fault', ...faults] : []),
  ];
  await run(process.execPath, args, { cwd: ROOT, env: { ...process.env, PARALLAX_DATA_DIR: dir }, timeout: 120_000 });
  const [id] = readdirSync(join(dir, 'comparisons'));
  const runsDir = join(dir, 'comparisons', id!, 'runs');
  const events = readdirSync(runsDir)
    .filter((f) => f.endsWith('.jsonl'))
    .flatMap((f) =>
      readFileSync(join(runsDir, f), 'utf8')
        .split('\n')
        .filter(Boolean)
        .map((l) => JSON.parse(l) as StepEvent),
    );
  // Interleave the runs by time, as the host delivers them.
  events.sort((a, b) => a.t - b.t || a.runId.localeCompare(b.runId) || a.seq - b.seq);
  return { dir, events };
}

describe('run model on recorded runs', () => {
  const recorded: { dir: string; events: StepEvent[] }[] = [];

  beforeAll(async () => {
    recorded.push(...(await Promise.all([recordComparison([]), recordComparison(['429-once', 'malformed-args'])])));
  });

  afterAll(() => {
    for (const r of recorded) rmSync(r.dir, { recursive: true, force: true });
  });

  it('applying each recorded stream as one batch, in frame-sized batches, or event by event gives the same state', () => {
    for (const { events } of recorded) {
      const single = events.reduce<RunMap>((m, e) => applyEvents(m, [e]), {});
      expect(applyEvents({}, events)).toEqual(single);
      let batched: RunMap = {};
      for (let i = 0; i < events.length; i += 7) batched = applyEvents(batched, events.slice(i, i + 7));
      expect(batched).toEqual(single);
    }
  });

  it('holds every step the report math sees, with totals equal to run-finished', () => {
    for (const { events } of recorded) {
      const runs = applyEvents({}, events);
      expect(Object.keys(runs)).toHaveLength(2);
      for (const r of Object.values(runs)) {
        expect(runStatus(r)).toBe('answered');
        expect(r.gaps).toBe(0);
        expect(r.steps.map((s) => s.step)).toEqual(computePerStep(r.events).map((s) => s.step));
        expect(computeTotals(r.events)).toEqual(r.finished!.totals);
        // Every tool call the model asked for has its finished result attached.
        for (const s of r.steps)
          for (const c of s.calls) expect(c.finished, `${r.started?.mode} step ${s.step} ${c.name}`).not.toBeNull();
      }
    }
  });

  it('shows the injected faults where they happened: a retry on step 1 and an error returned to the model', () => {
    const runs = Object.values(applyEvents({}, recorded[1]!.events));
    for (const r of runs) {
      expect(r.steps[0]!.retries.length).toBeGreaterThanOrEqual(1);
      expect(r.steps[0]!.requests.map((q) => q.attempt)).toEqual([1, 2]);
      expect(r.steps.some((s) => s.calls.some((c) => c.finished?.error))).toBe(true);
    }
    const code = runs.find((r) => r.started?.mode === 'code')!;
    expect(code.steps.some((s) => s.calls.some((c) => c.codeRun))).toBe(true);
  });
});
