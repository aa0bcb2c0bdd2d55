/**
 * The Timeline's step filters in Chromium against a real `parallax serve` with the simulated model, a fault
 * making the first tool call fail ('unknown-tool') and a 429 retried: each filter shows exactly the steps the
 * recorded events (read back through the host) say, the count says so, the filters ride in the URL, an empty
 * result offers to clear them, and the filtered view passes the axe audit. Screenshot: step-filter.png.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ComparisonMeta } from '../../shared/ipc-contract.js';
import type { StepEvent } from '../../shared/step-event.js';
import { rowDiffers, stepFacts } from '../../shared/step-filter.js';
import { groupByRun } from '../../shared/summary.js';
import { auditBothThemes, describeFindings } from './a11y-audit.js';
import { startAppSession, stopAppSession, type AppSession } from './app-session.js';
import { saveShot } from './screenshots.js';

const SIM = { name: 'simulated', baseUrl: null, model: 'sim' } as const;

/** Per run, the steps where a predicate holds on some event of the step (straight from the events). */
function stepsWhere(events: readonly StepEvent[], hit: (e: StepEvent) => boolean): number[] {
  const out = new Set<number>();
  for (const e of events) if ('step' in e && typeof e.step === 'number' && hit(e)) out.add(e.step);
  return [...out].sort((a, b) => a - b);
}

