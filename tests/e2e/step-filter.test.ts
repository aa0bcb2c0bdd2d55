/**
 * The Timeline's step filters in Chromium against a real `parallax serve` with the simulated model, a fault
 * making the first tool call fail ('unknown-tool') and a 429 retried: each filter shows exactly the steps
 * shared/step-filter.ts keeps for the recorded events (read back through the host), the count says so, the
 * filters ride in the URL, an empty result offers to clear them, and the filtered view passes the axe audit.
 * Which steps each filter keeps, read straight from the events, is the unit test's
 * (tests/shared/step-filter-recorded.test.ts, on a recording of this same comparison). Screenshot: step-filter.png.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ComparisonMeta } from '../../shared/ipc-contract.js';
import type { StepEvent } from '../../shared/step-event.js';
import {
  filterSteps,
  NO_FILTER,
  stepFacts,
  toolsUsed,
  type StepFacts,
  type StepFilter,
} from '../../shared/step-filter.js';
import { groupByRun } from '../../shared/summary.js';
import { auditBothThemes, describeFindings } from './a11y-audit.js';
import { startAppSession, stopAppSession, type AppSession } from './app-session.js';
import { comparisonEnded } from './page-helpers.js';
import { saveShot } from './screenshots.js';

const SIM = { name: 'simulated', baseUrl: null, model: 'sim' } as const;

describe('step filters in the Timeline, against parallax serve with the simulated model', () => {
  let session: AppSession;
  let meta: ComparisonMeta;
  let byRun: Map<string, StepEvent[]>;
  let columns: StepFacts[][];
  beforeAll(async () => {
    session = await startAppSession();
    const { host, driven } = session;
    meta = await host.invoke('comparison:start', {
      task: 'log-stats',
      provider: SIM,
      modes: ['react', 'code'],
      settings: { simFaults: ['unknown-tool', '429-once'] },
    });
    await comparisonEnded(host, meta);
    byRun = groupByRun((await host.invoke('history:open', meta.id)).events) as Map<string, StepEvent[]>;
    columns = meta.runs.map((r) => stepFacts(byRun.get(r.runId)!));
    await driven.page.click('[data-testid=side-tab-history]');
    await driven.page.click(`[data-testid=history-item][data-id="${meta.id}"] .history-open`);
    await driven.page.waitForSelector('[data-testid=step-filter-bar]');
  });
  afterAll(async () => {
    await stopAppSession(session ?? {});
  });

  /** Per run id, the step numbers whose cells the page marks as matching. */
  async function shown(): Promise<Record<string, number[]>> {
    const cells = await session.driven.page
      .locator('[data-testid=step-row] .cell[data-match=true]')
      .evaluateAll((els) =>
        els.map((el) => ({
          step: Number(el.closest('[data-step]')!.getAttribute('data-step')),
          mode: el.getAttribute('data-mode')!,
        })),
      );
    const out: Record<string, number[]> = Object.fromEntries(meta.runs.map((r) => [r.runId, []]));
    for (const c of cells) out[meta.runs.find((r) => r.mode === c.mode)!.runId]!.push(c.step);
    for (const k of Object.keys(out)) out[k]!.sort((a, b) => a - b);
    return out;
  }
  /** What shared/step-filter.ts keeps of the recorded events, per run id, and its count line. */
  const kept = (filter: Partial<StepFilter>) => {
    const r = filterSteps(columns, { ...NO_FILTER, ...filter });
    return {
      cells: Object.fromEntries(meta.runs.map((run, i) => [run.runId, [...r.matches[i]!].sort((a, b) => a - b)])),
      count: `${r.matched} of ${r.total} steps match`,
      rows: r.rows,
    };
  };
  const count = () => session.driven.page.textContent('[data-testid=filter-count]');

  it('errors only shows the failed tool call and the retried model request, as recorded', async () => {
    const page = session.driven.page;
    await page.check('[data-testid=filter-errors]');
    const want = kept({ errorsOnly: true });
    expect(Object.values(want.cells).flat().length, 'the faults left errors in the record').toBeGreaterThan(0);
    await expect.poll(shown).toEqual(want.cells);
    expect(await count()).toBe(want.count);
    expect(page.url()).toContain('errors=1');
    await saveShot(page, 'step-filter');
    const found = await auditBothThemes(page, 'timeline filtered to errors');
    expect(found.length === 0 ? '' : describeFindings(found)).toBe('');
    await page.uncheck('[data-testid=filter-errors]');
  });

  it('a tool shows the steps that called it, inside programs too', async () => {
    const page = session.driven.page;
    const options = await page
      .locator('[data-testid=filter-tool] option')
      .evaluateAll((els) => els.map((e) => (e as HTMLOptionElement).value).filter(Boolean));
    expect(options).toEqual(toolsUsed(columns));
    // A tool Code Mode called from inside its program.
    const tool =
      [...byRun.values()].flat().flatMap((e) => (e.type === 'code-run' ? e.toolCalls.map((t) => t.name) : []))[0] ??
      options[0]!;
    await page.selectOption('[data-testid=filter-tool]', tool);
    await expect.poll(shown).toEqual(kept({ tool }).cells);
    expect(decodeURIComponent(page.url())).toContain(`tool=${tool}`);
    await page.selectOption('[data-testid=filter-tool]', '');
  });

  it('text search finds a tool result case-insensitively, and an empty result offers to clear', async () => {
    const page = session.driven.page;
    const out = [...byRun.values()]
      .flat()
      .find((e) => e.type === 'tool-finished' && e.error === null && /[a-z]{5,}/i.test(e.output));
    const word = /[a-z]{5,}/i.exec(out!.type === 'tool-finished' ? out!.output : '')![0];
    await page.fill('[data-testid=filter-text]', word.toUpperCase());
    await expect.poll(shown).toEqual(kept({ text: word }).cells);
    await page.fill('[data-testid=filter-text]', 'no step says zqxjv');
    await page.waitForSelector('[data-testid=filter-empty]');
    expect(await page.locator('[data-testid=step-row]').count()).toBe(0);
    expect(await count()).toBe(kept({ text: 'no step says zqxjv' }).count);
    await page.click('[data-testid=filter-empty] button');
    expect(await page.inputValue('[data-testid=filter-text]')).toBe('');
    expect(page.url()).not.toContain('q=');
  });

  it('only where the columns differ keeps the rows whose calls are not the same in every column', async () => {
    const page = session.driven.page;
    await page.check('[data-testid=filter-differ]');
    const want = kept({ differOnly: true });
    // The count is drawn with the filtered rows: once it says so, the rows are this filter's.
    await expect.poll(count).toBe(want.count);
    // Only rows in view are mounted: read them from the top, then from the bottom until every row was seen.
    const read = () =>
      page
        .locator('[data-testid=step-row]')
        .evaluateAll((els) => els.map((el) => Number(el.getAttribute('data-step'))));
    const seen = new Set(await read());
    await page.locator('[data-testid=timeline]').evaluate((el) => (el.scrollTop = el.scrollHeight));
    await expect
      .poll(async () => {
        for (const s of await read()) seen.add(s);
        return [...seen].sort((a, b) => a - b);
      })
      .toEqual(want.rows);
    // Reloading the URL brings the filter back.
    await page.reload();
    await page.waitForSelector('[data-testid=step-filter-bar]');
    expect(await page.isChecked('[data-testid=filter-differ]')).toBe(true);
    await page.click('[data-testid=filter-clear]');
  });
});
