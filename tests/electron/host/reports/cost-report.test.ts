/**
 * Cost and usage sources in every report format: a comparison at gpt-4.1-mini's price where ReAct's usage
 * was reported and Code Mode's estimated; one whose usage is missing; and comparisons stored before prices
 * existed, whose HTML and Markdown must stay byte for byte what they were (the files under
 * tests/fixtures/reports/*.before.* were written by the report code as it was before costs existed).
 */
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import Papa from 'papaparse';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { StoredComparison } from '../../../../shared/ipc-contract.js';
import { aggregateByColumn, groupByRun, summarizeComparison, summarizeRun } from '../../../../shared/summary.js';
import { buildReport, loadReportJson } from '../../../../electron/host/reports/index.js';
import { comparisonOf, estimatedComparison, LMSTUDIO, MINI_PRICE } from '../../../helpers/cost-runs.js';
import { openInChromium, OUT, writeReport, type OpenedReport } from './chromium.js';
import { elementShot } from '../../../helpers/element-shot.js';

const FIXTURES = fileURLToPath(new URL('../../../fixtures/reports/', import.meta.url));
const stored = estimatedComparison();
const [reactId, codeId] = stored.meta.runs.map((r) => r.runId);

describe('comparisons stored before prices existed', () => {
  for (const name of ['old-one-trial', 'old-three-trials']) {
    // Both .before.* were recorded again when the statistics over trials were added, when the result moved to the top
    // when answers were rendered as Markdown and compared word by word, when the worker start-up row was added,
    // when the answers' hidden Rendered/Raw switches were pinned inside their box (they widened A4 prints), and when
    // a figure's note (tool calls inside programs, where a worker started) moved to a wrapping line of its own,
    // when the result statement came to open the Result section (with the averages, then each run, in the HTML),
    // when the charts gained their figures as tables behind "Show as table", and when "Where the time went" (the
    // waterfall, drawn from the times old records already hold) was added, and when its CSS gained the history summary's colour,
    // when the result's advice named the trials to run (10, not "up to 10"), and when the waterfall learnt to squeeze a
    // start-up that would crush the run behind a break (its CSS), and the tool-call Δ came to count the tools run, and
    // when a final reply cut short or empty (statuses truncated and empty) got the colour of failure.
    it(`${name}: HTML and Markdown are byte for byte the recorded ones; CSV adds its cost columns, empty`, async () => {
      const old = JSON.parse(await readFile(`${FIXTURES}${name}.json`, 'utf8')) as StoredComparison;
      expect((await buildReport(old, 'html')).content).toBe(await readFile(`${FIXTURES}${name}.before.html`, 'utf8'));
      expect((await buildReport(old, 'md')).content).toBe(await readFile(`${FIXTURES}${name}.before.md`, 'utf8'));
      const csv = Papa.parse<Record<string, string>>((await buildReport(old, 'csv')).content, {
        header: true,
        skipEmptyLines: true,
      });
      for (const row of csv.data.filter((r) => r.row === 'step'))
        expect([row.usage_source, row.cost_usd, row.cost_source]).toEqual(['reported', '', 'no price recorded']);
    });
  }
});