describe('step filters in the Timeline, against parallax serve with the simulated model', () => {
  let session: AppSession;
  let meta: ComparisonMeta;
  let byRun: Map<string, StepEvent[]>;
  beforeAll(async () => {
    session = await startAppSession();
    const { host, driven } = session;
    meta = await host.invoke('comparison:start', { task: 'log-stats', provider: SIM, modes: ['react', 'code'], settings: { simFaults: ['unknown-tool', '429-once'] } });
    for (let i = 0; i < 600; i++) {
      const item = (await host.invoke('history:list')).find((x) => x.meta.id === meta.id);
      if (item && item.runs.length === meta.runs.length && item.runs.every((r) => r.status !== 'running')) break;
      await new Promise((ok) => setTimeout(ok, 200));
    }
    byRun = groupByRun((await host.invoke('history:open', meta.id)).events) as Map<string, StepEvent[]>;
    await driven.page.click('[data-testid=side-tab-history]');
    await driven.page.click(`[data-testid=history-item][data-id="${meta.id}"] .history-open`);
    await driven.page.waitForSelector('[data-testid=step-filter-bar]');
  });
  afterAll(async () => {
    await stopAppSession(session ?? {});
  });

  /** Per run id, the step numbers whose cells the page marks as matching. */
  async function shown(): Promise<Record<string, number[]>> {
    const page = session.driven.page;
    await page.waitForTimeout(150);
    const cells = await page.locator('[data-testid=step-row] .cell[data-match=true]').evaluateAll((els) =>
      els.map((el) => ({ step: Number(el.closest('[data-step]')!.getAttribute('data-step')), mode: el.getAttribute('data-mode')! })),
    );
    const out: Record<string, number[]> = {};
    for (const r of meta.runs) out[r.runId] = [];
    for (const c of cells) {
      const run = meta.runs.find((r) => r.mode === c.mode);
      out[run!.runId]!.push(c.step);
    }
    for (const k of Object.keys(out)) out[k]!.sort((a, b) => a - b);
    return out;
  }
  const expected = (hit: (e: StepEvent) => boolean) => Object.fromEntries(meta.runs.map((r) => [r.runId, stepsWhere(byRun.get(r.runId)!, hit)]));
  const count = () => session.driven.page.textContent('[data-testid=filter-count]');
  const total = () => [...byRun.values()].reduce((n, ev) => n + new Set(ev.flatMap((e) => (e.type === 'model-request' ? [e.step] : []))).size, 0);

  it('errors only shows the failed tool call and the retried model request, as recorded', async () => {
    const page = session.driven.page;
    await page.check('[data-testid=filter-errors]');
    const want = expected((e) => (e.type === 'tool-finished' && e.error !== null) || e.type === 'model-retry' || (e.type === 'code-run' && (e.error !== null || e.toolCalls.some((t) => t.error !== null))));
    const flat = Object.values(want).flat();
    expect(flat.length, 'the faults left errors in the record').toBeGreaterThan(0);
    expect(await shown()).toEqual(want);
    expect(await count()).toBe(`${flat.length} of ${total()} steps match`);
    expect(page.url()).toContain('errors=1');
    await saveShot(page, 'step-filter');
    const found = await auditBothThemes(page, 'timeline filtered to errors');
    expect(found.length === 0 ? '' : describeFindings(found)).toBe('');
    await page.uncheck('[data-testid=filter-errors]');
  });

  it('a tool shows the steps that called it, inside programs too', async () => {
    const page = session.driven.page;
    const options = await page.locator('[data-testid=filter-tool] option').evaluateAll((els) => els.map((e) => (e as HTMLOptionElement).value).filter(Boolean));
    const called = new Set<string>();
    for (const ev of byRun.values()) for (const e of ev) {
      if (e.type === 'tool-started') called.add(e.name);
      if (e.type === 'code-run') for (const t of e.toolCalls) called.add(t.name);
    }
    expect(options).toEqual([...called].sort());
    const inner = [...byRun.values()].flat().flatMap((e) => (e.type === 'code-run' ? e.toolCalls.map((t) => t.name) : []));
    const tool = inner[0] ?? options[0]!;
    await page.selectOption('[data-testid=filter-tool]', tool);
    expect(await shown()).toEqual(expected((e) => (e.type === 'tool-started' && e.name === tool) || (e.type === 'code-run' && e.toolCalls.some((t) => t.name === tool))));
    expect(decodeURIComponent(page.url())).toContain(`tool=${tool}`);
    await page.selectOption('[data-testid=filter-tool]', '');
  });

  it('text search finds a tool result case-insensitively, and an empty result offers to clear', async () => {
    const page = session.driven.page;
    const out = [...byRun.values()].flat().find((e) => e.type === 'tool-finished' && e.error === null && /[a-z]{5,}/i.test(e.output));
    const word = /[a-z]{5,}/i.exec(out!.type === 'tool-finished' ? out!.output : '')![0];
    await page.fill('[data-testid=filter-text]', word.toUpperCase());
    const lc = word.toLowerCase();
    const has = (v: unknown) => (typeof v === 'string' ? v : JSON.stringify(v) ?? '').toLowerCase().includes(lc);
    const want = expected((e) => (e.type === 'tool-finished' && has(e.output)) || (e.type === 'tool-started' && has(e.args)) || (e.type === 'model-response' && (has(e.text) || e.toolCalls.some((t) => has(t.arguments)))) || (e.type === 'code-run' && (has(e.code) || has(e.output) || e.toolCalls.some((t) => has(t.args)))));
    const got = await shown();
    // The run's answer counts on its last step: add those steps where run-finished's answer has the word.
    for (const r of meta.runs) {
      const ev = byRun.get(r.runId)!;
      const fin = ev.find((e) => e.type === 'run-finished');
      if (fin?.type === 'run-finished' && has(fin.answer)) want[r.runId] = [...new Set([...want[r.runId]!, Math.max(...ev.flatMap((e) => ('step' in e && typeof e.step === 'number' ? [e.step] : [])))])].sort((a, b) => a - b);
    }
    expect(got).toEqual(want);
    await page.fill('[data-testid=filter-text]', 'no step says zqxjv');
    await page.waitForSelector('[data-testid=filter-empty]');
    expect(await page.locator('[data-testid=step-row]').count()).toBe(0);
    expect(await count()).toBe(`0 of ${total()} steps match`);
    await page.click('[data-testid=filter-empty] button');
    expect(await page.inputValue('[data-testid=filter-text]')).toBe('');
    expect(page.url()).not.toContain('q=');
  });

  it('only where the columns differ keeps the rows whose calls are not the same in every column', async () => {
    const page = session.driven.page;
    await page.check('[data-testid=filter-differ]');
    const columns = meta.runs.map((r) => stepFacts(byRun.get(r.runId)!));
    const steps = [...new Set([...byRun.values()].flat().flatMap((e) => (e.type === 'model-request' ? [e.step] : [])))].sort((a, b) => a - b);
    // Only rows in view are mounted: read them from the top and again from the bottom.
    const read = () => page.locator('[data-testid=step-row]').evaluateAll((els) => els.map((el) => Number(el.getAttribute('data-step'))));
    const seen = new Set(await read());
    await page.locator('[data-testid=timeline]').evaluate((el) => (el.scrollTop = el.scrollHeight));
    await page.waitForTimeout(300);
    for (const s of await read()) seen.add(s);
    const rows = [...seen].sort((a, b) => a - b);
    expect(rows).toEqual(steps.filter((s) => rowDiffers(columns, s)));
    // Reloading the URL brings the filter back.
    await page.reload();
    await page.waitForSelector('[data-testid=step-filter-bar]');
    expect(await page.isChecked('[data-testid=filter-differ]')).toBe(true);
    await page.click('[data-testid=filter-clear]');
  });
});
