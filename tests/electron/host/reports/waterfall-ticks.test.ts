/**
 * The waterfall's time axis in the HTML report, printed on A4 (718 px inside the margins): when the runs end
 * exactly on a round tick (runs that all end at 6.0 s, say), that tick's label is held inside the track instead of centred on
 * the axis's end, where half of it reached past the page. The four-mode report once failed CI on a run that
 * happened to end on its 1.5 s tick; here the end is put on a tick on purpose.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { StoredComparison } from '../../../../shared/ipc-contract.js';
import { groupByRun } from '../../../../shared/summary.js';
import { runWaterfall, tickAnchor, waterfallAxis } from '../../../../shared/waterfall.js';
import { buildReport } from '../../../../electron/host/reports/index.js';
import { openInChromium, writeReport, type OpenedReport } from './chromium.js';

const STORED = fileURLToPath(new URL('../../../fixtures/reports/stored/four-modes.stored.json', import.meta.url));

/** The stored comparison with every run finishing at `end` ms, the axis's end. */
function endingAt(end: number): StoredComparison {
  const stored = JSON.parse(readFileSync(STORED, 'utf8')) as StoredComparison;
  return { ...stored, events: stored.events.map((e) => (e.type === 'run-finished' ? { ...e, t: end } : e)) };
}

const axisOf = (s: StoredComparison) => waterfallAxis([...groupByRun(s.events).values()].map((ev) => runWaterfall(ev)));

describe('the waterfall axis printed on A4', () => {
  let opened: OpenedReport;
  const stored = endingAt(6000);

  beforeAll(async () => {
    const file = await writeReport('waterfall-ticks.html', (await buildReport(stored, 'html')).content);
    opened = await openInChromium(file, { width: 718, height: 1000 });
    await opened.page.emulateMedia({ media: 'print' });
  });
  afterAll(async () => opened?.close());

  it('anchors the labels at the two ends inside the track and centres the rest', () => {
    const axis = axisOf(stored);
    // The premise: the axis starts and ends on a labelled tick.
    expect(axis.ticks.map((t) => axis.position(t))).toContain(1);
    expect(axis.ticks.map((t) => tickAnchor(axis.position(t)))).toEqual(
      axis.ticks.map((_, i) =>
        i === axis.ticks.length - 1 ? 'end' : axis.position(axis.ticks[i]!) < 0.1 ? 'start' : 'middle',
      ),
    );
    expect([tickAnchor(0), tickAnchor(0.5), tickAnchor(1)]).toEqual(['start', 'middle', 'end']);
  });

  it("keeps every tick's label within its track and the page", async () => {
    const boxes = await opened.page.$$eval('.wf-axis', (axes) =>
      axes.flatMap((a) => {
        const track = a.getBoundingClientRect();
        return [...a.querySelectorAll('.wf-tick')].map((t) => {
          const r = t.getBoundingClientRect();
          return { text: t.textContent, left: r.left - track.left, right: track.right - r.right, visible: r.width > 0 };
        });
      }),
    );
    const shown = boxes.filter((b) => b.visible);
    expect(shown.map((b) => b.text)).toContain('6.0 s');
    for (const b of shown) expect([b.text, b.left >= -0.5, b.right >= -0.5]).toEqual([b.text, true, true]);
    const w = await opened.page.evaluate(() => ({
      scroll: document.documentElement.scrollWidth,
      client: document.documentElement.clientWidth,
    }));
    expect(w.scroll).toBeLessThanOrEqual(w.client);
  });
});
