/**
 * history summarize:K on the simulated model: the summary is a request of its own (recorded, counted in the
 * totals), and the requests after it carry the summary in place of the older steps.
 */
import { describe, expect, it } from 'vitest';
import { knobRuns, ofType } from '../../helpers/knob-runs.js';
import { SUMMARY_LEAD, SUMMARY_SYSTEM } from '../../../electron/engine/history-summarizer.js';
import type { ModeId } from '../../../shared/run-spec.js';

const { knobRun } = knobRuns('parallax-summary-');
const text = (c: unknown) => (typeof c === 'string' ? c : JSON.stringify(c ?? ''));

describe('history summarize:K', () => {
  it.each(['react', 'hybrid'] as ModeId[])('%s, log-stats summarize:1: summary sent instead of the old steps, totals = steps + summaries', async (mode) => {
    const r = await knobRun({ task: 'log-stats', mode, settings: { history: 'summarize:1' } });
    const summaries = ofType(r.events, 'history-summary');
    expect(summaries.length).toBeGreaterThan(0);
    const steps = ofType(r.events, 'model-response');
    const sum = (xs: readonly { usage: { prompt: number } | null }[]) => xs.reduce((n, e) => n + (e.usage?.prompt ?? 0), 0);
    expect(r.summary.totals.prompt).toBe(sum(steps) + sum(summaries));
    expect(r.summary.totals.steps).toBe(steps.length);
    const s = summaries[0]!;
    expect(s.error).toBeNull();
    expect(s.text.startsWith(SUMMARY_LEAD)).toBe(true);
    const summaryRequest = r.requests.find((b) => text(b.messages[0]?.content).startsWith(SUMMARY_SYSTEM));
    expect(summaryRequest).toBeDefined();
    const after = r.requests.filter((b) => !text(b.messages[0]?.content).startsWith(SUMMARY_SYSTEM)).slice(s.step - 1);
    const old = ofType(r.events, 'tool-finished').filter((e) => e.step <= s.toStep && e.output.length > 400);
    for (const b of after.slice(0, 1)) {
      const sent = b.messages.map((m) => text(m.content)).join('\n');
      expect(sent).toContain(SUMMARY_LEAD);
      for (const f of old) expect(b.messages.filter((m) => m.role === 'tool').map((m) => text(m.content))).not.toContain(f.output);
    }
  });
});
