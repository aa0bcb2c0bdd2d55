/**
 * Answers in the HTML report: rendered as Markdown, one click from the raw text, the first two compared word
 * by word, and nothing a hostile answer holds (scripts, handlers, remote images, javascript: links) runs or
 * loads in Chromium. The comparison is a recorded one with its answers replaced.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { StoredComparison } from '../../../../shared/ipc-contract.js';
import { buildReport } from '../../../../electron/host/reports/index.js';
import { HOSTILE_ANSWER, HOSTILE_ANSWER_B, HUGE_ANSWER, NESTED_BOMB } from '../../../helpers/hostile-answers.js';
import { openInChromium, OUT, writeReport, type OpenedReport } from './chromium.js';
import { elementShot } from '../../../helpers/element-shot.js';

const STORED = fileURLToPath(new URL('../../../fixtures/reports/stored/four-modes.stored.json', import.meta.url));
const ANSWERS = [HOSTILE_ANSWER, HOSTILE_ANSWER_B, HUGE_ANSWER, NESTED_BOMB];

function withAnswers(): StoredComparison {
  const stored = JSON.parse(readFileSync(STORED, 'utf8')) as StoredComparison;
  const ids = stored.meta.runs.map((r) => r.runId);
  const events = stored.events.map((e) =>
    e.type === 'run-finished' ? { ...e, answer: ANSWERS[ids.indexOf(e.runId)]! } : e,
  );
  return { ...stored, events };
}

const stored = withAnswers();
const [reactId, codeId, hybridId, searchId] = stored.meta.runs.map((r) => r.runId) as [string, string, string, string];
let content: string;
let opened: OpenedReport;

beforeAll(async () => {
  content = (await buildReport(stored, 'html')).content;
  opened = await openInChromium(await writeReport('hostile-answers.html', content), { width: 1280, height: 900 });
});
afterAll(async () => opened?.close());

describe('answers in the HTML report', () => {
  it('loads nothing, runs nothing and opens no dialog', async () => {
    expect(opened.requests).toEqual([]);
    expect(opened.dialogs).toEqual([]);
    expect(opened.pageErrors).toEqual([]);
    expect(await opened.page.evaluate(() => (window as unknown as Record<string, unknown>).__pwned)).toBeUndefined();
    expect(await opened.page.locator('script, img, iframe, object, embed').count()).toBe(0);
    // svg only from the report's own charts, none from the answers.
    expect(await opened.page.locator('.md svg, .md div, .answer-diff svg').count()).toBe(0);
    const handlers = await opened.page.evaluate(() =>
      [...document.querySelectorAll('*')].flatMap((el) =>
        [...el.attributes].filter((a) => a.name.startsWith('on')).map((a) => `${el.tagName} ${a.name}`),
      ),
    );
    expect(handlers).toEqual([]);
  });

  it('renders the Markdown, with http(s) links only, opened apart from the page', async () => {
    // Long answers fold in the summary table; open this one.
    await opened.page.locator(`[data-run="${reactId}"][data-metric="answer"] summary`).click();
    const view = opened.page.locator(`[data-run="${reactId}"][data-metric="answer"] .md`);
    expect(await view.locator('h1').innerText()).toBe('Result');
    expect(await view.locator('strong').first().innerText()).toBe('answer');
    expect(await view.locator('li').count()).toBe(4);
    const links = await opened.page
      .locator('.md a')
      .evaluateAll((as) => as.map((a) => [a.getAttribute('href'), a.getAttribute('target'), a.getAttribute('rel')]));
    expect(links.length).toBeGreaterThan(0);
    for (const [href, target, rel] of links) {
      expect(href).toMatch(/^https:\/\/example\.com/);
      expect(target).toBe('_blank');
      expect(rel).toContain('noopener');
      expect(rel).toContain('noreferrer');
    }
    const text = await view.innerText();
    expect(text).toContain('<script>window.__pwned = 1;');
    expect(text).toContain('[image: tracker]');
    // An HTML comment is shown as the text it is: nothing of the answer is hidden from the reader.
    expect(text).toContain('<!-- a hidden comment -->');
    expect(content).not.toContain('<!-- a hidden comment');
    expect(
      await view.evaluate(
        (el) =>
          [...el.querySelectorAll('*')]
            .flatMap((n) => [...n.childNodes])
            .filter((c) => c.nodeType === Node.COMMENT_NODE).length,
      ),
    ).toBe(0);
  });

  it('shows the raw text at a click, exactly as the model wrote it', async () => {
    const cell = opened.page.locator(`[data-run="${reactId}"][data-metric="answer"]`);
    expect(await cell.locator('pre.raw').isVisible()).toBe(false);
    await cell.locator('label', { hasText: 'Raw' }).click();
    expect(await cell.locator('pre.raw').isVisible()).toBe(true);
    expect(await cell.locator('.md').isVisible()).toBe(false);
    expect(await cell.locator('pre.raw').textContent()).toBe(HOSTILE_ANSWER);
    await elementShot(cell, join(OUT, 'answer-raw.png'));
    await cell.locator('label', { hasText: 'Rendered' }).click();
    expect(await cell.locator('.md').isVisible()).toBe(true);
    await elementShot(cell, join(OUT, 'answer-rendered.png'));
  });

  it('shows a huge answer and a nesting bomb raw and whole, with the reason', async () => {
    const huge = opened.page.locator(`section#mode-2 .final`);
    expect(await huge.innerText()).toContain('Too long to render as Markdown');
    expect(await huge.locator('pre').last().textContent()).toBe(HUGE_ANSWER);
    const bomb = opened.page.locator(`section#mode-3 .final`);
    expect(await bomb.innerText()).toContain('Nested more than 20 levels');
    expect(await bomb.locator('pre').last().textContent()).toBe(NESTED_BOMB);
    expect(hybridId && searchId).toBeTruthy();
  });

  it('compares the first two answers word by word, each side exactly its answer', async () => {
    const diff = opened.page.locator('.answer-diff');
    expect(await diff.getAttribute('data-left')).toBe(reactId);
    expect(await diff.getAttribute('data-right')).toBe(codeId);
    const [left, right] = await diff.locator('pre').evaluateAll((ps) => ps.map((p) => p.textContent));
    expect(left).toBe(HOSTILE_ANSWER);
    expect(right).toBe(HOSTILE_ANSWER_B);
    expect(await diff.locator('del').allInnerTexts()).toEqual(expect.arrayContaining(['42', 'first']));
    expect(await diff.locator('ins').allInnerTexts()).toEqual(expect.arrayContaining(['43', 'initial']));
    await diff.scrollIntoViewIfNeeded();
    await elementShot(diff, join(OUT, 'answer-diff.png'));
  });
});
