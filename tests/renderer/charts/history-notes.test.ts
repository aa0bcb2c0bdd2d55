/**
 * The app's view of a managed history, from real runs on the simulated model (events composed as the host
 * composes them): the timeline's step holds the summary asked for before it, the per-step chart's note says
 * what the summaries spent so bars + note = the run's totals, and the composition chart says what the knob
 * kept out (cleared tool results; what a summary replaced).
 */
import { describe, expect, it } from 'vitest';
import { knobRuns, ofType } from '../../helpers/knob-runs.js';
import { CompositionTracker } from '../../../electron/engine/tokens/prompt-composition.js';
import type { StepEvent } from '../../../shared/step-event.js';
import { summarizeRun } from '../../../shared/summary.js';
import {
  compositionNotes,
  perStepRows,
  seriesKey,
  summaryNotes,
} from '../../../renderer/components/charts/chart-data.js';
import { perStepTable } from '../../../renderer/components/charts/chart-tables.js';
import { applyEvents } from '../../../renderer/store/run-model.js';

const { knobRun } = knobRuns('parallax-history-notes-');
const composed = (events: StepEvent[]) => {
  const tracker = new CompositionTracker();
  return events.map((e) => tracker.observe(e));
};
const fmt = (n: number) => n.toLocaleString('en-US');

describe('history knob in the app', () => {
  it('summarize:1: each summary sits in its step, and the per-step bars plus the summary note make the totals', async () => {
    const r = await knobRun({ task: 'log-stats', mode: 'react', settings: { toolHistory: 'summarize:1' } });
    const events = composed(r.events);
    const summaries = ofType(events, 'history-summary');
    expect(summaries.length).toBeGreaterThan(0);
    const run = applyEvents({}, events)[events[0]!.runId]!;
    for (const s of summaries) expect(run.steps[run.stepIndex[s.step]!]!.summary).toEqual(s);
    expect(run.steps.filter((s) => s.summary)).toHaveLength(summaries.length);

    const summary = summarizeRun(events);
    const rows = perStepRows([summary]);
    const bars = (kind: 'prompt' | 'completion') =>
      rows.reduce((n, row) => n + (row[seriesKey(summary.column.key, kind)] ?? 0), 0);
    const [note] = summaryNotes([summary], true);
    expect(note).toBeDefined();
    expect(bars('prompt') + note!.prompt).toBe(summary.totals.prompt);
    expect(bars('completion') + note!.completion).toBe(summary.totals.completion);
    // The chart's table: the step rows, then one row of the summaries; its cells add up to the totals.
    const table = perStepTable(rows, [summary.column], 'Tokens per step', true, [note!]);
    expect(table.rows).toHaveLength(rows.length + 1);
    expect(table.rows.at(-1)).toEqual(['History summaries (not steps)', note!.prompt, note!.completion]);
    expect(table.rows.reduce((n, r) => n + Number(r[1] ?? 0), 0)).toBe(summary.totals.prompt);
    expect(perStepTable(rows, [summary.column], 'Tokens per step', true).rows).toHaveLength(rows.length);
    expect(note!.text).toBe(
      `${summary.column.label}: ${summaries.length} history summary requests, ${fmt(note!.prompt)} prompt + ${fmt(note!.completion)} completion tokens (simulated), not in the bars above; bars + these = the run's totals.`,
    );

    const [line] = compositionNotes(summary, true);
    const last = summaries.at(-1)!;
    expect(line).toMatch(
      new RegExp(
        `^history summary: steps 1–${last.toStep} sent as a [\\d,]+-token summary instead of [\\d,]+ tokens; [\\d,]+ tokens (not re-sent|more sent) \\(simulated\\) over \\d+ requests \\(in Earlier replies\\)$`,
      ),
    );
  });

  it('a run that did not summarise has no note and no summary in its steps', async () => {
    const r = await knobRun({ task: 'log-stats', mode: 'react' });
    const events = composed(r.events);
    const summary = summarizeRun(events);
    expect(summary.historySummaries).toBeUndefined();
    expect(summaryNotes([summary], true)).toEqual([]);
    expect(compositionNotes(summary, true)).toEqual([]);
    const run = applyEvents({}, events)[events[0]!.runId]!;
    expect(run.steps.some((s) => s.summary)).toBe(false);
  });

  it('clear-results:1: the composition note names the cleared tool results, the sum of each request’s cleared tokens', async () => {
    const r = await knobRun({ task: 'log-stats', mode: 'react', settings: { toolHistory: 'clear-results:1' } });
    const summary = summarizeRun(composed(r.events));
    const cleared = summary.perStep.reduce((n, s) => n + (s.promptComposition?.cleared?.tokens ?? 0), 0);
    expect(cleared).toBeGreaterThan(0);
    expect(compositionNotes(summary, false)).toEqual([
      `cleared tool results: ${fmt(cleared)} tokens not re-sent, over its requests`,
    ]);
  });
});
