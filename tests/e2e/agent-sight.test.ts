/**
 * The composer's agent row shows, before any run, what the program will see: against a real `parallax serve`
 * that allows python3, a command with the tutorial's script and a data file lists the script's project root
 * (read-only, with why), the data file as not shown, and the interpreter it resolves to; extra paths typed in
 * the page and a program the host does not allow each say why they cannot run. Audited for accessibility in both themes; screenshots under test-results/e2e/.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditBothThemes, describeFindings } from './a11y-audit.js';
import { openPage, ROOT, startServe, type Driven, type Served } from './harness.js';
import { saveShot } from './screenshots.js';

describe('the agent row: what it will see', () => {
  let served: Served;
  let driven: Driven;
  let data = '';
  beforeAll(async () => {
    data = mkdtempSync(join(tmpdir(), 'parallax-sight-data-'));
    writeFileSync(join(data, 'cases.json'), '[]');
    served = await startServe({}, ['--allow-agent-command', 'python3']);
    driven = await openPage(served.url);
    await driven.page.waitForSelector('[data-testid=connection-status]:has-text("Web host")');
  });
  afterAll(async () => {
    await driven?.close();
    await served?.stop();
    rmSync(data, { recursive: true, force: true });
  });

  it('lists the project root, the words not shown and the program as it runs; a program not allowed says why', async () => {
    const page = driven.page;
    await page.check('[data-testid=task-log-stats] input');
    if ((await page.locator('[data-testid=variants-editor]').count()) === 0)
      await page.click('[data-testid=add-variant]');
    const row = page.locator('[data-testid=variant-row]').last();
    await row.locator('[data-testid=variant-mode]').selectOption('agent');
    const script = join(ROOT, 'examples/tutorial/react_agent.py');
    await row.locator('[data-testid=variant-agent-command]').fill(`python3 ${script} ${join(data, 'cases.json')}`);
    const shown = row.locator('[data-testid=variant-agent-shown]');
    await shown.waitFor({ timeout: 30_000 });
    expect(await shown.textContent()).toContain(
      `${join(ROOT, 'examples/tutorial')} — the project root of react_agent.py (it holds requirements.txt)`,
    );
    expect(await row.locator('[data-testid=variant-agent-hidden]').textContent()).toContain(
      `Not shown (arguments, not code): ${join(data, 'cases.json')}`,
    );
    expect(await row.locator('[data-testid=variant-agent-view]').textContent()).toMatch(
      /Runs \/\S+python3\S* \S+react_agent\.py/,
    );
    await row.scrollIntoViewIfNeeded();
    await saveShot(page, 'composer-agent-sight', { docs: false });
    const found = await auditBothThemes(page, 'composer agent sight');
    expect(found, describeFindings(found)).toEqual([]);

    // Extra read-only paths typed in a page: this web host refuses them (only the operator's own files name them).
    await row.locator('[data-testid=variant-agent-paths]').fill(data);
    const error = row.locator('[data-testid=variant-agent-view-error]');
    await error.waitFor({ timeout: 30_000 });
    expect(await error.textContent()).toMatch(/^Cannot run: .*agent\.paths is not taken from a page on this web host/);
    await row.locator('[data-testid=variant-agent-paths]').fill('');

    await row.locator('[data-testid=variant-agent-command]').fill('node /srv/agent.mjs');
    await page.waitForFunction(
      () =>
        (document.querySelector('[data-testid=variant-agent-view-error]')?.textContent ?? '').includes('program node'),
      undefined,
      { timeout: 30_000, polling: 100 },
    );
    expect(await error.textContent()).toMatch(
      /^Cannot run: .*this web host does not start the program node\. The operator can allow it with parallax serve --allow-agent-command node/,
    );
    expect(driven.errors).toEqual([]);
  });
});
