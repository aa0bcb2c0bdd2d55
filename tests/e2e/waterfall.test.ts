/**
 * The Waterfall tab in Chromium against a real `parallax serve` with the simulated model: every column of the
 * shown trial on one time axis, and each span's times, in its words and its bar's place, equal to the
 * recorded events (read back through the host, not through the waterfall code). Screenshot:
 * docs/screenshots/waterfall.png (with UPDATE_SCREENSHOTS=1), else test-results/e2e/.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ComparisonMeta } from '../../shared/ipc-contract.js';
import { formatDuration } from '../../shared/number-format.js';
import type { StepEvent } from '../../shared/step-event.js';
import { groupByRun } from '../../shared/summary.js';
import { startAppSession, stopAppSession, type AppSession } from './app-session.js';
import { saveShot } from './screenshots.js';

const SIM = { name: 'simulated', baseUrl: null, model: 'sim' } as const;
const at = (v: number) => `${v < 0 ? '−' : ''}${formatDuration(Math.abs(v))}`;

describe('the waterfall, against parallax serve with the simulated model', () => {
  let session: AppSession;
  beforeAll(async () => {
    session = await startAppSession();
  });
  afterAll(async () => {
    await stopAppSession(session ?? {});
  });

  async function runAndOpen(): Promise<ComparisonMeta> {
    const { host, driven } = session;
    const meta = await host.invoke('comparison:start', { task: 'log-stats', provider: SIM, modes: ['react', 'code'] });
    for (let i = 0; i < 600; i++) {
      const item = (await host.invoke('history:list')).find((x) => x.meta.id === meta.id);
      if (item && item.runs.length === meta.runs.length && item.runs.every((r) => r.status !== 'running')) break;
      await new Promise((ok) => setTimeout(ok, 200));
    }
    await driven.page.click('[data-testid=side-tab-history]');
    await driven.page.click(`[data-testid=history-item][data-id="${meta.id}"] .history-open`);
    await driven.page.click('[data-testid=tab-waterfall]');
    await driven.page.waitForSelector('[data-testid=waterfall-view]');
    return meta;
  }

  it('shows each model request, tool call and call inside a program at the times recorded', async () => {
    const meta = await runAndOpen();
    const page = session.driven.page;
    const stored = await session.host.invoke('history:open', meta.id);
    const byRun = groupByRun(stored.events);

    // The axis, from the recorded events: the longest start-up before 0, the last event or span end after.
    const ends = (ev: readonly StepEvent[]) => {
      const reqs = new Map<number, number>();
      const out: number[] = [ev[ev.length - 1]!.t];
      for (const e of ev) {
        if (e.type === 'model-request') reqs.set(e.step, e.t);
        if (e.type === 'model-response') out.push(reqs.get(e.step)! + e.latencyMs);
      }
      return Math.max(...out);
    };
    const starts = [...byRun.values()].map((ev) => {
      const s = ev.find((e) => e.type === 'run-started');
      return s?.type === 'run-started' && s.workerStart ? -s.workerStart.ms : 0;
    });
    const from = Math.min(0, ...starts);
    const to = Math.max(...[...byRun.values()].map(ends));
    // A start-up longer than a quarter of the axis would crush the run's spans: the axis breaks at 0, the start-up
    // squeezed into its first tenth, the run's time across the rest (shared/waterfall.ts waterfallAxis).
    const view = page.locator('[data-testid=waterfall-view]');
    const broken = from < 0 && -from > 0.25 * (to - from);
    expect(await view.getAttribute('data-axis')).toBe(broken ? 'broken' : 'to-scale');
    let scaled = !broken;
    const place = (v: number) =>
      scaled ? (v - from) / (to - from) : v < 0 ? 0.1 * (1 - v / from) : 0.1 + 0.9 * (v / to);

    for (const r of meta.runs) {
      const events = byRun.get(r.runId)!;
      const column = page.locator(`[data-testid=wf-column-${r.mode}][data-run-id="${r.runId}"]`);
      await column.waitFor();
      const rows = await column.locator('[data-testid=wf-span]').evaluateAll((els) =>
        els.map((el) => {
          const bar = el.querySelector('[data-testid=wf-bar]') as HTMLElement;
          const track = bar.parentElement!.getBoundingClientRect();
          const box = bar.getBoundingClientRect();
          return {
            id: el.getAttribute('data-span'),
            kind: el.getAttribute('data-kind'),
            text: el.querySelector('[data-testid=wf-text]')!.textContent,
            title: bar.title,
            left: (box.left - track.left) / track.width,
          };
        }),
      );
      const byId = new Map(rows.map((x) => [x.id, x]));

      const started = events.find((e) => e.type === 'run-started');
      if (started?.type === 'run-started' && started.workerStart) {
        expect(byId.get('startup')!.text).toContain(
          `Worker start-up: ${formatDuration(started.workerStart.ms)} before the run began`,
        );
      }
      const requests = new Map<number, number>();
      const toolStart = new Map<string, number>();
      let models = 0,
        tools = 0,
        inner = 0;
      for (const e of events) {
        if (e.type === 'model-request') requests.set(e.step, e.t);
        if (e.type === 'tool-started') toolStart.set(e.callId, e.t);
        if (e.type === 'model-response') {
          models++;
          const sent = requests.get(e.step)!;
          expect(e.firstTokenMs, 'every reply of the simulated model streams output').toBeDefined();
          const row = byId.get(`model-${e.step}`)!;
          expect(row.text).toBe(
            `Step ${e.step} model request: sent at ${at(sent)}, first token after ${formatDuration(e.firstTokenMs!)} (at ${at(sent + e.firstTokenMs!)}), then ${formatDuration(e.latencyMs - e.firstTokenMs!)} generating, last token at ${at(sent + e.latencyMs)} (${formatDuration(e.latencyMs)} in all).`,
          );
          expect(row.title).toBe(row.text);
          expect(row.left).toBeCloseTo(place(sent), 2);
        }
        if (e.type === 'tool-finished') {
          tools++;
          const start = toolStart.get(e.callId)!;
          const row = byId.get(`tool-${e.callId}`)!;
          expect(row.text).toContain(
            `Step ${e.step} tool ${e.name}: from ${at(start)} to ${at(e.t)} (${formatDuration(e.t - start)})`,
          );
          expect(row.left).toBeCloseTo(place(start), 2);
        }
        if (e.type === 'code-run') {
          e.toolCalls.forEach((c, i) => {
            inner++;
            expect(c.startMs).toBeDefined();
            const start = toolStart.get(e.callId)! + c.startMs!;
            const row = byId.get(`inner-${e.callId}-${i}`)!;
            expect(row.kind).toBe('inner');
            expect(row.text).toContain(
              `Step ${e.step} inside run_code, ${c.name}: from ${at(start)} to ${at(start + c.durationMs)} (${formatDuration(c.durationMs)})`,
            );
          });
          // Nested right under their run_code.
          const order = rows.map((x) => x.id);
          if (e.toolCalls.length)
            expect(order.indexOf(`inner-${e.callId}-0`)).toBe(order.indexOf(`tool-${e.callId}`) + 1);
        }
      }
      expect(models).toBeGreaterThan(0);
      expect(rows.filter((x) => x.kind === 'model').length).toBe(models);
      expect(rows.filter((x) => x.kind === 'tool').length).toBe(tools);
      expect(rows.filter((x) => x.kind === 'inner').length).toBe(inner);
      if (r.mode === 'code') expect(inner).toBeGreaterThan(0);
    }
    await saveShot(page, 'waterfall');
    if (broken) {
      // "Start-up to scale" draws it as long as it was, the run's spans then in what is left.
      await page.check('[data-testid=wf-to-scale] input');
      await page.waitForSelector('[data-testid=waterfall-view][data-axis=to-scale]');
      scaled = true;
      const r = meta.runs[0]!;
      const first = byRun.get(r.runId)!.find((e) => e.type === 'model-request')!;
      const left = await page
        .locator(`[data-testid=wf-column-${r.mode}] [data-span="model-${first.step}"] [data-testid=wf-bar]`)
        .evaluate((bar) => {
          const track = bar.parentElement!.getBoundingClientRect();
          return (bar.getBoundingClientRect().left - track.left) / track.width;
        });
      expect(left).toBeCloseTo(place(first.t), 2);
      await saveShot(page, 'waterfall-to-scale', { docs: false });
      await page.uncheck('[data-testid=wf-to-scale] input');
    }
    expect(session.driven.errors).toEqual([]);
  });
});
