/**
 * The HTML report of real stored comparisons, opened in Debian Chromium: its figures equal the stored
 * events' totals, it loads nothing from anywhere, and hostile text from a model or a tool stays text.
 * Screenshots go to test-results/ (git-ignored) for a person to look at.
 */
import { mkdtemp, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { StoredComparison } from '../../../../shared/ipc-contract.js';
import type { RunTotals, StepEvent } from '../../../../shared/step-event.js';
import { computePerStep, computeTotals, groupByRun } from '../../../../shared/summary.js';
import { buildReport } from '../../../../electron/host/reports/index.js';
import { OUT, openInChromium, writeReport, type OpenedReport } from './chromium.js';
import { liveComparison } from './live-comparison.js';

let stored: StoredComparison;
let byRun: Map<string, StepEvent[]>;
let opened: OpenedReport;

beforeAll(async () => {
  stored = (await liveComparison(['--task', 'log-stats'])).stored;
  byRun = groupByRun(stored.events);
  opened = await openInChromium(await writeReport('log-stats.html', (await buildReport(stored, 'html')).content));
});

afterAll(async () => {
  await opened?.close();
});

const METRICS: (keyof RunTotals)[] = [
  'steps',
  'requests',
  'prompt',
  'completion',
  'cached',
  'reasoning',
  'total',
  'wallMs',
  'toolCalls',
];

describe('HTML report of a stored log-stats comparison', () => {
  it('loads with zero network requests, no script and no error', async () => {
    expect(opened.requests).toEqual([]);
    expect(opened.dialogs).toEqual([]);
    expect(opened.pageErrors).toEqual([]);
    expect(await opened.page.locator('script, img, iframe, object, embed, link[rel=stylesheet]').count()).toBe(0);
  });

  it("shows in the summary table the totals recomputed from each run's events", async () => {
    for (const r of stored.meta.runs) {
      const totals = computeTotals(byRun.get(r.runId)!);
      for (const m of METRICS) {
        const cell = opened.page.locator(`td[data-run="${r.runId}"][data-metric="${m}"]`);
        expect(await cell.getAttribute('data-value'), `${r.mode} ${m}`).toBe(String(totals[m]));
        if (m === 'wallMs') continue;
        // The visible figure (before the difference line) is the same number.
        const shown = await cell.evaluate((td) =>
          `${td.firstChild?.textContent ?? ''} ${td.querySelector('.where')?.textContent ?? ''}`.trim(),
        );
        // Tool calls say how many more the run's programs made: "1 + 6 inside programs".
        const [, count, inside] = /^([\d,]+)(?: \+ ([\d,]+) inside programs?)?$/.exec(shown) ?? [];
        expect(Number(count?.replace(/,/g, '')), `${r.mode} ${m}`).toBe(totals[m]);
        const programCalls = byRun
          .get(r.runId)!
          .reduce((n, e) => n + (e.type === 'code-run' ? e.toolCalls.length : 0), 0);
        expect(Number(inside ?? 0), `${r.mode} ${m} inside programs`).toBe(m === 'toolCalls' ? programCalls : 0);
      }
      expect(await opened.page.locator(`td[data-run="${r.runId}"][data-metric="status"]`).innerText()).toBe('answered');
    }
  });

  it("shows each mode's first-request size and draws every step's prompt and completion bar", async () => {
    for (const [i, r] of stored.meta.runs.entries()) {
      const per = computePerStep(byRun.get(r.runId)!);
      const first = opened.page.locator(`td[data-run="${r.runId}"][data-metric="first-request"]`);
      expect(await first.getAttribute('data-value')).toBe(String(per[0].prompt));
      const bars = await opened.page
        .locator(`#chart-steps-${i} rect.bar`)
        .evaluateAll((els) =>
          els.map(
            (e) => `${e.getAttribute('data-step')}:${e.getAttribute('data-kind')}:${e.getAttribute('data-value')}`,
          ),
        );
      expect(bars).toEqual(
        per.flatMap((s) => [`${s.step}:prompt:${s.prompt}`, `${s.step}:completion:${s.completion}`]),
      );
    }
    const lastPoints = await opened.page
      .locator('#chart-cumulative .point')
      .evaluateAll((els) => els.map((e) => Number(e.getAttribute('data-value'))));
    const expectedLast = stored.meta.runs.map((r) => computeTotals(byRun.get(r.runId)!).total);
    for (const total of expectedLast) expect(lastPoints).toContain(total);
  });

  it('labels the figures as simulated and names the mode with the fewest tokens, with no cost for the simulated model', async () => {
    const text = await opened.page.locator('body').innerText();
    expect(await opened.page.locator('h1 .badge.sim').innerText()).toBe('simulated');
    expect(await opened.page.locator('table.summary caption').innerText()).toMatch(/^Simulated:/);
    const totals = stored.meta.runs.map((r) => computeTotals(byRun.get(r.runId)!).total);
    const cheaper = totals[1] < totals[0] ? 'Code Mode' : 'ReAct';
    expect(text).toContain(`Fewest tokens: ${cheaper}`);
    expect(text).toContain('simulated: no price — The simulated model bills nobody, so it has no cost.');
    expect(text).not.toContain('Cost (USD)');
  });

  it("shows each mode's timeline: the tool calls, the code written and the answers", async () => {
    const text = await opened.page.locator('body').innerText();
    const tools = stored.events.filter((e) => e.type === 'tool-started').map((e) => e.name);
    for (const name of new Set(tools)) expect(text).toContain(name);
    const code = stored.events.find((e) => e.type === 'code-run');
    if (code?.type === 'code-run') expect(text).toContain(code.code.split('\n')[0].trim());
    for (const e of stored.events) if (e.type === 'run-finished') expect(text).toContain(e.answer.split('\n')[0]);
  });

  it('renders legibly: screenshots of the screen and print layouts', async () => {
    await opened.page.screenshot({ path: join(OUT, 'log-stats.png'), fullPage: true });
    await opened.page.emulateMedia({ media: 'print' });
    await opened.page.screenshot({ path: join(OUT, 'log-stats-print.png'), fullPage: true });
    await opened.page.emulateMedia({ media: 'screen' });
    const pdf = await opened.page.pdf({ format: 'A4', path: join(OUT, 'log-stats.pdf') });
    // Each mode's timeline starts a page of its own, so the print has more pages than modes.
    const pages = (pdf.toString('latin1').match(/\/Type\s*\/Page[^s]/g) ?? []).length;
    expect(pages).toBeGreaterThan(stored.meta.runs.length);
  });
});

describe('hostile text in a report', () => {
  const PAYLOAD =
    '<script>window.__pwned = 1; document.title = "pwned"</script><img src=x onerror="alert(\'xss\')"> <a href="http://127.0.0.1:9/">x</a>';

  function hostile(s: StoredComparison): StoredComparison {
    return {
      ...s,
      events: s.events.map((e) => {
        if (e.type === 'run-finished') return { ...e, answer: `${PAYLOAD}\n${e.answer}` };
        if (e.type === 'tool-finished') return { ...e, output: `${PAYLOAD}\n${e.output}` };
        if (e.type === 'model-response') return { ...e, text: PAYLOAD };
        return e;
      }),
    };
  }

  async function expectInert(file: string): Promise<void> {
    const o = await openInChromium(file);
    try {
      expect(o.dialogs).toEqual([]);
      expect(o.requests).toEqual([]);
      expect(await o.page.evaluate(() => (window as unknown as { __pwned?: number }).__pwned)).toBeUndefined();
      expect(await o.page.title()).not.toBe('pwned');
      expect(await o.page.locator('script, img, a[href]').count()).toBe(0);
      await expect(o.page.getByText('<script>window.__pwned = 1;').first().isVisible()).resolves.toBe(true);
    } finally {
      await o.close();
    }
  }

  it("shows a model's and a tool's <script> and <img onerror> as text and runs nothing", async () => {
    await expectInert(await writeReport('hostile.html', (await buildReport(hostile(stored), 'html')).content));
  });

  it('stays inert by escaping alone, with the Content-Security-Policy removed', async () => {
    const html = (await buildReport(hostile(stored), 'html')).content.replace(
      /<meta http-equiv="Content-Security-Policy"[^>]*>/,
      '',
    );
    expect(html).not.toContain('Content-Security-Policy');
    await expectInert(await writeReport('hostile-no-csp.html', html));
  });

  it('escapes hostile file names that reach the report through real tool results and the answer', async () => {
    const ws = await mkdtemp(join(OUT, 'ws-'));
    const evil = '<img src=x onerror=alert(1)>.txt';
    await writeFile(join(ws, evil), 'ERROR one\nok\nERROR two\n');
    await writeFile(join(ws, 'plain.txt'), 'ok\nERROR three\n');
    const real = (await liveComparison(['--task', 'log-stats', '--workspace', ws])).stored;
    expect(JSON.stringify(real.events)).toContain(evil);
    const file = await writeReport('hostile-file-name.html', (await buildReport(real, 'html')).content);
    const o = await openInChromium(file);
    try {
      expect(o.dialogs).toEqual([]);
      expect(o.requests).toEqual([]);
      expect(await o.page.locator('img').count()).toBe(0);
      expect(await o.page.locator('body').innerText()).toContain(evil);
    } finally {
      await o.close();
    }
  });

  it('(control) the same probes do see a request and a dialog when markup is not escaped', async () => {
    const file = await writeReport('control.html', `<!doctype html><p>${PAYLOAD}</p>`);
    const o = await openInChromium(file);
    try {
      expect(o.dialogs.length + o.requests.length).toBeGreaterThan(0);
      expect(await o.page.evaluate(() => (window as unknown as { __pwned?: number }).__pwned)).toBe(1);
    } finally {
      await o.close();
    }
  });
});

describe('runs that did not finish', () => {
  it('shows an interrupted run as unfinished, with the steps it stored, not hidden', async () => {
    const [first, second] = stored.meta.runs;
    const cut = byRun.get(second.runId)!;
    const keep = cut.slice(0, cut.findIndex((e) => e.type === 'model-response') + 1);
    const interrupted: StoredComparison = {
      ...stored,
      events: [...byRun.get(first.runId)!, ...keep],
      warnings: [`The run (${second.runId}) has no run-finished event.`],
    };
    const o = await openInChromium(
      await writeReport('interrupted.html', (await buildReport(interrupted, 'html')).content),
    );
    try {
      expect(await o.page.locator(`td[data-run="${second.runId}"][data-metric="status"]`).innerText()).toBe(
        'unfinished',
      );
      expect(
        await o.page.locator(`td[data-run="${second.runId}"][data-metric="prompt"]`).getAttribute('data-value'),
      ).toBe(String(computeTotals(keep).prompt));
      const text = await o.page.locator('body').innerText();
      expect(text).toMatch(/No run-finished event was stored/);
      expect(text).toContain('has no run-finished event');
      await o.page.screenshot({ path: join(OUT, 'interrupted.png'), fullPage: true });
    } finally {
      await o.close();
    }
    // When history knows the run died with its host, the report says interrupted rather than unfinished.
    const known = (await buildReport({ ...interrupted, interruptedRunIds: [second.runId] }, 'md')).content;
    expect(known).toMatch(/\| Status \|[^\n]*\| interrupted \|/);
    expect(known).toContain('The run was interrupted');
  });
});
