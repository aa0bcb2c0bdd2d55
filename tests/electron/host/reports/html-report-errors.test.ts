/**
 * The HTML report of a real run that goes wrong on purpose: time-and-title with return types hidden (the
 * classic wrong guess: a program treats fetch_url's object as a string and fails on a line) and one
 * simulated 429 (a retried request). Expected content is read from the stored events.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import Papa from 'papaparse';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { StoredComparison } from '../../../../shared/ipc-contract.js';
import type { CodeRunEvent } from '../../../../shared/step-event.js';
import { computePerStep, groupByRun } from '../../../../shared/summary.js';
import { buildReport } from '../../../../electron/host/reports/index.js';
import { openInChromium, type OpenedReport } from './chromium.js';
import { liveComparison, ROOT } from './live-comparison.js';

const OUT = join(ROOT, 'test-results', 'reports');
let stored: StoredComparison;
let opened: OpenedReport;

beforeAll(async () => {
  stored = (
    await liveComparison(['--task', 'time-and-title', '--settings', '{"returnTypes":false}', '--fault', '429-once'])
  ).stored;
  await mkdir(OUT, { recursive: true });
  const file = join(OUT, 'time-and-title-errors.html');
  await writeFile(file, (await buildReport(stored, 'html')).content);
  opened = await openInChromium(file);
});

afterAll(async () => {
  await opened?.close();
});

describe('HTML report of a run with a code error, tool searches and a retry', () => {
  it('marks the failing line of the program and quotes the error', async () => {
    const failed = stored.events.find((e): e is CodeRunEvent => e.type === 'code-run' && e.error?.line != null);
    expect(failed, 'the run should contain a program that failed on a line').toBeDefined();
    const line = failed!.error!.line!;
    const listing = opened.page.locator(`[id="${failed!.runId}-step-${failed!.step}"] ol.code`).first();
    const marked = listing.locator('li.error-line');
    expect(await marked.count()).toBe(1);
    expect((await marked.innerText()).trim()).toBe(failed!.code.split('\n')[line - 1].trim());
    const text = await opened.page.locator('body').innerText();
    expect(text).toContain(`Error at line ${line}`);
    expect(text).toContain(failed!.error!.message);
    await marked.scrollIntoViewIfNeeded();
    await opened.page.screenshot({ path: join(OUT, 'time-and-title-code-error.png') });
  });

  it('lists every tool search with its query and hits', async () => {
    const searches = stored.events.filter((e) => e.type === 'tool-search');
    expect(searches.length).toBeGreaterThan(0);
    const text = await opened.page.locator('body').innerText();
    for (const s of searches) {
      if (s.type !== 'tool-search') continue;
      expect(text).toContain(`Tool search: ${s.query}`);
      for (const h of s.hits) expect(text).toContain(h.signature);
    }
  });

  it("shows the failed attempt and counts it in the step's attempts, in HTML and CSV", async () => {
    const retries = stored.events.filter((e) => e.type === 'model-retry');
    expect(retries.length).toBeGreaterThan(0);
    const text = await opened.page.locator('body').innerText();
    for (const r of retries) if (r.type === 'model-retry') expect(text).toContain(`Attempt ${r.attempt} failed`);
    const csv = Papa.parse<Record<string, string>>((await buildReport(stored, 'csv')).content, {
      header: true,
      skipEmptyLines: true,
    }).data;
    for (const [runId, events] of groupByRun(stored.events)) {
      const rows = csv.filter((r) => r.run_id === runId);
      expect(rows.map((r) => Number(r.attempts))).toEqual(computePerStep(events).map((s) => s.attempts));
    }
    expect(csv.some((r) => Number(r.attempts) > 1)).toBe(true);
  });

  it('loads nothing and runs nothing', () => {
    expect(opened.requests).toEqual([]);
    expect(opened.dialogs).toEqual([]);
  });
});
