/**
 * No WCAG 2 A/AA violation on any main view, in either theme: axe-core over the composer, a comparison while it
 * runs (paused at approval cards) and once finished on each tab, its trials, a failed run, variants and the
 * matrix, the history, the suite view, the dialogs and menus, and the exported HTML reports. One `parallax
 * serve` and one Chromium page for all of it, to keep the audit's run short.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ComparisonMeta } from '../../shared/ipc-contract.js';
import type { ComparisonRequest } from '../../shared/run-spec.js';
import { runCli } from '../electron/host/cli-process.js';
import { auditBothThemes, auditPage, describeFindings, type Finding } from './a11y-audit.js';
import { startAppSession, stopAppSession, type AppSession } from './app-session.js';
import { readBars } from './page-helpers.js';
import { saveShot } from './screenshots.js';
import type { Page } from 'playwright-core';

const SIM = { name: 'simulated', baseUrl: null, model: 'sim' } as const;
// Charts last: the checks after an audit read the charts tab it leaves open.
const TABS = ['timeline', 'answers', 'waterfall', 'charts'] as const;
const DAMAGED = '20260101-000000-a11y-damaged';
const ENDED = ['answered', 'max-steps', 'error', 'crashed', 'cancelled', 'no-policy'];

describe('accessibility audit (axe-core, WCAG 2 A and AA), light and dark', { timeout: 600_000 }, () => {
  let session: AppSession;
  const page = () => session.driven.page;

  beforeAll(async () => {
    session = await startAppSession();
    // Colour transitions off, so that contrast is measured on the theme's final colours.
    await page().emulateMedia({ reducedMotion: 'reduce' });
  });
  afterAll(async () => {
    await reportPage?.close();
    await stopAppSession(session ?? {});
  });

  const expectClean = (found: readonly Finding[]) => expect(found.length === 0 ? '' : describeFindings(found)).toBe('');

  /** Audits each tab of the open comparison. */
  async function auditTabs(prefix: string): Promise<Finding[]> {
    const found: Finding[] = [];
    for (const tab of TABS) {
      await page().click(`[data-testid=tab-${tab}]`);
      await page().waitForSelector(`[data-testid=tab-${tab}][aria-selected=true]`);
      found.push(...(await auditBothThemes(page(), `${prefix}: ${tab}`)));
    }
    return found;
  }

  /** Starts a comparison through the host, waits until every run ended, and opens it from the history panel. */
  async function runAndOpen(request: ComparisonRequest): Promise<ComparisonMeta> {
    const { host } = session;
    const meta = await host.invoke('comparison:start', request);
    for (let i = 0; i < 600; i++) {
      const item = (await host.invoke('history:list')).find((x) => x.meta.id === meta.id);
      if (item && item.runs.length === meta.runs.length && item.runs.every((r) => r.status !== 'running')) break;
      await new Promise((ok) => setTimeout(ok, 200));
    }
    await page().click('[data-testid=side-tab-history]');
    await page().click(`[data-testid=history-item][data-id="${meta.id}"] .history-open`);
    await page().click('[data-testid=tab-timeline]');
    await page().waitForSelector(`[data-run-id="${meta.runs[0]!.runId}"]`);
    return meta;
  }

  it('the composer, plain and with every section open, and the empty history', async () => {
    const found: Finding[] = [];
    found.push(...(await auditBothThemes(page(), 'composer')));
    await page().click('[data-testid=advanced-toggle]');
    await page().click('[data-testid=add-variant]');
    await page().waitForSelector('[data-testid=variants-editor]');
    found.push(...(await auditBothThemes(page(), 'composer, advanced + variants')));
    await page().click('[data-testid=variants-clear]');
    // The panel's tabs by keyboard: one Tab stop, the arrow keys move between them and show their panel.
    await page().focus('[data-testid=side-tab-compose]');
    await page().keyboard.press('ArrowRight');
    await page().waitForSelector('[data-testid=history-empty]');
    expect(
      await page().evaluate(() => [document.activeElement?.id, document.activeElement?.getAttribute('tabindex')]),
    ).toEqual(['side-tab-history', '0']);
    expect(await page().getAttribute('#side-panel-body', 'aria-labelledby')).toBe('side-tab-history');
    found.push(...(await auditBothThemes(page(), 'history, empty')));
    await page().keyboard.press('ArrowLeft');
    await page().waitForSelector('[data-testid=side-tab-compose][aria-selected=true]');
    expectClean(found);
  });

  it('a running comparison paused at approval cards, then finished, with two trials, on each tab', async () => {
    const p = page();
    await p.click('[data-testid=task-time-and-title]');
    if ((await p.locator('[data-testid=approval-fetch_url]').count()) === 0)
      await p.click('[data-testid=advanced-toggle]');
    await p.selectOption('[data-testid=approval-fetch_url]', 'ask');
    await p.fill('[data-testid=trials-input]', '2');
    await p.click('[data-testid=run]');
    await p.waitForFunction(() => document.querySelectorAll('[data-testid=approval-card]').length === 2, undefined, {
      timeout: 120_000,
    });
    const found: Finding[] = [];
    found.push(...(await auditTabs('running, approval cards')));
    const said = () => p.textContent('[data-testid=live-announcer]');
    expect(await said()).toContain('needs your approval to go on.');

    await p.click('[data-testid=tab-timeline]');
    await p.click('[data-testid=approval-card] [data-testid=approval-allow-all]');
    await p.waitForFunction(
      () => {
        const opts = [...document.querySelectorAll('[data-testid=trial-option][data-state]')];
        return opts.length === 2 && opts.every((o) => o.getAttribute('data-state') === 'done');
      },
      undefined,
      { timeout: 180_000 },
    );
    // Announced once, politely; the Allow button that had focus is gone, so focus went to the view's tab.
    await p.waitForFunction(() =>
      document.querySelector('[data-testid=live-announcer]')?.textContent?.startsWith('Comparison finished'),
    );
    expect(await said()).toMatch(/^Comparison finished: 4 answered\.\s?$/);
    expect(await p.getAttribute('[data-testid=live-announcer]', 'aria-live')).toBe('polite');
    expect(await p.evaluate(() => document.activeElement?.id)).toBe('tab-timeline');
    // The result banner is on every tab, one line until "Why" opens it: opened, what it holds is audited with each.
    await p.waitForSelector('[data-testid=result-banner]');
    if ((await p.getAttribute('[data-testid=result-toggle]', 'aria-expanded')) !== 'true')
      await p.click('[data-testid=result-toggle]');
    await p.waitForSelector('[data-testid=result-banner] .result-body');
    found.push(...(await auditTabs('finished, 2 trials')));

    // Every chart offers its figures as a table: shown, it takes the drawing's place and holds each bar's value.
    const chart = p.locator('[data-testid=per-step-chart]');
    const bars = (await readBars(p)).filter((b) => b.kind === 'prompt');
    expect(await chart.getAttribute('role')).toBe(null);
    expect(await chart.locator('[role=img]').getAttribute('aria-label')).toMatch(
      /^Tokens per step · Trial \d \(simulated\)\. Its figures are in the table that follows\.$/,
    );
    expect(await p.locator('[data-testid=token-bar][aria-label]').count()).toBe(0);
    await chart.locator('[data-testid=show-as-table] input').check();
    expect(await chart.getAttribute('data-view')).toBe('table');
    const cells = await chart
      .locator('[data-testid=chart-table] tbody tr')
      .evaluateAll((rows) => rows.map((r) => [...r.children].map((c) => c.textContent ?? '')));
    const heads = await chart.locator('[data-testid=chart-table] thead th').allTextContents();
    for (const b of bars) {
      const row = cells.find((r) => r[0] === String(b.step))!;
      const label = b.mode === 'react' ? 'ReAct' : 'Code Mode';
      expect(row[heads.indexOf(`${label} prompt`)], `step ${b.step} ${b.mode}`).toBe(b.value.toLocaleString('en-US'));
    }
    await chart.scrollIntoViewIfNeeded();
    await saveShot(p, 'chart-as-table');
    found.push(...(await auditBothThemes(p, 'finished, 2 trials: charts with a table shown')));
    await chart.locator('[data-testid=show-as-table] input').uncheck();
    await p.click('[data-testid=trial-option][data-trial=all]');
    found.push(...(await auditTabs('finished, all trials')));
    expectClean(found);
  });

  /**
   * The suite runs in a `parallax suite` child of its own while the failed-runs and variants cases audit, so its
   * time is hidden behind theirs; the history case waits for it, so the list it audits does not change under it.
   */
  let suiteRun: ReturnType<typeof runCli> | undefined;
  async function startSuite(): ReturnType<typeof runCli> {
    const file = join(session.served.dataDir, 'a11y-suite.json');
    await writeFile(
      file,
      JSON.stringify({
        name: 'audit suite',
        modes: ['react', 'code'],
        trials: 1,
        tasks: [{ builtin: 'calc' }, { builtin: 'weather-f' }],
      }),
    );
    const env: NodeJS.ProcessEnv = { ...process.env, PARALLAX_DATA_DIR: session.served.dataDir };
    delete env.OPENAI_API_KEY;
    return runCli(['suite', 'run', file, '--json'], env);
  }

  it('a comparison whose runs failed, on each tab', async () => {
    suiteRun = startSuite();
    const meta = await runAndOpen({
      task: 'calc',
      provider: SIM,
      modes: ['react', 'code'],
      settings: { simFaults: ['500'] },
    });
    const statuses = (await session.host.invoke('history:list'))
      .find((x) => x.meta.id === meta.id)!
      .runs.map((r) => r.status);
    expect(
      statuses.every((s) => ENDED.includes(s) && s !== 'answered'),
      statuses.join(),
    ).toBe(true);
    expectClean(await auditTabs('failed runs'));
  });

  it('variants and the models × modes matrix', async () => {
    await runAndOpen({
      task: 'log-stats',
      provider: SIM,
      modes: ['react', 'code'],
      variants: [
        { mode: 'react', model: 'sim-careful' },
        { mode: 'code', model: 'sim-careful' },
        { mode: 'react', model: 'sim-hasty' },
        { mode: 'code', model: 'sim-hasty', settings: { returnTypes: false } },
      ],
    });
    await page().click('[data-testid=tab-charts]');
    await page().waitForSelector('[data-testid=matrix-view]');
    expectClean(await auditTabs('variants + matrix'));
  });

  it('the history list, the export menu and every dialog', async () => {
    const p = page();
    const found: Finding[] = [];
    await suiteRun;
    // The list holds a damaged record too: it cannot be opened or undone, so its Delete asks first.
    await mkdir(join(session.served.dataDir, 'comparisons', DAMAGED, 'runs'), { recursive: true });
    await writeFile(join(session.served.dataDir, 'comparisons', DAMAGED, 'meta.json'), '{}');
    await p.click('[data-testid=side-tab-history]');
    await p.click('[aria-label="Reload history"]');
    const damaged = p.locator(`[data-testid=history-damaged][data-id="${DAMAGED}"]`);
    await damaged.waitFor();
    found.push(...(await auditBothThemes(p, 'history, with a damaged record')));

    const openMenu = async () => {
      if ((await p.locator('[data-testid=export-otlp-send]').count()) === 0)
        await p.click('[data-testid=export-button]');
      await p.waitForSelector('[data-testid=export-otlp-send]');
    };
    await openMenu();
    found.push(...(await auditBothThemes(p, 'export menu', openMenu)));
    await openMenu();
    await p.click('[data-testid=export-otlp-send]');
    await p.waitForSelector('[data-testid=otlp-dialog]');
    expect(
      await p.evaluate(() => document.querySelector('[data-testid=otlp-dialog]')!.contains(document.activeElement)),
    ).toBe(true);
    found.push(...(await auditBothThemes(p, 'OTLP dialog')));
    await p.keyboard.press('Escape');
    await p.waitForSelector('[data-testid=otlp-dialog]', { state: 'detached' });
    // The menu item that opened it closed with the menu: focus goes back to the Export button.
    expect(await p.evaluate(() => (document.activeElement as HTMLElement | null)?.dataset.testid)).toBe(
      'export-button',
    );

    // Deleting asks nothing: the item leaves with an Undo toast, which waits while it holds focus (here, for
    // the audit's length), and focus goes to the next item instead of being lost with the Delete button.
    const item = p.locator('[data-testid=history-item]').first();
    const id = (await item.getAttribute('data-id'))!;
    await item.hover();
    await item.locator('[data-testid=history-delete]').click();
    await p.waitForFunction(
      (gone) =>
        document.activeElement?.classList.contains('history-open') &&
        !document.querySelector(`[data-testid=history-item][data-id="${gone}"]`),
      id,
    );
    await p.focus('[data-testid=toast-action]');
    found.push(...(await auditBothThemes(p, 'history, Undo toast')));
    expect(await p.getAttribute('[data-testid=toast]:has([data-testid=toast-action])', 'data-held')).toBe('true');
    await p.click('[data-testid=toast-action]');
    await p.waitForSelector(`[data-testid=history-item][data-id="${id}"]`);

    await damaged.locator('[data-testid=history-delete]').focus();
    await p.keyboard.press('Enter');
    await p.waitForSelector('[data-testid=confirm-dialog]');
    // Focus starts on the safe choice.
    expect(await p.evaluate(() => document.activeElement?.textContent)).toBe('Cancel');
    found.push(...(await auditBothThemes(p, 'confirm dialog')));
    await p.keyboard.press('Escape');
    await p.waitForSelector('[data-testid=confirm-dialog]', { state: 'detached' });
    expect(await p.evaluate(() => (document.activeElement as HTMLElement | null)?.dataset.testid)).toBe(
      'history-delete',
    );
    await p.keyboard.press('Enter');
    await p.click('[data-testid=confirm-dialog] .btn-danger');
    await damaged.waitFor({ state: 'detached' });

    await p.click('[data-testid=side-tab-compose]');
    await p.click('[data-testid=edit-prices]');
    await p.waitForSelector('[data-testid=price-editor]');
    found.push(...(await auditBothThemes(p, 'price editor')));
    // Tab stays inside the modal: from its last control it wraps to its first.
    const inEditor = () =>
      p.evaluate(() => document.querySelector('[data-testid=price-editor]')!.contains(document.activeElement));
    const controls = p
      .locator('[data-testid=price-editor]')
      .locator(
        'a[href], button:not([disabled]), input:not([disabled]), select:not([disabled]), textarea:not([disabled]), [tabindex]:not([tabindex="-1"])',
      );
    await controls.last().focus();
    await p.keyboard.press('Tab');
    expect(await inEditor()).toBe(true);
    await p.keyboard.press('Shift+Tab');
    expect(await inEditor()).toBe(true);
    await p.keyboard.press('Escape');
    await p.waitForSelector('[data-testid=price-editor]', { state: 'detached' });
    expect(await p.evaluate(() => (document.activeElement as HTMLElement | null)?.dataset.testid)).toBe('edit-prices');
    expectClean(found);
  });

  it('the suite view', async () => {
    const res = await (suiteRun ?? startSuite());
    expect(res.code, res.stderr).toBe(0);
    const id = (JSON.parse(res.stdout) as { id: string }).id;
    const p = page();
    await p.click('[data-testid=side-tab-history]');
    await p.click('[aria-label="Reload history"]');
    await p.locator(`[data-testid=suite-item][data-id="${id}"] .history-open`).click();
    await p.waitForSelector('[data-testid=suite-overall]');
    const found = await auditBothThemes(p, 'suite view');

    // Its HTML report, in a page of its own.
    const exported = await session.host.invoke('suites:export', id, 'html');
    expect(exported.status).toBe('download');
    if (exported.status === 'download') found.push(...(await auditReport(exported.content, 'suite HTML report')));
    await p.click('[data-testid=suite-close]');
    expectClean(found);
  });

  /**
   * An exported report is a page of its own (one page reused for every report): loaded once, audited with every
   * rule in the light colour scheme, then with the colour rules in the dark one, as the app's views are.
   */
  let reportPage: Page | undefined;
  async function auditReport(content: string, view: string): Promise<Finding[]> {
    reportPage ??= await session.driven.browser.newPage();
    const report = reportPage;
    await report.emulateMedia({ colorScheme: 'light', reducedMotion: 'reduce' });
    await report.setContent(content, { waitUntil: 'load' });
    const found = await auditPage(report, `${view} (light)`);
    await report.emulateMedia({ colorScheme: 'dark', reducedMotion: 'reduce' });
    await report.waitForFunction(() => matchMedia('(prefers-color-scheme: dark)').matches);
    found.push(...(await auditPage(report, `${view} (dark)`, { colours: true })));
    return found;
  }

  it('the exported HTML reports: one run per mode, trials with approvals, failed runs, variants with the matrix', async () => {
    const found: Finding[] = [];
    const list = await session.host.invoke('history:list');
    expect(list.length).toBeGreaterThanOrEqual(3);
    for (const item of list) {
      const exported = await session.host.invoke('report:export', item.meta.id, 'html');
      expect(exported.status).toBe('download');
      if (exported.status === 'download')
        found.push(
          ...(await auditReport(
            exported.content,
            `HTML report ${item.meta.task.id ?? 'custom'}, ${item.meta.runs.length} runs`,
          )),
        );
    }
    expectClean(found);
  });
});
