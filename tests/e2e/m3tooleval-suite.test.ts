/**
 * M3ToolEval in the app, against a real `parallax serve`: `parallax suite run m3tooleval:…` with two simulated
 * models writes to the served data dir; the suite view shows the paper's table as the host computes it, labelled
 * simulated, passes the accessibility audit in both themes, and exports the HTML report, which is opened in
 * Chromium, audited and looked at too.
 */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { modeLabel } from '../../shared/modes.js';
import { paperBoard } from '../../shared/paper-table.js';
import { runCli } from '../electron/host/cli-process.js';
import { auditBothThemes, auditPage, describeFindings } from './a11y-audit.js';
import { startAppSession, stopAppSession } from './app-session.js';
import type { Driven, Served } from './harness.js';
import type { HostClient } from './host-client.js';
import { saveShot } from './screenshots.js';

describe('an M3ToolEval suite run in the app', () => {
  let served: Served;
  let driven: Driven;
  let host: HostClient;

  beforeAll(async () => {
    ({ served, driven, host } = await startAppSession());
  });

  afterAll(() => stopAppSession({ served, driven, host }));

  it("shows the paper's table as the host computes it, labelled simulated, audited, and exports it as HTML", async () => {
    const env: NodeJS.ProcessEnv = { ...process.env, PARALLAX_DATA_DIR: served.dataDir };
    delete env.OPENAI_API_KEY;
    const res = await runCli(
      [
        'suite',
        'run',
        'm3tooleval:trade_calculator',
        '--modes',
        'react,react-text,code-py',
        '--models',
        'sim,sim-hasty',
        '--trials',
        '2',
        '--limit',
        '2',
        '--json',
      ],
      env,
    );
    expect(res.code, res.stderr).toBe(0);
    const id = (JSON.parse(res.stdout) as { id: string }).id;

    const { page, errors } = driven;
    await page.click('[data-testid=side-tab-history]');
    await page.click('[aria-label="Reload history"]');
    const item = page.locator(`[data-testid=suite-item][data-id="${id}"]`);
    await item.waitFor();
    await item.locator('.history-open').click();
    await page.waitForSelector('[data-testid=paper-table]');

    const view = await host.invoke('suites:open', id);
    expect(view.paper).toBeTruthy();
    const want = paperBoard(view.paper!, view.simulated, modeLabel);
    const rows = (testId: string) =>
      page.$$eval(`[data-testid=${testId}] tbody tr`, (trs) =>
        trs.map((r) => [...r.querySelectorAll('th, td')].map((c) => c.textContent ?? '')),
      );
    const heads = await page.$$eval('[data-testid=paper-table] thead th', (ths) => ths.map((t) => t.textContent ?? ''));
    expect(heads).toEqual(want.head);
    expect(heads).toContain('Tokens per step (simulated)');
    expect(await rows('paper-table')).toEqual(want.rows);
    // Two models × the paper's three modes, text actions first.
    expect(want.rows.map((r) => r[1])).toEqual([
      'ReAct (text)',
      'ReAct',
      'Code Mode (Python)',
      'ReAct (text)',
      'ReAct',
      'Code Mode (Python)',
    ]);
    // Its tasks are comparisons in the history list: a column whose answers all failed is never green there.
    const failed = await page.$$eval('.history-run', (els) =>
      els
        .filter((e) => e.querySelector('[data-testid=history-passed]')?.textContent === '0/2 passed')
        .map((e) => e.querySelector('.badge')?.className ?? ''),
    );
    expect(failed.length).toBeGreaterThan(0);
    for (const cls of failed) expect(cls).not.toContain('badge-ok');
    const paperView = page.locator('[data-testid=paper-table-view]');
    expect(await paperView.textContent()).toMatch(/simulated/i);
    expect(await page.$$eval('[data-testid=paper-sentences] li', (lis) => lis.length)).toBeGreaterThan(0);
    expect(await rows('paper-published')).not.toHaveLength(0);

    await paperView.scrollIntoViewIfNeeded();
    await saveShot(page, 'suite-m3tooleval', { docs: false });
    const found = await auditBothThemes(page, 'suite view: m3tooleval');
    expect(found, describeFindings(found)).toEqual([]);

    // The HTML report as the app downloads it, opened in the browser.
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.click('[data-testid=suite-export-html]'),
    ]);
    const file = join(served.dataDir, 'report.html');
    await writeFile(file, Buffer.concat(await (await download.createReadStream()).toArray()));
    const report = await page.context().newPage();
    try {
      await report.goto(`file://${file}`);
      await report.waitForSelector('[data-testid=paper-table]');
      expect(
        await report.$$eval('[data-testid=paper-table] tbody tr', (trs) =>
          trs.map((r) => [...r.querySelectorAll('td')].map((c) => c.textContent ?? '')),
        ),
      ).toEqual(want.rows);
      expect(await report.textContent('h2:has-text("The paper\'s table")')).toContain('(simulated)');
      await report.setViewportSize({ width: 1280, height: 800 });
      await report.locator('[data-testid=paper-table]').scrollIntoViewIfNeeded();
      await saveShot(report, 'suite-report-m3tooleval', { docs: false });
      const inReport = await auditPage(report, 'suite report (HTML): m3tooleval');
      expect(inReport, describeFindings(inReport)).toEqual([]);
    } finally {
      await report.close();
    }
    expect(errors).toEqual([]);
  });
});
