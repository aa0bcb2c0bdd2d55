/**
 * A final reply cut short, empty, refused or filtered in the app, in Debian Chromium against a real `parallax serve`: a comparison
 * recorded through the real worker path against a replayed provider (tests/helpers/unfinished-replies.ts: ReAct
 * answers; Code Mode's final reply is cut at the token limit in the middle of a right-looking answer; ReAct (text)'s
 * is empty), stored in the served data folder and opened from History. The columns say "Cut short" and "Empty
 * reply" in the colour of failure, the step cards say why the last reply is not an answer, the Answers tab offers
 * only the run that answered, the charts' verdicts go to it, and the view passes the accessibility audit. Then the
 * same comparison with both final replies filtered after most of an answer (Azure content_filter; Gemini RECITATION
 * after a "Final Answer:" line): "Refused" columns, step cards that say why, a Final Answer marked as not the run's.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { StoredComparison } from '../../shared/ipc-contract.js';
import { storeComparison } from '../helpers/cost-runs.js';
import { wireHost } from '../helpers/wire-host.js';
import { filteredScript, unfinishedScript } from '../helpers/unfinished-replies.js';
import { auditBothThemes, describeFindings } from './a11y-audit.js';
import { startAppSession, stopAppSession, type AppSession } from './app-session.js';
import { saveShot } from './screenshots.js';

const { compare } = wireHost('sk-unfinished-e2e-9a8b7c');

describe('a final reply cut short, empty, refused or filtered in the app', { timeout: 300_000 }, () => {
  let session: AppSession;
  let stored: StoredComparison;
  let filtered: StoredComparison;
  // Both comparisons are in the served history before the app first lists it.
  beforeAll(async () => {
    session = await startAppSession();
    const record = async (script: typeof unfinishedScript) => {
      const recorded = await compare(script, {
        modes: ['react', 'code', 'react-text'],
        settings: { maxSteps: 4, maxRetries: 0 },
      });
      const s = await recorded.host['history:open'](recorded.id);
      await storeComparison(session.served.dataDir, s);
      return s;
    };
    stored = await record(unfinishedScript);
    filtered = await record(filteredScript);
  });
  afterAll(() => stopAppSession(session ?? {}));

  it('reads as a failure in its column, its step card and the verdicts, never as an answer', async () => {
    const { page } = session.driven;
    const open = async () => {
      await page.click('[data-testid=side-tab-history]');
      await page.click(`[data-testid=history-item][data-id="${stored.meta.id}"] .history-open`);
      await page.waitForSelector('[data-testid=column-react-text] [data-testid=run-status]');
    };
    await open();

    const badge = (mode: string) => page.locator(`[data-testid=column-${mode}] [data-testid=run-status]`);
    expect(await badge('react').getAttribute('data-outcome')).toBe('passed');
    for (const [mode, word, status] of [
      ['code', 'Cut short', 'truncated'],
      ['react-text', 'Empty reply', 'empty'],
    ] as const) {
      expect(await badge(mode).innerText()).toBe(word);
      expect(await badge(mode).getAttribute('data-status')).toBe(status);
      expect(await badge(mode).getAttribute('data-outcome')).not.toBe('passed');
      expect(await badge(mode).getAttribute('class')).toContain('badge-err');
    }
    // The last step of each says why its reply is no answer, in the colour of failure.
    const runOf = (mode: string) => stored.meta.runs.find((r) => r.mode === mode)!.runId;
    const card = (mode: string, step: number) =>
      page.locator(`[data-testid=step-card][data-run-id="${runOf(mode)}"][data-step="${step}"]`);
    const cutNote = card('code', 2).locator('[data-testid=cut-short-note]');
    expect(await cutNote.innerText()).toBe('Cut short at the token limit (finish reason: length): not an answer.');
    const [noteColour, errColour] = await cutNote.evaluate((el) => {
      const probe = document.createElement('span');
      probe.style.color = 'var(--err)';
      document.body.append(probe);
      const err = getComputedStyle(probe).color;
      probe.remove();
      return [getComputedStyle(el).color, err];
    });
    expect(noteColour).toBe(errColour);
    expect(await card('react-text', 2).locator('[data-testid=empty-reply-note]').innerText()).toBe(
      'Empty reply (finish reason: stop): not an answer.',
    );
    expect(await card('react', 2).locator('[data-testid=cut-short-note], [data-testid=empty-reply-note]').count()).toBe(
      0,
    );
    // Its parse error never went back: the run ended on the reply.
    expect(await card('react-text', 2).locator('[data-testid=parse-error]').innerText()).toMatch(
      /\(not sent back: the run ended on this reply\)$/,
    );
    await saveShot(page, 'unfinished-replies-timeline', { docs: false });
    await card('code', 2).scrollIntoViewIfNeeded();
    await saveShot(page, 'unfinished-replies-last-steps', { docs: false });

    // The Answers tab has one answer only, so it has nothing to set beside it.
    await page.click('[data-testid=tab-answers]');
    await page.waitForSelector('[data-testid=answers-view]');
    expect(await page.locator('[data-testid=answers-view]').innerText()).toMatch(/Nothing to compare yet/);

    // The verdicts go to the run that answered, though the other two spent less.
    await page.click('[data-testid=tab-charts]');
    await page.waitForSelector('[data-testid=verdict-cost]');
    expect(await page.locator('[data-testid=verdict-cost]').innerText()).toMatch(/^Cheapest: ReAct — \$/);
    await saveShot(page, 'unfinished-replies-charts', { docs: false });
    await page.click('[data-testid=tab-timeline]');

    const found = await auditBothThemes(page, 'a comparison with runs cut short and empty', open);
    expect(found, describeFindings(found)).toEqual([]);
    expect(session.driven.errors).toEqual([]);
  });

  it('a refused or filtered final reply reads as refused, with its reason on the step card, never as an answer', async () => {
    const stored = filtered;
    const { page } = session.driven;
    const open = async () => {
      await page.click('[data-testid=side-tab-history]');
      await page.click(`[data-testid=history-item][data-id="${stored.meta.id}"] .history-open`);
      await page.waitForSelector(
        `.tab-pane.is-shown [data-testid=step-card][data-run-id="${stored.meta.runs[2]!.runId}"][data-step="2"]`,
      );
    };
    await open();
    const pane = '.tab-pane.is-shown';
    const badge = (mode: string) => page.locator(`${pane} [data-testid=column-${mode}] [data-testid=run-status]`);
    expect(await badge('react').getAttribute('data-outcome')).toBe('passed');
    for (const mode of ['code', 'react-text']) {
      expect(await badge(mode).innerText()).toBe('Refused');
      expect(await badge(mode).getAttribute('data-status')).toBe('refused');
      expect(await badge(mode).getAttribute('data-outcome')).not.toBe('passed');
      expect(await badge(mode).getAttribute('class')).toContain('badge-err');
    }
    const runOf = (mode: string) => stored.meta.runs.find((r) => r.mode === mode)!.runId;
    const card = (mode: string, step: number) =>
      page.locator(`${pane} [data-testid=step-card][data-run-id="${runOf(mode)}"][data-step="${step}"]`);
    expect(await card('code', 2).locator('[data-testid=filtered-note]').innerText()).toBe(
      'Refused or filtered by the provider (finish reason: content_filter): not an answer.',
    );
    expect(await card('react-text', 2).locator('[data-testid=filtered-note]').innerText()).toBe(
      'Refused or filtered by the provider (finish reason: RECITATION): not an answer.',
    );
    // ReAct (text) wrote a "Final Answer:" line before the filter stopped it: shown as written, marked as not the run's answer.
    expect(await card('react-text', 2).locator('[data-testid=final-not-answer]').innerText()).toBe(
      "Not the run's answer: the provider refused or filtered the reply.",
    );
    expect(await card('react', 2).locator('[data-testid=filtered-note], [data-testid=final-not-answer]').count()).toBe(
      0,
    );
    await card('react-text', 2).scrollIntoViewIfNeeded();
    await saveShot(page, 'filtered-replies-last-steps', { docs: false });

    await page.click('[data-testid=tab-answers]');
    await page.waitForSelector(`${pane} [data-testid=answers-view]`);
    expect(await page.locator(`${pane} [data-testid=answers-view]`).innerText()).toMatch(/Nothing to compare yet/);
    await page.click('[data-testid=tab-charts]');
    await page.waitForSelector(`${pane} [data-testid=verdict-cost]`);
    expect(await page.locator(`${pane} [data-testid=verdict-cost]`).innerText()).toMatch(/^Cheapest: ReAct — \$/);
    await page.click('[data-testid=tab-timeline]');

    const found = await auditBothThemes(page, 'a comparison with filtered final replies', open);
    expect(found, describeFindings(found)).toEqual([]);
    expect(session.driven.errors).toEqual([]);
  });
});
