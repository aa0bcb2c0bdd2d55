/**
 * The baseline diff in Chromium, against a real `parallax serve`: stored comparisons of one task
 * (tests/fixtures/diff, real simulated runs, two of them copied to an earlier and a later time) in the served
 * history. Opened from the toolbar's Baseline… (visible with no hover; History's own Compare never covers the
 * item's time), it offers only the earlier comparisons, newest first, each labelled; the result marks worse and
 * better in words and signs as well as colour (never the success colour for worse), draws the tokens per step of
 * both comparisons, and shows their steps side by side. It passes the accessibility audit. Screenshots: docs/screenshots/baseline-diff.png and test-results/e2e/.
 */
import { readFileSync } from 'node:fs';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { diffSteps } from '../../shared/diff-steps.js';
import type { StoredComparison } from '../../shared/ipc-contract.js';
import { formatMean } from '../../shared/number-format.js';
import { runOutcome } from '../../shared/run-outcome.js';
import { groupByRun, summarizeRun, type RunSummary } from '../../shared/summary.js';
import { storeComparison } from '../helpers/cost-runs.js';
import { auditBothThemes, describeFindings } from './a11y-audit.js';
import { startAppSession, stopAppSession, type AppSession } from './app-session.js';
import { saveShot } from './screenshots.js';

const fixture = (name: string) =>
  JSON.parse(
    readFileSync(new URL(`../fixtures/diff/${name}.stored.json`, import.meta.url), 'utf8'),
  ) as StoredComparison;
const base = fixture('baseline-5-trials');
const changed = fixture('changed-5-trials');
const HOUR = 3_600_000;
/** The same runs stored under another id and time: one a day before the baseline, one an hour after `changed`. */
const copyAt = (s: StoredComparison, id: string, createdAt: number): StoredComparison => ({
  ...s,
  meta: { ...s.meta, id, createdAt },
});
const older = copyAt(base, '20261201-061524-380a7286', base.meta.createdAt - 24 * HOUR);
const later = copyAt(base, '20261202-071740-a0c27c82', changed.meta.createdAt + HOUR);

const runsOf = (s: StoredComparison, label: string): RunSummary[] =>
  [...groupByRun(s.events).values()].map((e) => summarizeRun(e)).filter((r) => r.column.label === label);
function meanTotal(s: StoredComparison, label: string): number {
  const t = runsOf(s, label)
    .filter((r) => runOutcome(r).passed)
    .map((r) => r.totals.total);
  return t.reduce((a, b) => a + b, 0) / t.length;
}

const ERR = 'rgb(198, 45, 55)'; // --err, light theme
const OK = 'rgb(23, 115, 62)'; // --ok, light theme

async function openFromToolbar(page: Page, stored: StoredComparison): Promise<void> {
  await page.click('[data-testid=side-tab-history]');
  await page.click('[aria-label="Reload history"]');
  const item = page.locator(`[data-testid=history-item][data-id="${stored.meta.id}"] .history-open`);
  await item.click();
  await page.waitForSelector(`[data-testid=comparison-toolbar]`);
  // In History, the item's own Compare and Delete (shown on hover and focus) never cover its time.
  const listed = page.locator(`[data-testid=history-item][data-id="${stored.meta.id}"]`);
  await listed.hover();
  const covered = await listed.evaluate((li) => {
    const when = li.querySelector('.history-when')!.getBoundingClientRect();
    return [...li.querySelectorAll<HTMLElement>('[data-testid=history-compare], [data-testid=history-delete]')]
      .filter((b) => getComputedStyle(b).opacity !== '0')
      .map((b) => ({ id: b.dataset.testid, box: b.getBoundingClientRect() }))
      .filter(
        ({ box }) => box.left < when.right && when.left < box.right && box.top < when.bottom && when.top < box.bottom,
      )
      .map(({ id }) => id);
  });
  expect(await listed.locator('[data-testid=history-compare]').evaluate((b) => getComputedStyle(b).opacity)).toBe('1');
  expect(covered).toEqual([]);
  // The pointer rests far from the toolbar: the entry must show with no hover.
  await page.mouse.move(1, 1);
  const entry = page.locator('[data-testid=toolbar-baseline]');
  expect(await entry.isVisible()).toBe(true);
  expect(await entry.evaluate((el) => getComputedStyle(el).opacity)).toBe('1');
  // Its name is there for every reader; the word beside the icon shows when the toolbar has room for it.
  expect(await entry.getAttribute('aria-label')).toBe('Compare with a baseline');
  expect(await entry.textContent()).toContain('Baseline…');
  await entry.click();
  await page.waitForSelector('[data-testid=diff-dialog]');
}

