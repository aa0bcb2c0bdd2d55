/**
 * Test helper: the checks that a report's "Average over N trials" shows exactly aggregateByColumn of the stored
 * runs, recomputed in the test from the events (see trials-comparison.ts). Used on a real `--trials`
 * comparison and on assembled trials that really differ, in the HTML (opened in Chromium) and in Markdown.
 */
import { expect } from 'vitest';
import type { Page } from 'playwright-core';
import { MODE_LABELS } from '../../../../shared/run-spec.js';
import { formatPercent, percentDiff, type ModeAggregate, type Stat } from '../../../../shared/summary.js';
import { formatMs } from '../../../../electron/host/reports/report-text.js';
import type { Recomputed } from './trials-comparison.js';

type StatKey = 'steps' | 'requests' | 'prompt' | 'completion' | 'cached' | 'total' | 'wallMs' | 'toolCalls';
export const STAT_ROWS: readonly [string, StatKey][] = [
  ['Steps', 'steps'],
  ['Requests', 'requests'],
  ['Prompt tokens', 'prompt'],
  ['Completion tokens', 'completion'],
  ['Cached tokens', 'cached'],
  ['Total tokens', 'total'],
  ['Wall time', 'wallMs'],
  ['Tool calls', 'toolCalls'],
];

const round1 = (v: number) => Math.round(v * 10) / 10;
const num = (text: string) => Number(text.replace(/,/g, ''));

/** The expected difference text of a mode's mean against the first mode's, or null for the first mode. */
function expectedDiff(rec: Recomputed, i: number, key: StatKey): string | null {
  if (i === 0) return null;
  const s = rec.byMode[i][key],
    b = rec.byMode[0][key];
  return formatPercent(s && b ? percentDiff(s.mean, b.mean) : null);
}

/** The mode with the lowest mean total over its finished runs, computed here rather than read from the report. */
export function expectedCheaper(byMode: readonly ModeAggregate[]): ModeAggregate | null {
  const ranked = byMode.filter((a) => a.total !== null).sort((a, b) => a.total!.mean - b.total!.mean);
  return ranked[0] ?? null;
}

export async function expectHtmlAverage(page: Page, rec: Recomputed): Promise<void> {
  const table = page.locator('table.average');
  expect(await page.locator('#average h2').innerText()).toBe(`Average over ${rec.trials} trials`);
  for (const [i, a] of rec.byMode.entries()) {
    for (const key of ['answered', 'passed'] as const) {
      const cell = table.locator(`td[data-mode="${a.mode}"][data-metric="${key}"]`);
      expect((await cell.innerText()).split('\n')[0], `${a.mode} ${key}`).toBe(`${a[key]}/${a.trials}`);
    }
    // The pass rate's Wilson interval, as computed by aggregateByColumn.
    const passCi = table.locator(`td[data-mode="${a.mode}"][data-metric="passed"] .ci`);
    expect([
      Number(await passCi.getAttribute('data-ci-low')),
      Number(await passCi.getAttribute('data-ci-high')),
    ]).toEqual([...a.passRate!.ci95]);
    for (const [, key] of STAT_ROWS) {
      const cell = table.locator(`td[data-mode="${a.mode}"][data-metric="${key}"]`);
      const s: Stat | null = a[key];
      if (!s) {
        expect(await cell.innerText()).toBe('no finished run');
        continue;
      }
      const at = async (name: string) => Number(await cell.getAttribute(name));
      expect([await at('data-mean'), await at('data-min'), await at('data-max')], `${a.mode} ${key}`).toEqual([
        s.mean,
        s.min,
        s.max,
      ]);
      const ci = cell.locator('.ci');
      if (s.ci95) {
        const ciAt = async (name: string) => Number(await ci.getAttribute(name));
        expect(
          [await ciAt('data-ci-low'), await ciAt('data-ci-high'), await ciAt('data-sd')],
          `${a.mode} ${key} interval`,
        ).toEqual([s.ci95[0], s.ci95[1], s.sd]);
      } else expect(await ci.innerText()).toBe('1 trial: no interval');
      const shown = await cell.evaluate((td) => td.firstChild?.textContent ?? '');
      if (key === 'wallMs') expect(shown).toBe(formatMs(s.mean));
      else expect(num(shown), `${a.mode} ${key} shown`).toBe(round1(s.mean));
      const diff = expectedDiff(rec, i, key);
      expect(await cell.locator('.diff').innerText()).toBe(diff === null ? 'baseline' : `${diff} vs first`);
    }
  }
  const bars = await page
    .locator('#chart-average-total rect.bar')
    .evaluateAll((els) => els.map((e) => Number(e.getAttribute('data-mean'))));
  expect(bars).toEqual(rec.byMode.filter((a) => a.total).map((a) => a.total!.mean));
  // Error bars: the 95 % interval of each mean with one (a mode with a single run has none).
  const errorBars = await page
    .locator('#chart-average-total line.whisker[data-ci-low]')
    .evaluateAll((els) =>
      els.map((e) => [
        e.getAttribute('data-mode'),
        Number(e.getAttribute('data-ci-low')),
        Number(e.getAttribute('data-ci-high')),
      ]),
    );
  expect(errorBars).toEqual(
    rec.byMode.filter((a) => a.total?.ci95).map((a) => [a.mode, a.total!.ci95![0], a.total!.ci95![1]]),
  );
  const cheaper = expectedCheaper(rec.byMode);
  const verdict = await page.locator('#result .verdict').innerText();
  if (cheaper && rec.byMode.length > 1)
    expect(verdict).toContain(`Fewest tokens on average: ${MODE_LABELS[cheaper.mode]}`);
}

