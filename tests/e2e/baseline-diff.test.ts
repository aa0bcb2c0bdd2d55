/**
 * "Compare with…" from History in Chromium, against a real `parallax serve`: stored comparisons of one task
 * (tests/fixtures/diff, real simulated runs) in the served history; the dialog shows per column what changed,
 * with the figures of the stored events, a column that fails now flagged in the error colour's words, the
 * columns on one side only, and passes the accessibility audit. Screenshot: docs/screenshots/baseline-diff.png.
 */
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { StoredComparison } from '../../shared/ipc-contract.js';
import { formatMean } from '../../shared/number-format.js';
import { runOutcome } from '../../shared/run-outcome.js';
import { groupByRun, summarizeRun } from '../../shared/summary.js';
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

/** Mean total tokens of a column's passing runs, from the stored events. */
function meanTotal(s: StoredComparison, label: string): number {
  const t = [...groupByRun(s.events).values()]
    .map((e) => summarizeRun(e))
    .filter((r) => r.column.label === label && runOutcome(r).passed)
    .map((r) => r.totals.total);
  return t.reduce((a, b) => a + b, 0) / t.length;
}

describe('compare with a baseline, from History', () => {
  let session: AppSession;
  beforeAll(async () => {
    session = await startAppSession();
    for (const s of [base, changed]) await storeComparison(session.served.dataDir, s);
  });
  afterAll(async () => {
    await stopAppSession(session ?? {});
  });

  it('shows what changed per column against the chosen baseline', async () => {
    const page = session.driven.page;
    await page.click('[data-testid=side-tab-history]');
    await page.click('[aria-label="Reload history"]');
    const item = page.locator(`[data-testid=history-item][data-id="${changed.meta.id}"]`);
    await item.waitFor();
    await item.hover();
    await item.locator('[data-testid=history-compare]').click();
    await page.waitForSelector('[data-testid=diff-dialog]');
    // Only comparisons of the same task are offered.
    const options = await page.$$eval('[data-testid=diff-baseline] option', (els) =>
      els.map((e) => (e as HTMLOptionElement).value).filter(Boolean),
    );
    expect(options).toEqual([base.meta.id]);
    await page.selectOption('[data-testid=diff-baseline]', base.meta.id);
    await page.waitForSelector('[data-testid=baseline-diff]');

    const flags = await page.$$eval('[data-testid=baseline-diff] section', (els) =>
      els.map((e) => [e.querySelector('h3')!.childNodes[0]!.textContent!.trim(), e.getAttribute('data-flag')]),
    );
    expect(flags).toEqual([
      ['ReAct', 'regressed'],
      ['Code Mode', 'regressed'],
      ['ReAct + tool search', 'comparison-only'],
      ['Hybrid', 'baseline-only'],
    ]);
    const react = page.locator('[data-testid=baseline-diff-react-1]');
    const totalRow = react.locator('tr[data-figure=total] td');
    expect((await totalRow.nth(0).textContent())!).toContain(formatMean(meanTotal(base, 'ReAct')));
    expect((await totalRow.nth(1).textContent())!).toContain(formatMean(meanTotal(changed, 'ReAct')));
    expect((await totalRow.nth(0).textContent())!).toContain('(simulated)');
    expect(await react.locator('tr[data-figure=total]').getAttribute('data-trend')).toBe('regressed');
    const code = page.locator('[data-testid=baseline-diff-code-2]');
    const pass = code.locator('tr[data-figure=passRate] td.diff-trend');
    expect((await pass.textContent())!).toMatch(/^Fails now: Pass rate: passed 5 of 5 → 0 of 5: it fails now/);
    expect(await pass.evaluate((el) => el.classList.contains('bad'))).toBe(true);
    expect(await page.textContent('[data-testid=baseline-diff] .diff-headline')).toContain(
      'Code Mode regressed: it fails now.',
    );

    await saveShot(page, 'baseline-diff');
    const found = await auditBothThemes(page, 'compare with a baseline');
    expect(found.length === 0 ? '' : describeFindings(found)).toBe('');
    await page.keyboard.press('Escape');
    expect(await page.locator('[data-testid=diff-dialog]').count()).toBe(0);
    expect(session.driven.errors).toEqual([]);
  });
});