describe('a priced comparison with estimated usage', () => {
  let opened: OpenedReport;
  beforeAll(async () => {
    opened = await openInChromium(
      await writeReport('cost-estimated.html', (await buildReport(stored, 'html')).content),
      { width: 1280, height: 900 },
    );
  });
  afterAll(async () => opened?.close());

  it('HTML: the summary shows each run\'s cost, its usage source and "≈" on estimated tokens', async () => {
    const page = opened.page;
    const cell = (run: string, metric: string) =>
      page.locator(`table.summary td[data-run="${run}"][data-metric="${metric}"]`);
    expect(await cell(reactId, 'cost').getAttribute('data-value')).toBe(
      String(summarizeRun(groupByRun(stored.events).get(reactId)!).cost.usd),
    );
    expect((await cell(reactId, 'cost').innerText()).split('\n')[0]).toBe('$0.00109');
    expect(await cell(codeId, 'cost').innerText()).toContain('≈ $0.000456');
    expect(await cell(codeId, 'cost').innerText()).toContain('-58.1% vs first');
    expect(await cell(codeId, 'usage-source').innerText()).toBe('≈ estimated');
    expect(await cell(reactId, 'usage-source').innerText()).toBe('reported');
    expect(await cell(codeId, 'total').innerText()).toMatch(/^≈ 960/);
    expect(await cell(reactId, 'total').innerText()).toMatch(/^2,630/);
    expect(await cell(codeId, 'cost').getAttribute('title')).toContain(
      'prices of 2026-12-01: $0.40 in, $0.10 cached, $1.60 out per 1M tokens',
    );
    expect(await page.locator('[data-testid="cost-legend"]').innerText()).toContain(
      'Costs in USD at the prices of 2026-12-01',
    );
    expect(await page.locator('[data-testid="cost-legend"]').innerText()).toContain(
      '≈ Estimated: the provider sent no usage',
    );
    expect(await page.locator('[data-testid="cost-legend"]').innerText()).toContain('All 2 runs together: ≈ $0.00154.');
  });

  it('HTML: the verdicts name the cheapest and the fewest-tokens run, marked as estimated, and the header gives the prices', async () => {
    const verdicts = await opened.page.locator('p.verdict').allInnerTexts();
    expect(verdicts[0]).toBe(
      'Fewest tokens: Code Mode — ≈ 960 total tokens, -63.5% vs ReAct (≈ estimated: built on usage Parallax counted because the provider sent none).',
    );
    expect(verdicts[1]).toBe(
      'Cheapest: Code Mode — ≈ $0.000456, -58.1% vs ReAct (≈ estimated: built on usage Parallax counted because the provider sent none).',
    );
    const facts = await opened.page.locator('header dl.facts').innerText();
    expect(facts).toContain('gpt-4.1-mini at prices of 2026-12-01: $0.40 in, $0.10 cached, $1.60 out per 1M tokens');
  });

  it('HTML: each step table has a cost column, and estimated steps carry "≈"', async () => {
    const rows = opened.page.locator(`table.steps tr[data-run="${reactId}"]`);
    expect(await rows.nth(0).locator('td[data-metric=cost]').innerText()).toBe('$0.000360');
    expect(await rows.nth(1).locator('td[data-metric=cost]').innerText()).toBe('$0.000728');
    const code = opened.page.locator(`table.steps tr[data-run="${codeId}"]`);
    expect(await code.getAttribute('data-usage')).toBe('estimated');
    expect(await code.locator('td').nth(1).innerText()).toBe('≈ 900');
    expect(await code.locator('td[data-metric=cost]').innerText()).toBe('≈ $0.000456');
    expect(await opened.page.locator(`[id="${codeId}-step-1"] header`).innerText()).toContain('cost ≈ $0.000456');
    expect(opened.requests).toEqual([]);
    await elementShot(opened.page.locator('table.summary'), `${OUT}/cost-summary.png`);
  });

  it('Markdown: the same figures, marks and verdicts', async () => {
    const md = (await buildReport(stored, 'md')).content;
    expect(md).toMatch(/^\| Cost \(USD\) \| \$0\.00109 \| ≈ \$0\.000456 \(-58\.1%\) \|$/m);
    expect(md).toMatch(/^\| Usage \| reported \| ≈ estimated \|$/m);
    expect(md).toMatch(/^\| Total tokens \| 2,630 \| ≈ 960 \(-63\.5%\) \|$/m);
    expect(md).toContain(
      '**Cheapest: Code Mode** — ≈ $0.000456, -58.1% vs ReAct (≈ estimated: built on usage Parallax counted because the provider sent none).',
    );
    expect(md).toContain(
      '- **Prices:** gpt-4.1-mini at prices of 2026-12-01: $0.40 in, $0.10 cached, $1.60 out per 1M tokens',
    );
    expect(md).toMatch(/^\| 1 \| ≈ 900 \| ≈ 60 \| 0 \| 0 \| ≈ 960 \| ≈ \$0\.000456 \|/m);
    expect(md).toMatch(/^\| 2 \| 1,500 \| 80 \| 0 \| 0 \| 1,580 \| \$0\.000728 \|/m);
  });

  it("CSV: each step's usage source, cost, where it came from and the price date", async () => {
    const rows = Papa.parse<Record<string, string>>((await buildReport(stored, 'csv')).content, {
      header: true,
      skipEmptyLines: true,
    }).data;
    expect(rows.map((r) => [r.run_id, r.step, r.usage_source, r.cost_usd, r.cost_source, r.price_date])).toEqual([
      [reactId, '1', 'reported', '0.00036', 'price', '2026-12-01'],
      [reactId, '2', 'reported', '0.000728', 'price', '2026-12-01'],
      [codeId, '1', 'estimated', '0.000456', 'price', '2026-12-01'],
    ]);
  });

  it('JSON: per-run cost and usage source, the verdicts, and the recorded price travel with the events and load back', async () => {
    const text = (await buildReport(stored, 'json')).content;
    const doc = JSON.parse(text) as { summary: ReturnType<typeof summarizeComparison> };
    const react = doc.summary.runs.find((r) => r.runId === reactId)!;
    expect(react.cost).toMatchObject({ usd: expect.closeTo(0.001088, 12), price: MINI_PRICE, kind: 'priced' });
    expect(doc.summary.runs.find((r) => r.runId === codeId)!.usageSource).toBe('estimated');
    expect(doc.summary.cheapest).toMatchObject({ runId: codeId, estimated: true });
    const loaded = loadReportJson(text);
    const again = summarizeComparison([...groupByRun(loaded.events).values()].map(summarizeRun));
    expect(again.cheapest).toEqual(doc.summary.cheapest);
    expect(again.runs.map((r) => r.cost.usd)).toEqual(doc.summary.runs.map((r) => r.cost.usd));
  });
});

