/**
 * A worker's start-up in the reports: its own row, apart from the wall time, with a warm-pool worker's
 * loading said to be before Run; "—" for runs recorded without it (not zero).
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import type { StoredComparison } from '../../../../shared/ipc-contract.js';
import type { WorkerStartRecord } from '../../../../shared/step-event.js';
import { buildReport } from '../../../../electron/host/reports/index.js';

const STORED = fileURLToPath(new URL('../../../fixtures/reports/stored/four-modes.stored.json', import.meta.url));

function withStarts(starts: readonly (WorkerStartRecord | undefined)[]): StoredComparison {
  const stored = JSON.parse(readFileSync(STORED, 'utf8')) as StoredComparison;
  const ids = stored.meta.runs.map((r) => r.runId);
  const events = stored.events.map((e) => {
    const start = starts[ids.indexOf(e.runId)];
    if (!start) return e;
    if (e.type === 'run-started') return { ...e, workerStart: start };
    if (e.type === 'run-finished') return { ...e, totals: { ...e.totals, startupMs: start.ms } };
    return e;
  });
  return { ...stored, events };
}

const stored = withStarts([{ ms: 812, beforeRunMs: 640, pooled: true }, { ms: 1234, beforeRunMs: 0, pooled: false }, undefined, { ms: 90, beforeRunMs: 0, pooled: true }]);
const ids = stored.meta.runs.map((r) => r.runId);

describe('worker start-up in the reports', () => {
  it('HTML: a row of its own, before Run said for a warm worker, — where not measured', async () => {
    const html = (await buildReport(stored, 'html')).content;
    // The cell's text, its note (where the worker started) read as it shows: on a line of its own under the figure.
    const cell = (runId: string) => new RegExp(`data-run="${runId}" data-metric="startupMs" data-value="[^"]*">(.*?)</td>`).exec(html)?.[1]
      ?.replace(/<span class="where">/g, ' ').replace(/<[^>]+>/g, '').trim();
    expect(html).toContain('<th scope="row">Worker start-up</th>');
    expect(cell(ids[0]!)).toBe('812 ms (640 ms before Run, warm pool)');
    expect(html).toContain('812 ms<span class="where">(640 ms before Run, warm pool)</span>');
    expect(cell(ids[1]!)).toBe('1.2 s');
    expect(html).not.toMatch(/data-metric="startupMs"[^<]*<span class="diff/);
    expect(cell(ids[2]!)).toBe('—');
    expect(cell(ids[3]!)).toBe('90 ms (warm pool)');
  });

  it('Markdown: the same figures in the summary table', async () => {
    const md = (await buildReport(stored, 'md')).content;
    const row = md.split('\n').find((l) => l.startsWith('| Worker start-up'));
    expect(row).toBeDefined();
    expect(row).toContain('812 ms (640 ms before Run, warm pool)');
    expect(row).toContain('1.2 s');
    expect(row).toContain('—');
    expect(row).not.toMatch(/vs first|%/);
  });

  it('JSON: the totals carry it, and each run its record', async () => {
    const json = JSON.parse((await buildReport(stored, 'json')).content) as { summary: { runs: { runId: string; totals: { startupMs: number } }[] } };
    const totals = Object.fromEntries(json.summary.runs.map((r) => [r.runId, r.totals.startupMs]));
    expect(totals[ids[0]!]).toBe(812);
    expect(totals[ids[2]!]).toBe(0);
  });
});
