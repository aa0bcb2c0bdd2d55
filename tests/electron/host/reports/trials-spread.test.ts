/**
 * Reports of trials that really differ: three real calc comparisons (plain, with malformed tool arguments
 * that cost an extra step, and with a one-step limit that leaves both modes unanswered) joined as trials
 * 1–3 of one comparison. Means, minimums and maximums differ, a trial has no answer, and each expected
 * figure is aggregateByColumn of the runs recomputed here from the events.
 */
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { StoredComparison } from '../../../../shared/ipc-contract.js';
import { buildReport } from '../../../../electron/host/reports/index.js';
import { expectHtmlAverage, expectMarkdownAverage } from './average-checks.js';
import { OUT, openInChromium, writeReport, type OpenedReport } from './chromium.js';
import { mergedTrials, recompute, type Recomputed } from './trials-comparison.js';

let stored: StoredComparison;
let rec: Recomputed;
let opened: OpenedReport;

beforeAll(async () => {
  stored = await mergedTrials([
    ['--task', 'calc'],
    ['--task', 'calc', '--fault', 'malformed-args'],
    ['--task', 'calc', '--max-steps', '1'],
  ]);
  rec = recompute(stored);
  opened = await openInChromium(
    await writeReport('calc-trials-spread.html', (await buildReport(stored, 'html')).content),
  );
});

afterAll(async () => {
  await opened?.close();
});

describe('trials that differ', () => {
  it('are what the test needs: totals that differ between trials, and a trial with no answer', () => {
    for (const a of rec.byMode) {
      expect(a.total!.min, a.mode).toBeLessThan(a.total!.max);
      expect(a.answered, a.mode).toBeLessThan(a.trials);
    }
    expect(rec.runs.filter((r) => r.trial === 3).every((r) => r.status !== 'answered')).toBe(true);
  });

  it('HTML: the average table, chart and verdict equal aggregateByColumn of the events, over every run that ended by itself', async () => {
    expect(opened.requests).toEqual([]);
    expect(opened.pageErrors).toEqual([]);
    await expectHtmlAverage(opened.page, rec);
    const verdict = await opened.page.locator('#result .verdict').innerText();
    for (const a of rec.byMode) expect(verdict).toContain(`answered ${a.answered} of ${a.trials}`);
  });

  it('HTML: a trial where no run answered names no cheapest run, and its runs are starred', async () => {
    const trial3 = opened.page.locator('table.runs tbody').nth(2);
    expect(await trial3.locator('.tag').count()).toBe(0);
    for (const r of rec.runs.filter((x) => x.trial === 3)) {
      expect(await trial3.locator(`td[data-run="${r.runId}"][data-metric="status"]`).innerText()).toBe(r.status);
    }
    expect(await trial3.locator('.diff').last().innerText()).toMatch(/ \*$/);
    // Each trial names its one cheapest answered run (fewest total tokens; none on a tie), computed here from the events.
    for (let t = 1; t <= rec.trials; t++) {
      const answered = rec.runs.filter((r) => r.trial === t && r.status === 'answered');
      const tags = await opened.page
        .locator('table.runs tbody')
        .nth(t - 1)
        .locator('tr.run:has(.tag)')
        .evaluateAll((rows) => rows.map((r) => r.getAttribute('data-run')));
      const min = Math.min(...answered.map((r) => r.totals.total));
      const cheapest = answered.filter((r) => r.totals.total === min);
      expect(tags, `trial ${t}`).toEqual(cheapest.length === 1 ? [cheapest[0].runId] : []);
    }
    await opened.page.screenshot({ path: join(OUT, 'calc-trials-spread.png'), fullPage: true });
  });

  it('Markdown: the average table equals aggregateByColumn of the events', async () => {
    expectMarkdownAverage((await buildReport(stored, 'md')).content, rec);
  });

  it('JSON: byMode equals aggregateByColumn of the events', async () => {
    const doc = JSON.parse((await buildReport(stored, 'json')).content) as { summary: { byMode: unknown } };
    expect(doc.summary.byMode).toEqual(rec.byMode);
  });
});

describe('hostile text in a report with trials', () => {
  const PAYLOAD =
    '<script>window.__pwned = 1</script><img src=x onerror="alert(\'xss\')"> <a href="http://127.0.0.1:9/">x</a>';

  it('shows answers, validation details and tool output of every trial as text, and runs nothing', async () => {
    const hostile: StoredComparison = {
      ...stored,
      events: stored.events.map((e) => {
        if (e.type === 'run-finished')
          return {
            ...e,
            answer: `${PAYLOAD}\n${e.answer}`,
            validation: e.validation && { ...e.validation, detail: PAYLOAD },
          };
        if (e.type === 'tool-finished') return { ...e, output: PAYLOAD };
        return e;
      }),
    };
    const md = (await buildReport(hostile, 'md')).content;
    expect(md).not.toContain('<script>');
    const o = await openInChromium(
      await writeReport('calc-trials-hostile.html', (await buildReport(hostile, 'html')).content),
    );
    try {
      expect(o.dialogs).toEqual([]);
      expect(o.requests).toEqual([]);
      expect(await o.page.evaluate(() => (window as unknown as { __pwned?: number }).__pwned)).toBeUndefined();
      expect(await o.page.locator('script, img, a[href]').count()).toBe(0);
      const shown = await o.page.locator('table.runs .answer').allInnerTexts();
      expect(shown).toHaveLength(rec.runs.length);
      for (const text of shown) expect(text.startsWith('<script>window.__pwned = 1</script>')).toBe(true);
    } finally {
      await o.close();
    }
  });
});