describe('trials at a price', () => {
  const id = '20261201-170000-cafe0006';
  const runs = [1, 2, 3].flatMap((t) => [
    {
      runId: `${id}-react-t${t}`,
      mode: 'react' as const,
      price: MINI_PRICE,
      steps: [{ usage: { prompt: 1000 * t, completion: 100 }, source: 'reported' as const }],
    },
    {
      runId: `${id}-code-t${t}`,
      mode: 'code' as const,
      price: MINI_PRICE,
      steps: [
        {
          usage: { prompt: 500 * t, completion: 50 },
          source: t === 3 ? ('estimated' as const) : ('reported' as const),
        },
      ],
    },
  ]);
  const base = comparisonOf(id, runs);
  const trials: StoredComparison = {
    ...base,
    meta: { ...base.meta, runs: base.meta.runs.map((r, i) => ({ ...r, trial: Math.floor(i / 2) + 1 })) },
  };
  const byMode = aggregateByColumn([...groupByRun(trials.events).values()].map(summarizeRun));

  it("HTML: the average table has each mode's mean cost with its range, and the cheapest mode on average", async () => {
    const opened = await openInChromium(
      await writeReport('cost-trials.html', (await buildReport(trials, 'html')).content),
      { width: 1280, height: 900 },
    );
    try {
      for (const a of byMode) {
        const cell = opened.page.locator(`table.average td[data-mode="${a.mode}"][data-metric=cost]`);
        expect(Number(await cell.getAttribute('data-mean'))).toBe(a.cost!.mean);
        expect(Number(await cell.getAttribute('data-min'))).toBe(a.cost!.min);
      }
      // ReAct: 1000t × 0.4 + 100 × 1.6 → mean $0.00096; Code Mode 500t × 0.4 + 50 × 1.6 → mean ≈ $0.00048.
      expect(await opened.page.locator('table.average td[data-mode=react][data-metric=cost]').innerText()).toMatch(
        /^\$0\.000960/,
      );
      expect(await opened.page.locator('table.average td[data-mode=code][data-metric=cost]').innerText()).toMatch(
        /^≈ \$0\.000480/,
      );
      expect(await opened.page.locator('section.result p.verdict').allInnerTexts()).toContain(
        'Cheapest on average: Code Mode — mean ≈ $0.000480 over 3 runs (≈ estimated: built on usage Parallax counted because the provider sent none).',
      );
      expect(await opened.page.locator(`table.runs td[data-run="${id}-code-t3"][data-metric=cost]`).innerText()).toBe(
        '≈ $0.000680',
      );
      const { scroll, client } = await opened.page.evaluate(() => ({
        scroll: document.documentElement.scrollWidth,
        client: document.documentElement.clientWidth,
      }));
      expect(scroll).toBeLessThanOrEqual(client);
      await elementShot(opened.page.locator('section.average'), `${OUT}/cost-average.png`);
    } finally {
      await opened.close();
    }
  });

  it('Markdown: the same mean costs and verdict', async () => {
    const md = (await buildReport(trials, 'md')).content;
    // ± half the 95 % interval: t(0.975, 2) = 4.302652729749462 (scipy t.ppf) × sd / √3; sd $0.0004 (ReAct), $0.0002 (Code Mode).
    expect(md).toMatch(
      /^\| Cost \(USD\) \| \$0\.000960 ± \$0\.000994 \(\$0\.000560–\$0\.00136\) \| ≈ \$0\.000480 ± \$0\.000497 \(\$0\.000280–\$0\.000680\), -50\.0% \|$/m,
    );
    expect(md).toContain('**Cheapest on average: Code Mode** — mean ≈ $0.000480 over 3 runs');
  });
});