/** The Markdown average section's rows, by their label. */
function averageRows(md: string): Map<string, string[]> {
  const section = md.split(/^## Average over \d+ trials.*$/m)[1].split(/^## /m)[0];
  const rows = new Map<string, string[]>();
  for (const line of section.split('\n').filter((l) => l.startsWith('| ') && !l.startsWith('| ---'))) {
    const cells = line.replace(/^\| | \|$/g, '').split(' | ');
    rows.set(cells[0], cells.slice(1));
  }
  return rows;
}

export function expectMarkdownAverage(md: string, rec: Recomputed): void {
  const rows = averageRows(md);
  expect(rows.get('')).toEqual(rec.byMode.map((a) => MODE_LABELS[a.mode]));
  expect(rows.get('Answered')).toEqual(rec.byMode.map((a) => `${a.answered}/${a.trials}`));
  const pct = (v: number) => `${Math.round(v * 100)} %`;
  expect(rows.get('Passed validation')).toEqual(
    rec.byMode.map((a) => `${a.passed}/${a.trials} (95 % CI ${pct(a.passRate!.ci95[0])}–${pct(a.passRate!.ci95[1])})`),
  );
  for (const [label, key] of STAT_ROWS) {
    const cells = rows.get(label)!;
    for (const [i, a] of rec.byMode.entries()) {
      const s = a[key];
      if (!s) {
        expect(cells[i]).toBe('no finished run');
        continue;
      }
      const m = /^(.+?) ± (.+), sd (.+) \((.+)–(.+)\)(?:, (.+))?$/.exec(cells[i]);
      expect(m, `${label} ${a.mode}: ${cells[i]}`).not.toBeNull();
      const [, mean, half, sd, min, max, diff] = m!;
      const h = (s.ci95![1] - s.ci95![0]) / 2;
      if (key === 'wallMs')
        expect([mean, half, sd, min, max]).toEqual([
          formatMs(s.mean),
          formatMs(h),
          formatMs(s.sd!),
          formatMs(s.min),
          formatMs(s.max),
        ]);
      else
        expect([num(mean), num(half), num(sd), num(min), num(max)], `${label} ${a.mode}`).toEqual([
          round1(s.mean),
          round1(h),
          round1(s.sd!),
          s.min,
          s.max,
        ]);
      expect(diff ?? null).toBe(expectedDiff(rec, i, key));
    }
  }
  const cheaper = expectedCheaper(rec.byMode);
  if (cheaper && rec.byMode.length > 1)
    expect(md).toContain(`**Fewest tokens on average: ${MODE_LABELS[cheaper.mode]}**`);
}