const offered = (page: Page) =>
  page.$$eval('[data-testid=diff-baseline-option]', (els) => els.map((e) => e.getAttribute('data-id')));

describe('compare with a baseline, from the toolbar', () => {
  let session: AppSession;
  beforeAll(async () => {
    session = await startAppSession();
    for (const s of [older, base, changed, later]) await storeComparison(session.served.dataDir, s);
  });
  afterAll(async () => {
    await stopAppSession(session ?? {});
  });

  it('offers earlier comparisons only, newest first, and shows what got worse, per step too', async () => {
    const page = session.driven.page;
    await page.setViewportSize({ width: 1280, height: 900 });
    await openFromToolbar(page, changed);
    // Earlier only (the later copy is not offered), newest first, each told apart in words.
    expect(await offered(page)).toEqual([base.meta.id, older.meta.id]);
    const label = await page.textContent(`[data-testid=diff-baseline-option][data-id="${base.meta.id}"]`);
    expect(label).toMatch(/log-stats|Log/i);
    expect(label).toContain('ReAct, Code Mode, Hybrid');
    expect(label).toContain('5 trials');
    expect(label).toContain('sim');
    expect(label).toMatch(/simulated/i);
    expect(label).toContain('2 min earlier');
    await page.click(`[data-testid=diff-baseline-option][data-id="${base.meta.id}"]`);
    await page.waitForSelector('[data-testid=baseline-diff]');

    const flags = await page.$$eval('[data-testid=baseline-diff] section.diff-col', (els) =>
      els.map((e) => [e.querySelector('h3')!.childNodes[0]!.textContent!.trim(), e.getAttribute('data-flag')]),
    );
    expect(flags).toEqual([
      ['ReAct', 'regressed'],
      ['Code Mode', 'regressed'],
      ['ReAct + tool search', 'comparison-only'],
      ['Hybrid', 'baseline-only'],
    ]);
    const react = page.locator('[data-testid=baseline-diff-react-1]');
    const totalRow = react.locator('tr[data-figure=total]');
    expect((await totalRow.locator('td').nth(0).textContent())!).toContain(formatMean(meanTotal(base, 'ReAct')));
    expect((await totalRow.locator('td').nth(1).textContent())!).toContain(formatMean(meanTotal(changed, 'ReAct')));
    expect((await totalRow.locator('td').nth(0).textContent())!).toContain('(simulated)');
    // Worse: a sign and a word beside the error colour.
    expect(await totalRow.getAttribute('data-trend')).toBe('regressed');
    const change = totalRow.locator('[data-testid=diff-change]');
    expect((await change.textContent())!).toMatch(/^▲ \+\d+ % worse$/);
    expect(await change.evaluate((el) => getComputedStyle(el).color)).toBe(ERR);
    const pass = page.locator('[data-testid=baseline-diff-code-2] tr[data-figure=passRate] td.diff-trend');
    expect((await pass.textContent())!).toMatch(/^Fails now: Pass rate: passed 5 of 5 → 0 of 5: it fails now/);
    expect(await pass.evaluate((el) => getComputedStyle(el).color)).toBe(ERR);
    expect(await page.textContent('[data-testid=baseline-diff-react-1] .diff-flag')).toBe('Regressed: worse');
    // Nothing that got worse wears the success colour.
    const worseColours = await page.$$eval(
      'tr[data-direction=worse] td.diff-change, tr[data-direction=worse] td.diff-trend',
      (els) => els.map((e) => getComputedStyle(e).color),
    );
    expect(worseColours.length).toBeGreaterThan(0);
    expect(worseColours).not.toContain(OK);

    // The per-step chart: the regressed column first, each bar the mean tokens of its step on its side.
    expect(await page.inputValue('[data-testid=diff-steps-column]')).toBe('react-1');
    const steps = diffSteps(runsOf(base, 'ReAct'), runsOf(changed, 'ReAct'));
    const bars = await page.$$eval('[data-testid=diff-step-chart] [data-testid=diff-step-bar]', (els) =>
      els.map((e) => [
        e.getAttribute('data-side'),
        Number(e.getAttribute('data-step')),
        Number(e.getAttribute('data-value')),
      ]),
    );
    const expected = steps.flatMap((s) => [
      ...(s.baseline ? [['baseline', s.step, s.baseline.total]] : []),
      ...(s.comparison ? [['comparison', s.step, s.comparison.total]] : []),
    ]);
    expect(bars.sort()).toEqual(expected.sort());
    expect(await page.textContent('[data-testid=diff-step-chart] figcaption')).toMatch(/simulated/i);
    expect(await page.textContent('[data-testid=diff-step-chart] table')).toContain('Baseline tokens (simulated)');

    // The step view: both comparisons' steps side by side, one row per step.
    const rows = page.locator('[data-testid=diff-step-table] [data-testid=diff-step-row]');
    expect(await rows.count()).toBe(steps.length);
    const first = await rows.nth(0).locator('td').allTextContents();
    expect(first[0]).toBe(formatMean(steps[0]!.baseline!.total));
    expect(first[3]).toBe(formatMean(steps[0]!.comparison!.total));
    expect(await page.textContent('[data-testid=diff-step-table] thead')).toContain('Tokens (simulated)');
    // Another column's steps on demand.
    await page.selectOption('[data-testid=diff-steps-column]', 'code-2');
    const codeSteps = diffSteps(runsOf(base, 'Code Mode'), runsOf(changed, 'Code Mode'));
    expect(await rows.count()).toBe(codeSteps.length);
    await page.selectOption('[data-testid=diff-steps-column]', 'react-1');

    await saveShot(page, 'baseline-diff');
    await page.locator('[data-testid=diff-steps]').scrollIntoViewIfNeeded();
    await saveShot(page, 'baseline-diff-steps', { docs: false });
    await page.setViewportSize({ width: 900, height: 900 });
    await page.locator('[data-testid=baseline-diff]').scrollIntoViewIfNeeded();
    await saveShot(page, 'baseline-diff-900', { docs: false });
    await page.locator('[data-testid=diff-steps]').scrollIntoViewIfNeeded();
    await saveShot(page, 'baseline-diff-steps-900', { docs: false });
    await page.setViewportSize({ width: 1280, height: 900 });

    const found = await auditBothThemes(page, 'compare with a baseline');
    expect(found.length === 0 ? '' : describeFindings(found)).toBe('');
    await page.keyboard.press('Escape');
    expect(await page.locator('[data-testid=diff-dialog]').count()).toBe(0);
    expect(session.driven.errors).toEqual([]);
  });

  it('marks what got better in the success colour with its sign and word', async () => {
    const page = session.driven.page;
    await openFromToolbar(page, later);
    expect(await offered(page)).toEqual([changed.meta.id, base.meta.id, older.meta.id]);
    await page.click(`[data-testid=diff-baseline-option][data-id="${changed.meta.id}"]`);
    await page.waitForSelector('[data-testid=baseline-diff]');
    const pass = page.locator('[data-testid=baseline-diff-code] tr[data-figure=passRate]');
    expect(await pass.getAttribute('data-trend')).toBe('improved');
    const change = pass.locator('[data-testid=diff-change]');
    expect(await change.textContent()).toBe('▲ +100 points better');
    expect(await change.evaluate((el) => getComputedStyle(el).color)).toBe(OK);
    const worseColours = await page.$$eval('tr[data-direction=worse] td', (els) =>
      els.map((e) => getComputedStyle(e).color),
    );
    expect(worseColours).not.toContain(OK);
    await saveShot(page, 'baseline-diff-better', { docs: false });
    await page.click('[data-testid=diff-close]');
    expect(session.driven.errors).toEqual([]);
  });
});