describe('figures that cannot be given', () => {
  it('a run whose usage is missing wins no verdict, in HTML and Markdown', async () => {
    const s = comparisonOf('20261201-130000-cafe0002', [
      {
        runId: 'm-react',
        mode: 'react',
        price: MINI_PRICE,
        steps: [{ usage: { prompt: 1000, completion: 10 }, source: 'reported' }],
      },
      { runId: 'm-code', mode: 'code', price: MINI_PRICE, steps: [{ usage: null }] },
    ]);
    const html = (await buildReport(s, 'html')).content;
    expect(html).toContain(
      'No token verdict: the provider sent no usage for some steps of Code Mode, so its totals are incomplete.',
    );
    expect(html).toContain('No cost verdict: the cost of Code Mode is not known (unknown: no usage).');
    expect(html).not.toContain('Fewest tokens:');
    expect(html).not.toContain('Cheapest:');
    const md = (await buildReport(s, 'md')).content;
    expect(md).toMatch(/^\| Usage \| reported \| not sent \|$/m);
    expect(md).toContain('Not sent: the provider sent no usage');
  });

  it('an unknown or local model shows "no price", never $0', async () => {
    const unknown = comparisonOf('20261201-140000-cafe0003', [
      {
        runId: 'u-react',
        mode: 'react',
        price: null,
        steps: [{ usage: { prompt: 1000, completion: 10 }, source: 'reported' }],
      },
      {
        runId: 'u-code',
        mode: 'code',
        price: null,
        steps: [{ usage: { prompt: 500, completion: 10 }, source: 'reported' }],
      },
    ]);
    const md = (await buildReport(unknown, 'md')).content;
    expect(md).toMatch(/^\| Cost \(USD\) \| no price \| no price \|$/m);
    expect(md).not.toMatch(/\$0\.00\b/);
    expect(md).toContain('No cost verdict: the price table had no price for this model');
    const local = comparisonOf(
      '20261201-150000-cafe0004',
      [
        {
          runId: 'l-react',
          mode: 'react',
          price: null,
          steps: [{ usage: { prompt: 1000, completion: 10 }, source: 'reported' }],
        },
      ],
      LMSTUDIO,
    );
    expect((await buildReport(local, 'html')).content).toContain('local: no API price');
  });

  it('a simulated comparison gets no cost columns, only the note why', async () => {
    const sim = { name: 'simulated', baseUrl: 'http://127.0.0.1:9/v1', model: 'sim', simulated: true };
    const s = comparisonOf(
      '20261201-160000-cafe0005',
      [
        {
          runId: 's-react',
          mode: 'react',
          price: null,
          steps: [{ usage: { prompt: 1000, completion: 10 }, source: 'reported' }],
        },
        {
          runId: 's-code',
          mode: 'code',
          price: null,
          steps: [{ usage: { prompt: 500, completion: 10 }, source: 'reported' }],
        },
      ],
      sim,
    );
    const md = (await buildReport(s, 'md')).content;
    expect(md).not.toContain('Cost (USD)');
    expect(md).toContain('- **Prices:** simulated: no price — The simulated model bills nobody, so it has no cost.');
    expect(md).toContain('**Fewest tokens: Code Mode** — 510 total tokens (simulated), -49.5% vs ReAct.');
  });
});
