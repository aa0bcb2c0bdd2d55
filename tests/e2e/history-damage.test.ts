/**
 * Damaged history in the app against a real `parallax serve`: meta.json files of {}, null and a bad runs field,
 * and a run log with a line missing fields. The sound comparison is still listed and opens; each damaged one is
 * listed with its reason and can be deleted from the list.
 */
import { appendFile, mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startAppSession, stopAppSession } from './app-session.js';
import type { Driven, Served } from './harness.js';
import type { HostClient } from './host-client.js';
import { saveShot } from './screenshots.js';

describe('damaged history in the app, against parallax serve', () => {
  let served: Served;
  let driven: Driven;
  let host: HostClient;

  beforeAll(async () => {
    ({ served, driven, host } = await startAppSession());
  });

  afterAll(() => stopAppSession({ served, driven, host }));

  it('lists every damaged comparison with its reason, keeps the sound one usable, and deletes a damaged one', async () => {
    const { page, errors } = driven;
    const meta = await host.invoke('comparison:start', {
      task: 'calc',
      modes: ['react'],
      provider: { name: 'simulated', baseUrl: null, model: 'sim' },
    });
    // Started from the test's own socket, so the page does not show it: wait on the host.
    for (let i = 0; i < 1200 && (await host.invoke('history:list'))[0]?.runs[0]?.status !== 'answered'; i++)
      await page.waitForTimeout(100);
    const root = join(served.dataDir, 'comparisons');
    const plant = async (id: string, text: string) => {
      await mkdir(join(root, id, 'runs'), { recursive: true });
      await writeFile(join(root, id, 'meta.json'), text);
    };
    await plant('20260101-000000-emptyobj', '{}');
    await plant('20260101-000000-nullmeta', 'null');
    await plant('20260101-000000-badruns', JSON.stringify({ ...meta, id: '20260101-000000-badruns', runs: 'react' }));
    // A line of the sound comparison's run log that lost its fields.
    await appendFile(
      join(root, meta.id, 'runs', `${meta.runs[0]!.runId}.jsonl`),
      `${JSON.stringify({ type: 'model-response', runId: meta.runs[0]!.runId, seq: 99, t: 1 })}\n`,
    );

    await page.click('[data-testid=side-tab-history]');
    await page.click('[aria-label="Reload history"]');
    await page.waitForFunction(() => document.querySelectorAll('[data-testid=history-damaged]').length === 3);
    const reasons = await page.$$eval('[data-testid=history-damaged]', (els) =>
      els.map(
        (e) => `${e.getAttribute('data-id')}: ${e.querySelector('[data-testid=history-damaged-reason]')?.textContent}`,
      ),
    );
    expect(reasons.sort()).toEqual([
      expect.stringMatching(
        /^20260101-000000-badruns: meta\.json is not a valid comparison record \(runs: .*It cannot be opened; delete it/,
      ),
      expect.stringMatching(/^20260101-000000-emptyobj: meta\.json is not a valid comparison record \(id: /),
      expect.stringMatching(/^20260101-000000-nullmeta: meta\.json is not a valid comparison record \(it holds null/),
    ]);
    const good = page.locator(`[data-testid=history-item][data-id="${meta.id}"]`);
    expect(await good.locator('[data-testid=history-problems]').textContent()).toMatch(
      /Damaged lines skipped: .*line \d+ was skipped: a model-response event that does not match the event format/,
    );
    expect(await page.textContent('[data-testid=history] .panel-subhead')).toContain('1 comparison, 3 damaged');
    await saveShot(page, 'history-damaged', { docs: false });

    // The sound comparison still opens, with the damage among its warnings.
    await good.locator('.history-open').click();
    await page.waitForSelector('[data-testid=result-cell][data-status=answered]');

    const victim = page.locator('[data-testid=history-damaged][data-id="20260101-000000-emptyobj"]');
    await victim.locator('[data-testid=history-delete]').click();
    await page.waitForSelector('[data-testid=confirm-dialog]');
    expect(await page.textContent('[data-testid=confirm-dialog]')).toContain(
      'damaged comparison 20260101-000000-emptyobj',
    );
    await page.click('[data-testid=confirm-dialog] .btn-danger');
    await page.waitForFunction(() => document.querySelectorAll('[data-testid=history-damaged]').length === 2);
    expect((await host.invoke('history:damaged')).map((d) => d.id).sort()).toEqual([
      '20260101-000000-badruns',
      '20260101-000000-nullmeta',
    ]);
    expect((await host.invoke('history:list')).map((i) => i.meta.id)).toEqual([meta.id]);
    expect(errors).toEqual([]);
  });
});
