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

const stored = withStarts([
  { ms: 812, beforeRunMs: 640, pooled: true },
  { ms: 1234, beforeRunMs: 0, pooled: false },
  undefined,
  { ms: 90, beforeRunMs: 0, pooled: true },
]);
const ids = stored.meta.runs.map((r) => r.runId);

describe('worker start-up in the reports', () => {
  it('HTML: a row of its own, before Run said for a warm worker, — where not measured', async () => {
    const html = (await buildReport(stored, 'html')).content;
    // The cell's text, its note (where the worker started) read as it shows: on a line of its own under the figure.
    const cell = (runId: string) =>
      new RegExp(`data-run="${runId}" data-metric="startupMs" data-value="[^"]*">(.*?)</td>`)
        .exec(html)?.[1]
        ?.replace(/<span class="where">/g, ' ')
        .replace(/<[^>]+>/g, '')
        .trim();
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
    const json = JSON.parse((await buildReport(stored, 'json')).content) as {
      summary: { runs: { runId: string; totals: { startupMs: number } }[] };
    };
    const totals = Object.fromEntries(json.summary.runs.map((r) => [r.runId, r.totals.startupMs]));
    expect(totals[ids[0]!]).toBe(812);
    expect(totals[ids[2]!]).toBe(0);
  });
});

describe("worker start-up in the report's waterfall", () => {
  /** Each bar's left edge and width in %, by its span's label, for the first run's rows. */
  const bars = (html: string) =>
    [
      ...html.matchAll(
        /<tr class="wf-row depth-\d"><th scope="row" title="[^"]*">([^<]+)<.*?class="wf-bar wf-(\w[\w-]*)[^"]*" style="left:([\d.]+)%;width:([\d.]+)%"/g,
      ),
    ].map((m) => ({ label: m[1]!, kind: m[2]!, left: Number(m[3]), width: Number(m[4]) }));

  it('a start-up that would take most of the width is squeezed behind a break at 0; the run keeps 90 % of it', async () => {
    // 6.6 s of start-up beside runs of about a second, as a cold worker on a loaded machine gives.
    const slow = withStarts([
      { ms: 6600, beforeRunMs: 0, pooled: false },
      { ms: 6400, beforeRunMs: 0, pooled: false },
      undefined,
      undefined,
    ]);
    const html = (await buildReport(slow, 'html')).content;
    expect(html).toContain('<table class="waterfall" data-axis="broken">');
    expect(html).toMatch(/<span class="wf-break" style="width:10\.00%">start-up<\/span>/);
    const rows = bars(html);
    const startup = rows.find((r) => r.kind === 'startup')!;
    expect(startup.left + startup.width).toBeCloseTo(10, 1);
    expect(html).toContain('wf-bar wf-startup is-squeezed');
    // Every span of the runs sits right of the break, and together they reach the axis's end.
    const run = rows.filter((r) => r.kind !== 'startup');
    expect(run.length).toBeGreaterThan(0);
    for (const r of run) expect(r.left).toBeGreaterThanOrEqual(10 - 0.01);
    expect(Math.max(...run.map((r) => r.left + r.width))).toBeGreaterThan(90);
    // Its length is still said in words, in the "Takes" column.
    expect(html).toContain('<td class="num">6.6 s</td>');
  });

  it('short start-ups stay to scale', async () => {
    const html = (await buildReport(stored, 'html')).content;
    expect(html).toContain('<table class="waterfall" data-axis="to-scale">');
    expect(html).not.toContain('class="wf-break"');
  });
});
