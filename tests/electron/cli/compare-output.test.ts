/**
 * `parallax compare`'s tables and --json come from the report data: on stored comparisons (the report
 * fixtures) they name runs and their states exactly as the Markdown report does, and write figures with the
 * shared labels and formatters.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import type { StoredComparison } from '../../../shared/ipc-contract.js';
import { formatDuration } from '../../../shared/number-format.js';
import { metricsOn } from '../../../shared/run-metrics.js';
import { jsonResult, noAnswerMessage, sideBySide } from '../../../electron/cli/compare-output.js';
import { buildReport } from '../../../electron/host/reports/index.js';

const DIR = fileURLToPath(new URL('../../fixtures/reports/stored/', import.meta.url));
const load = (name: string) => JSON.parse(readFileSync(`${DIR}${name}.stored.json`, 'utf8')) as StoredComparison;
const runsTableOf = (md: string) =>
  md.split('\n').filter((l) => l.startsWith('| ') && !l.startsWith('| Run ') && !l.startsWith('| Metric'));

describe('compare output from the report data', () => {
  it('a run whose host died is "interrupted" in --json, the table and the report alike', async () => {
    const stored = load('interrupted');
    const out = jsonResult(stored);
    const lost = out.runs.find((r) => r.status !== 'answered')!;
    expect(lost.status).toBe('interrupted');
    expect(stored.interruptedRunIds).toEqual([lost.runId]);
    const text = sideBySide(stored, '/data').join('\n');
    expect(text.split('\n').find((l) => l.startsWith('Status'))).toContain('interrupted');
    expect((await buildReport(stored, 'md')).content).toContain('interrupted');
  });

  it('a run without run-finished that history does not know as dead is "unfinished", as in the reports', async () => {
    const stored = { ...load('interrupted'), interruptedRunIds: [] };
    const out = jsonResult(stored);
    expect(out.runs.map((r) => r.status).filter((s) => s !== 'answered')).toEqual(['unfinished']);
    expect(sideBySide(stored, '/data').find((l) => l.startsWith('Status'))).toContain('unfinished');
    expect((await buildReport(stored, 'md')).content).toContain('unfinished');
    expect(noAnswerMessage(stored)).toBeNull();
  });

  it('names each run with the report label, trial included', async () => {
    const stored = load('two-trials');
    const labels = jsonResult(stored).runs.map((r) => r.label);
    expect(labels).toContain('ReAct · trial 2');
    const md = (await buildReport(stored, 'md')).content;
    for (const label of labels) expect(md).toContain(label);
    const text = sideBySide(stored, '/data');
    for (const label of labels) expect(text.some((l) => l.startsWith(label))).toBe(true);
    expect(runsTableOf(md).length).toBeGreaterThan(0);
  });

  it('prints every CLI metric with its shared label (start-up in plain words), "(simulated)" on token counts, and one duration format', () => {
    const stored = load('four-modes');
    const text = sideBySide(stored, '/data');
    for (const m of metricsOn('cli')) {
      // The worker's start-up is said in plain words in the terminal (the app's label assumes the engine is known).
      const label =
        m.key === 'startupMs'
          ? 'Process start (not in wall time)'
          : m.unit === 'tokens'
            ? `${m.label} (simulated)`
            : m.label;
      expect(
        text.some((l) => l.startsWith(label)),
        label,
      ).toBe(true);
    }
    const wall = text.find((l) => l.startsWith('Wall time'))!;
    for (const r of jsonResult(stored).runs) {
      const ms = stored.events.find((e) => e.runId === r.runId && e.type === 'run-finished');
      expect(ms?.type).toBe('run-finished');
      if (ms?.type === 'run-finished') expect(wall).toContain(formatDuration(ms.totals.wallMs));
    }
  });

  it("says why nothing answered, run by run, with the report's words", () => {
    const stored = load('step-limit');
    expect(noAnswerMessage(stored)).toMatch(/^No run answered, so there is nothing to compare\.\n {2}ReAct: max-steps/);
  });
});
