/**
 * A kind of step, added as the recipe in docs/architecture.md ("A kind of step") says: a mode declares a phase in
 * its prepareStep (tests/helpers/recipe-mode.ts declares 'planning'), the step's model-request records it, and
 * every surface names the step one way, through shared/step-phase.ts: the app's step card, the HTML and Markdown
 * reports, the CLI's live lines and the waterfall. A step without a phase reads as it always did.
 */
import { describe, expect, it } from 'vitest';
import { buildReport } from '../../electron/host/reports/index.js';
import { stepLine } from '../../electron/cli/step-printer.js';
import { StepCard } from '../../renderer/components/timeline/step-card.js';
import { applyEvents } from '../../renderer/store/run-model.js';
import type { StepEvent } from '../../shared/step-event.js';
import { checkStepEvent } from '../../shared/step-event-schema.js';
import { stepPhases, stepTitle } from '../../shared/step-phase.js';
import { runWaterfall } from '../../shared/waterfall.js';
import { comparisonOf } from '../helpers/cost-runs.js';
import { PLANNING } from '../helpers/recipe-mode.js';
import { byClass, render, textOf } from '../helpers/render-markup.js';

const usage = { prompt: 100, completion: 10, cached: 0, reasoning: 0 };
const plain = comparisonOf('20261206-120000-fa5e0001', [
  { runId: 'r-plan', mode: 'react', steps: [{ usage }, { usage }] },
]);
/** The same run, its first step made a planning step as the mode's prepareStep would make it. */
const planned = {
  ...plain,
  events: plain.events.map(
    (e): StepEvent => (e.type === 'model-request' && e.step === 1 ? { ...e, phase: PLANNING } : e),
  ),
};
const request = (events: readonly StepEvent[], step: number) =>
  events.find(
    (e): e is Extract<StepEvent, { type: 'model-request' }> => e.type === 'model-request' && e.step === step,
  )!;

describe('a step phase', () => {
  it('is one title: "Step 1 · planning", and "Step 2" without a phase', () => {
    expect(stepTitle(1, PLANNING)).toBe('Step 1 · planning');
    expect(stepTitle(2)).toBe('Step 2');
    expect(stepTitle(3, 'self-check')).toBe('Step 3 · self check');
    expect([...stepPhases(planned.events)]).toEqual([[1, PLANNING]]);
  });

  it('is a field of model-request the schema reads, a lowercase word and nothing else', () => {
    expect(checkStepEvent(request(planned.events, 1))).toMatchObject({ ok: true });
    const odd = checkStepEvent({ ...request(planned.events, 1), phase: '<b>Plan</b>' });
    expect(odd.ok).toBe(false);
  });

  it("names the step in the CLI's live lines, and an ordinary step gets no line of its own", () => {
    expect(stepLine(request(planned.events, 1), '[react] ')).toBe('[react]      Step 1 · planning');
    expect(stepLine(request(planned.events, 2))).toBeNull();
    expect(stepLine(request(plain.events, 1))).toBeNull();
  });

  it('names the step in the waterfall (the app and the HTML report draw it)', () => {
    const labels = (events: readonly StepEvent[]) =>
      runWaterfall(events)
        .spans.filter((s) => s.kind === 'model')
        .map((s) => s.label);
    expect(labels(planned.events)).toEqual(['Step 1 · planning · model', 'Step 2 · model']);
    expect(labels(plain.events)).toEqual(['Step 1 · model', 'Step 2 · model']);
  });

  it("names the step in the app's step card", () => {
    const runs = applyEvents({}, planned.events);
    const titles = runs['r-plan']!.steps.map((step) =>
      byClass(render(<StepCard runId="r-plan" step={step} truncateChars={null} stopped={false} />).doc, 'step-title')
        .map(textOf)
        .join(''),
    );
    expect(titles).toEqual(['Step 1 · planning', 'Step 2']);
  });

  it('names the step in the HTML report and in the Markdown steps table; without a phase both are unchanged', async () => {
    const html = (await buildReport(planned, 'html')).content;
    expect(html).toContain('<h4>Step 1 · planning</h4>');
    expect(html).toContain('<h4>Step 2</h4>');
    const md = (await buildReport(planned, 'md')).content;
    expect(md).toMatch(/^\| 1 · planning \|/m);
    expect(md).toMatch(/^\| 2 \|/m);
    // A run without phases: the reports are the same text with the phase taken out.
    const strip = (s: string) => s.replaceAll(' · planning', '');
    expect(strip(html)).toBe((await buildReport(plain, 'html')).content);
    expect(strip(md)).toBe((await buildReport(plain, 'md')).content);
  });
});
