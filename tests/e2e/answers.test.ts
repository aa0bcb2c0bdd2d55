/**
 * Answers in the app against a real `parallax serve`: a stored comparison whose answers are hostile (scripts,
 * handlers, remote images, javascript: links, a huge answer, a nesting bomb) opened from History. The answers
 * render as Markdown, nothing runs or loads, links open apart from the page, Raw shows the exact text, and the
 * Answers tab compares two answers word by word, any two picked.
 */
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { StoredComparison } from '../../shared/ipc-contract.js';
import { HOSTILE_ANSWER, HOSTILE_ANSWER_B, HUGE_ANSWER, NESTED_BOMB } from '../helpers/hostile-answers.js';
import { startAppSession, stopAppSession } from './app-session.js';
import { ROOT, type Driven, type Served } from './harness.js';
import type { HostClient } from './host-client.js';
import { saveShot } from './screenshots.js';

const ANSWERS = [HOSTILE_ANSWER, HOSTILE_ANSWER_B, HUGE_ANSWER, NESTED_BOMB];

/** The recorded four-mode comparison, written into the data dir with its answers replaced. */
async function plantHostile(dataDir: string): Promise<StoredComparison> {
  const stored = JSON.parse(
    await readFile(join(ROOT, 'tests/fixtures/reports/stored/four-modes.stored.json'), 'utf8'),
  ) as StoredComparison;
  const dir = join(dataDir, 'comparisons', stored.meta.id);
  await mkdir(join(dir, 'runs'), { recursive: true });
  await writeFile(join(dir, 'meta.json'), JSON.stringify(stored.meta));
  for (const [i, r] of stored.meta.runs.entries()) {
    const events = stored.events
      .filter((e) => e.runId === r.runId)
      .map((e) => (e.type === 'run-finished' ? { ...e, answer: ANSWERS[i]! } : e));
    await writeFile(join(dir, 'runs', `${r.runId}.jsonl`), events.map((e) => JSON.stringify(e)).join('\n') + '\n');
  }
  return stored;
}

describe('answers in the app, against parallax serve', () => {
  let served: Served;
  let driven: Driven;
  let host: HostClient;
  const requests: string[] = [];
  const dialogs: string[] = [];

  beforeAll(async () => {
    ({ served, driven, host } = await startAppSession());
    driven.page.on('request', (r) => {
      const u = new URL(r.url());
      if (u.origin !== new URL(served.url).origin) requests.push(r.url());
    });
    driven.page.on('dialog', (d) => {
      dialogs.push(d.message());
      void d.dismiss();
    });
  });

  afterAll(() => stopAppSession({ served, driven, host }));

  it('renders hostile answers as inert Markdown, shows the raw text at a click, and diffs two answers', async () => {
    const { page, errors } = driven;
    const stored = await plantHostile(served.dataDir);
    const [reactId, codeId, hybridId] = stored.meta.runs.map((r) => r.runId) as [string, string, string];
    await page.click('[data-testid=side-tab-history]');
    await page.click('[aria-label="Reload history"]');
    await page.locator(`[data-testid=history-item][data-id="${stored.meta.id}"] .history-open`).click();
    await page.waitForSelector('[data-testid=result-cell][data-status=answered]');
    await page.click('[data-testid=sidebar-toggle]');
    const result = page.locator('[data-testid=result-row]');
    await result.scrollIntoViewIfNeeded();

    const md = page.locator('[data-testid=result-row] .cell[data-mode=react] [data-testid=answer-md]');
    await md.waitFor();
    // A cell is laid out only once in view (content-visibility: auto): until then its rendered text is empty.
    await expect.poll(() => md.locator('h1').innerText()).toBe('Result');
    expect(await md.locator('strong').first().innerText()).toBe('answer');
    expect(await md.innerText()).toContain('<script>window.__pwned = 1;');
    expect(await md.innerText()).toContain('[image: tracker]');
    const links = await page
      .locator('.md a')
      .evaluateAll((as) => as.map((a) => [a.getAttribute('href'), a.getAttribute('target'), a.getAttribute('rel')]));
    expect(links.length).toBeGreaterThan(0);
    for (const [href, target, rel] of links) {
      expect(href).toMatch(/^https:\/\/example\.com/);
      expect(target).toBe('_blank');
      expect(rel).toMatch(/noopener noreferrer/);
    }
    expect(
      await page
        .locator('.md script, .md img, .md iframe, .md svg, .md div, .md [onerror], .md [onmouseover], .md [onload]')
        .count(),
    ).toBe(0);
    // The huge answer and the nesting bomb: raw, whole, with the reason.
    const fallbacks = page.locator('[data-testid=answer-raw-fallback]');
    expect(await fallbacks.count()).toBe(2);
    expect(await fallbacks.allInnerTexts()).toEqual([
      expect.stringContaining('Too long to render as Markdown'),
      expect.stringContaining('Nested more than 20 levels'),
    ]);
    await saveShot(page, 'answers-rendered', { docs: false });

    await page.locator('[data-testid=answer-raw-btn]').first().click();
    const raw = page.locator('[data-testid=result-row] .cell[data-mode=react] pre.expandable-text');
    expect(await raw.textContent()).toBe(HOSTILE_ANSWER);
    expect(await page.locator('[data-testid=answer-md]').count()).toBe(0);
    await saveShot(page, 'answers-raw', { docs: false });
    await page.locator('[data-testid=answer-rendered-btn]').first().click();

    await page.click('[data-testid=tab-answers]');
    const diff = page.locator('[data-testid=answer-diff]');
    await diff.waitFor();
    expect([await diff.getAttribute('data-left'), await diff.getAttribute('data-right')]).toEqual([reactId, codeId]);
    expect(await page.locator('[data-testid=diff-left]').textContent()).toBe(HOSTILE_ANSWER);
    expect(await page.locator('[data-testid=diff-right]').textContent()).toBe(HOSTILE_ANSWER_B);
    expect(await diff.locator('del').allInnerTexts()).toEqual(expect.arrayContaining(['42', 'first']));
    expect(await diff.locator('ins').allInnerTexts()).toEqual(expect.arrayContaining(['43', 'initial']));
    expect(await page.textContent('[data-testid=diff-stats]')).toMatch(/only on the left .* only on the right/);
    await saveShot(page, 'answers-diff', { docs: false });

    // Any two: the right side becomes Hybrid's huge answer.
    await page.selectOption('[data-testid=diff-pick-right]', hybridId);
    await page.waitForSelector(`[data-testid=answer-diff][data-right="${hybridId}"]`);
    expect(await page.locator('[data-testid=diff-right]').textContent()).toBe(HUGE_ANSWER);
    expect(await page.textContent('[data-testid=diff-stats]')).toMatch(/too long to compare word by word/);

    // Legible in the dark theme too (a shot to look at).
    await page.selectOption('[data-testid=diff-pick-right]', codeId);
    await page.click('[data-testid=sidebar-toggle]');
    await page.click('[data-testid=theme-toggle]');
    await page.click('[data-testid=sidebar-toggle]');
    await saveShot(page, 'answers-diff-dark', { docs: false });
    await page.click('[data-testid=tab-timeline]');
    await page.locator('[data-testid=result-row]').scrollIntoViewIfNeeded();
    await saveShot(page, 'answers-rendered-dark', { docs: false });

    expect(await page.evaluate(() => (window as unknown as Record<string, unknown>).__pwned)).toBeUndefined();
    expect(requests).toEqual([]);
    expect(dialogs).toEqual([]);
    expect(errors).toEqual([]);
  });
});
