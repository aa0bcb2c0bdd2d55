/**
 * A suite run in the app, against a real `parallax serve`: `parallax suite run` writes to the same data dir,
 * the history panel lists the suite run, and its leaderboard shows the cells of the host's suites:open.
 */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { boardTables } from '../../shared/suite-leaderboard.js';
import { runCli } from '../electron/host/cli-process.js';
import { startAppSession, stopAppSession } from './app-session.js';
import type { Driven, Served } from './harness.js';
import type { HostClient } from './host-client.js';
import { saveShot } from './screenshots.js';

describe('a suite run in the app', () => {
  let served: Served;
  let driven: Driven;
  let host: HostClient;

  beforeAll(async () => {
    ({ served, driven, host } = await startAppSession());
  });

  afterAll(() => stopAppSession({ served, driven, host }));

  it('lists the suite run and shows its leaderboard as the host computes it', async () => {
    const file = join(served.dataDir, 'two.json');
    await writeFile(
      file,
      JSON.stringify({
        name: 'two tasks',
        modes: ['react', 'code'],
        trials: 2,
        tasks: [{ builtin: 'calc' }, { builtin: 'weather-f' }],
      }),
    );
    const env: NodeJS.ProcessEnv = { ...process.env, PARALLAX_DATA_DIR: served.dataDir };
    delete env.OPENAI_API_KEY;
    const res = await runCli(['suite', 'run', file, '--json'], env);
    expect(res.code, res.stderr).toBe(0);
    const id = (JSON.parse(res.stdout) as { id: string }).id;

    const { page, errors } = driven;
    await page.click('[data-testid=side-tab-history]');
    await page.click('[aria-label="Reload history"]');
    const item = page.locator(`[data-testid=suite-item][data-id="${id}"]`);
    await item.waitFor();
    await item.locator('.history-open').click();
    await page.waitForSelector('[data-testid=suite-overall]');

    const view = await host.invoke('suites:open', id);
    const want = boardTables(view.leaderboard, view.simulated);
    const cells = (testId: string) =>
      page.$$eval(`[data-testid=${testId}] tbody tr`, (rows) =>
        rows.map((r) => [...r.querySelectorAll('td')].map((td) => td.textContent ?? '')),
      );
    expect(await cells('suite-overall')).toEqual(want.overall.rows);
    expect(await cells('suite-tasks')).toEqual(want.tasks.rows);
    expect(await page.textContent('[data-testid=suite-view]')).toContain('Tokens (simulated)');
    await saveShot(page, 'suite-leaderboard');

    // Exported like a comparison: each format downloads the report the CLI's `suite report` writes.
    for (const format of ['html', 'md', 'json'] as const) {
      const [download] = await Promise.all([
        page.waitForEvent('download'),
        page.click(`[data-testid=suite-export-${format}]`),
      ]);
      expect(download.suggestedFilename()).toBe(`parallax-suite-${id}.${format}`);
      const text = await (await download.createReadStream())
        .toArray()
        .then((parts) => Buffer.concat(parts).toString('utf8'));
      const cli = await runCli(['suite', 'report', id, '--format', format], env);
      expect(cli.code, cli.stderr).toBe(0);
      if (format === 'json') expect(JSON.parse(text)).toEqual(JSON.parse(cli.stdout));
      else expect(text).toContain(want.overall.rows[0]![0]!);
    }
    expect(await page.locator('[data-testid=toast]').last().textContent()).toContain('Report downloaded');
    await expect(host.invoke('suites:export', id, 'csv')).rejects.toThrow(/comes as md, json, html/);

    await page.click('[data-testid=suite-close]');
    await page.waitForSelector('[data-testid=suite-view]', { state: 'detached' });
    expect(errors).toEqual([]);
  });
});
