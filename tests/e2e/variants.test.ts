/**
 * Variants in the browser, against a real `parallax serve` with the simulated model: Code Mode with and without
 * return types as two labelled columns in two colours, and a models × modes comparison whose matrix opens its
 * cells' columns in the timeline. Light and dark screenshots under test-results/e2e/.
 */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../electron/host/cli-process.js';
import type { ComparisonMeta } from '../../shared/ipc-contract.js';
import type { ComparisonRequest } from '../../shared/run-spec.js';
import { buildMatrix } from '../../shared/matrix.js';
import { slotColours } from '../../shared/column-shades.js';
import { MODES } from '../../shared/modes.js';
import { groupByRun, summarizeRun } from '../../shared/summary.js';
import { startAppSession, stopAppSession, type AppSession } from './app-session.js';
import { saveShot } from './screenshots.js';

const SIM = { name: 'simulated', baseUrl: null, model: 'sim' } as const;

describe('variants in the app, against parallax serve with the simulated model', () => {
  let session: AppSession;
  beforeAll(async () => {
    session = await startAppSession();
  });
  afterAll(async () => {
    await stopAppSession(session ?? {});
  });

  /** Starts a comparison through the host, waits until every run ended, and opens it from the history panel. */
  async function runAndOpen(request: ComparisonRequest): Promise<ComparisonMeta> {
    const { host, driven } = session;
    const meta = await host.invoke('comparison:start', request);
    for (let i = 0; i < 300; i++) {
      const item = (await host.invoke('history:list')).find((x) => x.meta.id === meta.id);
      if (item && item.runs.length === meta.runs.length && item.runs.every((r) => r.status !== 'running')) break;
      await new Promise((ok) => setTimeout(ok, 200));
    }
    const page = driven.page;
    await page.click('[data-testid=side-tab-history]');
    await page.click(`[data-testid=history-item][data-id="${meta.id}"] .history-open`);
    await page.click('[data-testid=tab-timeline]');
    await page
      .waitForSelector(
        `[data-testid=column-${meta.runs[0]!.variant ?? meta.runs[0]!.mode}][data-run-id="${meta.runs[0]!.runId}"]`,
      )
      .catch(async (e: unknown) => {
        await saveShot(page, 'variants-open-failed', { docs: false });
        throw e;
      });
    return meta;
  }

  it('Code Mode with and without return types: two columns labelled by their difference, in two colours', async () => {
    const meta = await runAndOpen({
      task: 'time-and-title',
      provider: SIM,
      modes: ['code'],
      variants: [{ mode: 'code', settings: { returnTypes: false } }, { mode: 'code' }],
    });
    expect(meta.variants?.map((v) => [v.key, v.label])).toEqual([
      ['code-1', 'Code Mode · no return types'],
      ['code', 'Code Mode'],
    ]);
    const page = session.driven.page;
    const heads = await page.$$eval('.column-head', (els) =>
      els.map((e) => ({
        key: e.getAttribute('data-column'),
        title: e.querySelector('h3')?.textContent,
        colour: getComputedStyle(e).getPropertyValue('--mode').trim(),
      })),
    );
    expect(heads.map((h) => [h.key, h.title])).toEqual([
      ['code-1', 'Code Mode · no return types'],
      ['code', 'Code Mode'],
    ]);
    expect(heads[0]!.colour).not.toBe(heads[1]!.colour);
    const stored = await session.host.invoke('history:open', meta.id);
    const byRun = groupByRun(stored.events);
    const steps: Record<string, number> = {};
    for (const r of meta.runs) {
      steps[r.variant!] = summarizeRun(byRun.get(r.runId)!).totals.steps;
      expect(await page.textContent(`[data-testid=column-${r.variant}] [data-testid=col-steps]`)).toBe(
        String(steps[r.variant!]),
      );
    }
    // Measured on the simulated model: the column without return types takes more steps.
    expect(steps['code-1']).toBeGreaterThan(steps['code']!);
    await saveShot(page, 'variants-columns', { docs: false });
    await page.click('[data-testid=tab-charts]');
    await page.waitForSelector('[data-testid=summary-table]');
    expect(await page.locator('[data-testid=matrix-view]').count()).toBe(1);
    await saveShot(page, 'variants-tokens', { docs: false });
    await page.locator('[data-testid=summary-table]').scrollIntoViewIfNeeded();
    expect(await page.textContent('[data-testid=sum-steps-code-1]')).toBe(String(steps['code-1']));
    await saveShot(page, 'variants-summary', { docs: false });
    await page.click('[data-testid=tab-answers]');
    await saveShot(page, 'variants-answers', { docs: false });
    expect(session.driven.errors).toEqual([]);
  });

  it('Run again starts the open comparison as it was; Edit in composer loads it, what it could not carry said', async () => {
    const request: ComparisonRequest = {
      task: 'calc',
      provider: { name: 'simulated', baseUrl: null, model: 'sim-careful' },
      modes: ['code', 'react'],
      trials: 2,
      settings: { maxSteps: 7, temperature: 0.2, toolDescriptions: 'one-line' },
      variants: [
        { mode: 'code', settings: { returnTypes: false } },
        { mode: 'react', model: 'sim-hasty', label: 'Quick ReAct' },
      ],
    };
    const original = await runAndOpen(request);
    const page = session.driven.page;
    const before = new Set((await session.host.invoke('history:list')).map((i) => i.meta.id));
    await page.click('[data-testid=run-again]');
    // The new comparison: the host lists it, then every one of its runs ends.
    let again: ComparisonMeta | undefined;
    for (;;) {
      const item = (await session.host.invoke('history:list')).find((x) => !before.has(x.meta.id));
      if (item && item.runs.length === original.runs.length && item.runs.every((r) => r.status !== 'running')) {
        again = item.meta;
        break;
      }
      await new Promise((ok) => setTimeout(ok, 200));
    }
    const same = (m: ComparisonMeta) => ({
      task: m.task,
      model: m.provider.model,
      simulated: m.provider.simulated,
      settings: m.settings,
      variants: m.variants,
      runs: m.runs.map((r) => [r.mode, r.trial, r.variant]),
    });
    expect(same(again)).toEqual(same(original));
    expect(again.id).not.toBe(original.id);
    // The page follows the new comparison, as a Run from the composer does.
    await page.waitForFunction((id) => location.hash.startsWith(`#/comparison/${id}`), again.id);
    await saveShot(page, 'run-again', { docs: false });

    // Edit in composer: the composer holds the columns, trials and settings, and says where they came from.
    await page.click('[data-testid=side-tab-compose]');
    await page.check('[data-testid=task-log-stats] input');
    await page.click('[data-testid=run-again-more]');
    await page.click('[data-testid=again-edit]');
    expect(await page.isChecked('[data-testid=task-calc] input')).toBe(true);
    expect(await page.inputValue('[data-testid=trials-input]')).toBe('2');
    expect(await page.inputValue('[data-testid=model-input]')).toBe('sim-careful');
    const rows = page.locator('[data-testid=variant-row]');
    expect(await rows.count()).toBe(2);
    expect(await rows.nth(0).locator('[data-testid=variant-return-types]').inputValue()).toBe('off');
    expect(await rows.nth(1).locator('[data-testid=variant-model]').inputValue()).toBe('sim-hasty');
    expect(await rows.nth(1).locator('[data-testid=variant-label]').inputValue()).toBe('Quick ReAct');
    expect(await page.textContent('[data-testid=loaded-from]')).toContain('Loaded from the comparison of');
    expect(await page.textContent('[data-testid=run]')).toContain('Run 2 variants × 2');
    await saveShot(page, 'edit-in-composer', { docs: false });
    await page.click('[data-testid=variants-clear]');
    await page.fill('[data-testid=trials-input]', '1');
    expect(session.driven.errors).toEqual([]);
  });

  it("three columns, two of Code Mode: each drawn in a shade of its own mode, never in another mode's colour", async () => {
    const meta = await runAndOpen({
      task: 'time-and-title',
      provider: SIM,
      modes: ['code', 'react'],
      variants: [{ mode: 'code', settings: { returnTypes: false } }, { mode: 'code' }, { mode: 'react' }],
    });
    const page = session.driven.page;
    const hex = (c: string) => `#${c.slice(1).toLowerCase()}`;
    const rgb = (h: string) =>
      `rgb(${parseInt(h.slice(1, 3), 16)}, ${parseInt(h.slice(3, 5), 16)}, ${parseInt(h.slice(5, 7), 16)})`;
    const swatches = async () =>
      page.$$eval('.column-head', (els) =>
        els.map((e) => [
          e.getAttribute('data-column'),
          getComputedStyle(e.querySelector('.mode-swatch')!).backgroundColor,
        ]),
      );
    for (const theme of ['light', 'dark'] as const) {
      // The plain Code Mode column keeps Code Mode's colour, the other Code Mode column takes its first shade,
      // and ReAct keeps its own: orange still means Code Mode, blue ReAct.
      expect(await swatches()).toEqual([
        ['code-1', rgb(hex(slotColours('code_1')![theme].prompt))],
        ['code', rgb(hex(MODES.code.colour[theme].prompt))],
        ['react', rgb(hex(MODES.react.colour[theme].prompt))],
      ]);
      await saveShot(page, `variants-shades-timeline${theme === 'dark' ? '-dark' : ''}`);
      await page.click('[data-testid=tab-charts]');
      await page.waitForSelector('[data-testid=per-step-chart]');
      // The charts draw the columns in the same slots: the per-step bars of the shaded column in its shade.
      const fills = await page.$$eval(
        '[data-testid=per-step-chart] .recharts-bar-rectangle path, [data-testid=per-step-chart] .recharts-bar-rectangle rect',
        (els) => [...new Set(els.map((e) => getComputedStyle(e).fill))],
      );
      expect(fills).toContain(rgb(hex(slotColours('code_1')![theme].prompt)));
      expect(fills).toContain(rgb(hex(MODES.code.colour[theme].prompt)));
      await saveShot(page, `variants-shades-tokens${theme === 'dark' ? '-dark' : ''}`);
      if (theme === 'light') {
        await page.click('[data-testid=theme-toggle]');
        await page.click('[data-testid=tab-timeline]');
        await page.waitForSelector('[data-testid=column-code-1]');
      }
    }
    await page.click('[data-testid=theme-toggle]');
    expect(meta.variants?.map((v) => v.key)).toEqual(['code-1', 'code', 'react']);
    expect(session.driven.errors).toEqual([]);
  });

  it("models × modes: the matrix of the simulated model's two personalities, its cells opening their columns", async () => {
    const meta = await runAndOpen({
      task: 'log-stats',
      provider: SIM,
      modes: ['react', 'code'],
      variants: [
        { mode: 'react', model: 'sim-careful' },
        { mode: 'code', model: 'sim-careful' },
        { mode: 'react', model: 'sim-hasty' },
        { mode: 'code', model: 'sim-hasty' },
      ],
    });
    const page = session.driven.page;
    expect(await page.$$eval('.column-head h3', (els) => els.map((e) => e.textContent))).toEqual([
      'ReAct · sim-careful',
      'Code Mode · sim-careful',
      'ReAct · sim-hasty',
      'Code Mode · sim-hasty',
    ]);
    await page.click('[data-testid=tab-charts]');
    await page.waitForSelector('[data-testid=matrix-view]');
    const stored = await session.host.invoke('history:open', meta.id);
    const byRun = groupByRun(stored.events);
    const expected = buildMatrix(meta.runs.map((r) => summarizeRun(byRun.get(r.runId)!)));
    const cells = await page.$$eval('[data-testid=matrix-view] button[data-testid=matrix-cell]', (els) =>
      els.map((e) => [e.getAttribute('data-row'), e.getAttribute('data-mode'), Number(e.getAttribute('data-value'))]),
    );
    expect(cells).toEqual(
      expected.rows.flatMap((row, r) =>
        expected.modes.map((m, c) => [row, m, expected.cells[r]![c]!.figures.total!.mean]),
      ),
    );
    await page.locator('[data-testid=matrix-view]').scrollIntoViewIfNeeded();
    await saveShot(page, 'variants-matrix');
    await page.click('[data-testid=matrix-metric-steps]');
    expect(await page.getAttribute('[data-testid=matrix-view]', 'data-metric')).toBe('steps');

    await page.click(
      '[data-testid=matrix-view] button[data-testid=matrix-cell][data-row="sim-hasty"][data-mode="code"]',
    );
    await page.waitForSelector('[data-testid=timeline]');
    const focused = await page.$$eval('.column-head.is-focused', (els) =>
      els.map((e) => e.getAttribute('data-column')),
    );
    expect(focused).toEqual([meta.variants!.find((v) => v.label === 'Code Mode · sim-hasty')!.key]);
    await saveShot(page, 'variants-matrix-opened', { docs: false });

    await page.click('[data-testid=theme-toggle]').catch(() => undefined);
    await page.click('[data-testid=tab-charts]');
    await page.locator('[data-testid=matrix-view]').scrollIntoViewIfNeeded();
    await saveShot(page, 'variants-matrix-dark', { docs: false });
    expect(session.driven.errors).toEqual([]);
  });

  it('the composer: rows from the models × modes shortcut, a derived label, an error for two identical rows, then Run', async () => {
    const page = session.driven.page;
    await page.click('[data-testid=theme-toggle]');
    await page.click('[data-testid=side-tab-compose]');
    await page.check('[data-testid=task-time-and-title] input');
    await page.locator('[data-testid=add-variant]').scrollIntoViewIfNeeded();
    await saveShot(page, 'variants-composer-start', { docs: false });
    // A model the simulated provider does not have is refused at its rows, as --models refuses it: Run starts nothing.
    await page.fill('[data-testid=matrix-models]', 'sim, nosuchmodel');
    await page.click('[data-testid=matrix-apply]');
    await page.waitForSelector('[data-testid=variants-editor]');
    expect(await page.textContent('[data-testid=variants-editor]')).toContain(
      'The simulated model has no model "nosuchmodel": it answers to sim, sim-careful, sim-hasty',
    );
    const listed = (await session.host.invoke('history:list')).length;
    await page.click('[data-testid=run]');
    expect(await page.textContent('[data-testid=composer-errors]')).toBe('Fix the variants to run. Show');
    await saveShot(page, 'variants-composer-unknown-model', { docs: false });
    expect((await session.host.invoke('history:list')).length).toBe(listed);
    await page.click('[data-testid=variants-clear]');
    await page.fill('[data-testid=matrix-models]', 'sim, sim-careful');
    await page.click('[data-testid=matrix-apply]');
    await page.waitForSelector('[data-testid=variants-editor]');
    const labels = () =>
      page.$$eval('[data-testid=variant-label]', (els) => els.map((e) => (e as HTMLInputElement).placeholder));
    expect(await labels()).toEqual([
      'ReAct · sim',
      'Code Mode · sim',
      'ReAct · sim-careful',
      'Code Mode · sim-careful',
    ]);
    expect(await page.textContent('[data-testid=run]')).toContain('Run 4 variants');
    await saveShot(page, 'variants-composer-matrix', { docs: false });

    // Run the matrix from the composer: four labelled columns, then the matrix, a cell opening its column.
    // The comparison open before (its tabs kept mounted, hidden) has columns of the same keys: wait for new runs.
    const before = await page.$$eval('[data-run-id]', (els) => els.map((e) => e.getAttribute('data-run-id')));
    await page.click('[data-testid=run]');
    const keys = ['react-1', 'code-2', 'react-3', 'code-4'];
    await page.waitForFunction(
      ({ ks, before }) =>
        ks.every((k) => {
          const col = document.querySelector(`.tab-pane.is-shown [data-testid=column-${k}]`);
          return (
            col &&
            !before.includes(col.getAttribute('data-run-id')) &&
            col.querySelector('[data-testid=run-status]')?.getAttribute('data-status') === 'answered'
          );
        }),
      { ks: keys, before },
      { polling: 200 },
    );
    expect(await page.$$eval('.tab-pane.is-shown .column-head h3', (els) => els.map((e) => e.textContent))).toEqual([
      'ReAct · sim',
      'Code Mode · sim',
      'ReAct · sim-careful',
      'Code Mode · sim-careful',
    ]);
    await page.click('[data-testid=tab-charts]');
    await page.click(
      '[data-testid=matrix-view] button[data-testid=matrix-cell][data-row="sim-careful"][data-mode="react"]',
    );
    expect(
      await page.$$eval('.tab-pane.is-shown .column-head.is-focused', (els) =>
        els.map((e) => e.getAttribute('data-column')),
      ),
    ).toEqual(['react-3']);

    // Back to modes, then Code Mode with and without return types; a third identical row is refused at once.
    await page.click('[data-testid=variants-clear]');
    await page.click('[data-testid=add-variant]');
    const rows = page.locator('[data-testid=variant-row]');
    const n = await rows.count();
    for (let i = n - 1; i >= 2; i--) await rows.nth(i).locator('[data-testid=variant-remove]').click();
    await rows.nth(0).locator('[data-testid=variant-mode]').selectOption('code');
    await rows.nth(0).locator('[data-testid=variant-return-types]').selectOption('off');
    await rows.nth(1).locator('[data-testid=variant-mode]').selectOption('code');
    expect(await labels()).toEqual(['Code Mode · no return types', 'Code Mode']);
    // A knob from the registry, per column: its phrase joins the label; "as set" takes it back.
    await rows.nth(1).locator('[data-testid=variant-knob-errorHints]').selectOption('corrective');
    expect(await labels()).toEqual(['Code Mode · no return types', 'Code Mode · corrective error hints']);
    await saveShot(page, 'variants-composer-knob', { docs: false });
    await rows.nth(1).locator('[data-testid=variant-knob-errorHints]').selectOption('');
    expect(await labels()).toEqual(['Code Mode · no return types', 'Code Mode']);
    await page.click('[data-testid=add-variant]');
    await rows.nth(2).locator('[data-testid=variant-mode]').selectOption('code');
    expect(await page.textContent('[data-testid=variants-error]')).toMatch(/^Variants 2 and 3 are the same column/);
    // Even while the rows do not resolve, each Code Mode row has a colour of its own: a shade by its order.
    const swatches = await page.$$eval('[data-testid=variant-row] .mode-swatch', (els) =>
      els.map((e) => getComputedStyle(e).backgroundColor),
    );
    expect(swatches).toHaveLength(3);
    expect(new Set(swatches).size).toBe(3);
    await saveShot(page, 'variants-composer-error', { docs: false });
    // Run with the panel scrolled away from the error: the line under Run names it, and the panel scrolls to it.
    await page.$eval('[data-testid=composer] .panel-scroll', (e) => {
      e.scrollTop = 0;
    });
    const inView = () =>
      page.evaluate(() => {
        const a = document.querySelector('[data-testid=variants-error]')!.getBoundingClientRect();
        const b = document.querySelector('[data-testid=composer] .panel-scroll')!.getBoundingClientRect();
        return a.top >= b.top && a.bottom <= b.bottom;
      });
    expect(await inView()).toBe(false);
    await page.click('[data-testid=run]');
    await page.waitForFunction(() => {
      const a = document.querySelector('[data-testid=variants-error]')!.getBoundingClientRect();
      const b = document.querySelector('[data-testid=composer] .panel-scroll')!.getBoundingClientRect();
      return a.top >= b.top && a.bottom <= b.bottom;
    });
    expect(await page.textContent('[data-testid=composer-errors]')).toBe('Fix the variants to run. Show');
    expect(await page.evaluate(() => !!document.activeElement?.closest('[data-testid=variants-editor]'))).toBe(true);
    await saveShot(page, 'variants-composer-error-revealed', { docs: false });
    // "Show" brings it back after the panel was scrolled away again.
    await page.$eval('[data-testid=composer] .panel-scroll', (e) => {
      e.scrollTop = 0;
    });
    await page.click('[data-testid=reveal-error]');
    expect(await inView()).toBe(true);
    await rows.nth(2).locator('[data-testid=variant-remove]').click();
    expect(await page.locator('[data-testid=variants-error]').count()).toBe(0);

    await page.click('[data-testid=run]');
    await page.waitForSelector('.tab-pane.is-shown [data-testid=column-code-1]');
    await page.waitForFunction(
      () =>
        ['code-1', 'code'].every(
          (k) =>
            document
              .querySelector(`.tab-pane.is-shown [data-testid=column-${k}] [data-testid=run-status]`)
              ?.getAttribute('data-status') === 'answered',
        ),
      undefined,
      { polling: 200 },
    );
    expect(await page.$$eval('.tab-pane.is-shown .column-head h3', (els) => els.map((e) => e.textContent))).toEqual([
      'Code Mode · no return types',
      'Code Mode',
    ]);
    const [item] = await session.host.invoke('history:list');
    expect(item!.meta.variants?.map((v) => [v.key, v.label, v.settings])).toEqual([
      ['code-1', 'Code Mode · no return types', { returnTypes: false }],
      ['code', 'Code Mode', undefined],
    ]);
    await saveShot(page, 'variants-live', { docs: false });
    await page.click('[data-testid=theme-toggle]');
    await page.locator('[data-testid=variant-row]').first().scrollIntoViewIfNeeded();
    await saveShot(page, 'variants-live-dark', { docs: false });
    expect(session.driven.errors).toEqual([]);
  });

  it('the composer: an agent row takes its command and is labelled by its script', async () => {
    const page = session.driven.page;
    await page.click('[data-testid=side-tab-compose]');
    await page.check('[data-testid=task-log-stats] input');
    if ((await page.locator('[data-testid=variants-editor]').count()) === 0)
      await page.click('[data-testid=add-variant]');
    const rows = page.locator('[data-testid=variant-row]');
    await rows.nth(0).locator('[data-testid=variant-mode]').selectOption('react');
    const last = rows.nth((await rows.count()) - 1);
    await last.locator('[data-testid=variant-mode]').selectOption('agent');
    await last.locator('[data-testid=variant-agent-command]').fill('python3 /home/me/agents/react_agent.py');
    const labels = await page.$$eval('[data-testid=variant-label]', (els) =>
      els.map((e) => (e as HTMLInputElement).placeholder),
    );
    expect(labels.at(-1)).toBe('Agent · react_agent.py');
    // Only what applies to someone else's program: max steps, no prompt or history knobs.
    expect(
      await last
        .locator('[data-testid^=variant-knob-], [data-testid=variant-return-types], [data-testid=variant-truncate]')
        .count(),
    ).toBe(0);
    expect(await last.locator('[data-testid=variant-max-steps]').count()).toBe(1);
    expect(await rows.nth(0).locator('[data-testid^=variant-knob-]').count()).toBeGreaterThan(0);
    await last.scrollIntoViewIfNeeded();
    await saveShot(page, 'variants-composer-agent', { docs: false });
    expect(session.driven.errors).toEqual([]);
  });

  it('a suite of models × modes: its matrix over every task, a cell opening the first task’s comparison on its column', async () => {
    const file = join(session.served.dataDir, 'models.json');
    await writeFile(
      file,
      JSON.stringify({
        name: 'models',
        modes: ['react', 'code'],
        tasks: [{ builtin: 'calc' }, { builtin: 'time-and-title' }],
      }),
    );
    const env: NodeJS.ProcessEnv = { ...process.env, PARALLAX_DATA_DIR: session.served.dataDir };
    delete env.OPENAI_API_KEY;
    const res = await runCli(['suite', 'run', file, '--models', 'sim,sim-careful', '--json'], env);
    expect(res.code, res.stderr).toBe(0);
    const id = (JSON.parse(res.stdout) as { id: string }).id;
    const page = session.driven.page;
    await page.click('[data-testid=side-tab-history]');
    await page.click('[aria-label="Reload history"]');
    await page.locator(`[data-testid=suite-item][data-id="${id}"] .history-open`).click();
    await page.waitForSelector('[data-testid=suite-view] [data-testid=matrix-view]');
    const view = await session.host.invoke('suites:open', id);
    const m = view.leaderboard.matrix!;
    const cells = await page.$$eval('[data-testid=suite-view] button[data-testid=matrix-cell]', (els) =>
      els.map((e) => [e.getAttribute('data-row'), e.getAttribute('data-mode'), Number(e.getAttribute('data-value'))]),
    );
    expect(cells).toEqual(
      m.rows.flatMap((row, r) => m.modes.map((mode, c) => [row, mode, m.cells[r]![c]!.figures.total!.mean])),
    );
    expect(m.cells[0]![0]!.runIds).toHaveLength(2);
    await page.locator('[data-testid=suite-view] [data-testid=matrix-view]').scrollIntoViewIfNeeded();
    await saveShot(page, 'variants-suite-matrix', { docs: false });
    await page.click(
      '[data-testid=suite-view] button[data-testid=matrix-cell][data-row="sim-careful"][data-mode="code"]',
    );
    await page.waitForSelector('.column-head.is-focused');
    const first = view.record.tasks[0]!;
    const stored = await session.host.invoke('history:open', first.comparisonId!);
    const key = stored.meta.variants!.find((v) => v.label === 'Code Mode · sim-careful')!.key;
    expect(
      await page.$$eval('.column-head.is-focused', (els) => els.map((e) => e.getAttribute('data-column'))),
    ).toEqual([key]);
    expect(session.driven.errors).toEqual([]);
  });
});
