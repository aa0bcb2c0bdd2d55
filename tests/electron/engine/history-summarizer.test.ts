/**
 * history summarize:K on the simulated model: the summary is a request of its own (recorded, counted in the
 * totals), and the requests after it carry the summary in place of the older steps.
 */
import { describe, expect, it } from 'vitest';
import { knobRuns, ofType } from '../../helpers/knob-runs.js';
import { SUMMARY_LEAD, SUMMARY_SYSTEM } from '../../../electron/engine/history-summarizer.js';
import type { ModeId } from '../../../shared/run-spec.js';
import { CompositionTracker } from '../../../electron/engine/tokens/prompt-composition.js';
import { PER_MESSAGE, REPLY_PRIMING, tok } from '../../../electron/engine/tokens/count-tokens.js';
import { PROMPT_PARTS } from '../../../shared/prompt-composition.js';
import type { StepEvent } from '../../../shared/step-event.js';
import { summarizeRun } from '../../../shared/summary.js';
import { columnProfile, reasons } from '../../../shared/result-reasons.js';

/** The events as the host keeps them: each step's prompt composition added, from the record alone. */
const composed = (events: StepEvent[]) => {
  const tracker = new CompositionTracker();
  return events.map((e) => tracker.observe(e));
};

const { knobRun } = knobRuns('parallax-summary-');
const text = (c: unknown) => (typeof c === 'string' ? c : JSON.stringify(c ?? ''));

describe('history summarize:K', () => {
  it.each(['react', 'hybrid'] as ModeId[])(
    '%s, log-stats summarize:1: summary sent instead of the old steps, totals = steps + summaries',
    async (mode) => {
      const r = await knobRun({ task: 'log-stats', mode, settings: { toolHistory: 'summarize:1' } });
      const summaries = ofType(r.events, 'history-summary');
      expect(summaries.length).toBeGreaterThan(0);
      const steps = ofType(r.events, 'model-response');
      const sum = (xs: readonly { usage: { prompt: number } | null }[]) =>
        xs.reduce((n, e) => n + (e.usage?.prompt ?? 0), 0);
      expect(r.summary.totals.prompt).toBe(sum(steps) + sum(summaries));
      expect(r.summary.totals.steps).toBe(steps.length);
      const s = summaries[0]!;
      expect(s.error).toBeNull();
      expect(s.text.startsWith(SUMMARY_LEAD)).toBe(true);
      const summaryRequest = r.requests.find((b) => text(b.messages[0]?.content).startsWith(SUMMARY_SYSTEM));
      expect(summaryRequest).toBeDefined();
      const after = r.requests
        .filter((b) => !text(b.messages[0]?.content).startsWith(SUMMARY_SYSTEM))
        .slice(s.step - 1);
      const old = ofType(r.events, 'tool-finished').filter((e) => e.step <= s.toStep && e.output.length > 400);
      for (const b of after.slice(0, 1)) {
        const sent = b.messages.map((m) => text(m.content)).join('\n');
        expect(sent).toContain(SUMMARY_LEAD);
        for (const f of old)
          expect(b.messages.filter((m) => m.role === 'tool').map((m) => text(m.content))).not.toContain(f.output);
      }
    },
  );

  it.each([
    ['react', 'summarize:1'],
    ['react', 'summarize:2'],
    ['react-text', 'summarize:1'],
    ['hybrid', 'summarize:1'],
    ['react-search', 'summarize:1'],
    ['code', 'summarize:1'],
  ] as [ModeId, string][])(
    '%s %s, log-stats: the composition of each step after a summary is the request as sent, with what the summary replaced',
    async (mode, history) => {
      const r = await knobRun({ task: 'log-stats', mode, settings: { toolHistory: history } });
      const events = composed(r.events);
      const summaries = ofType(events, 'history-summary').filter((s) => s.error === null);
      expect(summaries.length).toBeGreaterThan(0);
      const steps = ofType(events, 'model-response').filter((e) => e.usage);
      for (const s of steps) {
        const c = s.promptComposition!;
        // Parts sum to the prompt and `other` is only the reply priming: the reconstruction matches the request exactly.
        expect(PROMPT_PARTS.reduce((n, p) => n + c[p], 0)).toBe(s.usage!.prompt);
        expect(c.other, `${mode} step ${s.step}: other`).toBe(REPLY_PRIMING);
        const inForce = summaries.filter((x) => x.step <= s.step).at(-1);
        if (!inForce) {
          expect(c.summarized).toBeUndefined();
          continue;
        }
        expect(c.summarized!.toStep).toBe(inForce.toStep);
        expect(c.summarized!.fromStep).toBe(1);
        expect(c.summarized!.tokens).toBe(PER_MESSAGE + tok('user') + tok(inForce.text));
        expect(c.summarized!.replacedTokens).toBeGreaterThan(0);
      }
      // The first summary replaced exactly the steps it covers: the event's count and the composition's agree.
      const first = summaries[0]!;
      const at = steps.find((s) => s.step === first.step)!;
      expect(at.promptComposition!.summarized!.replacedTokens).toBe(first.replacedTokens);
      // A later summary stands for every step it covers: the earlier ones plus those since, not the earlier summary.
      for (const later of summaries.slice(1)) {
        const c = steps.find((s) => s.step === later.step)!.promptComposition!.summarized!;
        const prev = steps.find((s) => s.step === summaries[summaries.indexOf(later) - 1]!.step)!.promptComposition!
          .summarized!;
        expect(c.replacedTokens).toBe(prev.replacedTokens + later.replacedTokens - prev.tokens);
      }
    },
  );

  it('react, log-stats: the result statement names what the summaries kept out and what they cost', async () => {
    const [full, summ] = await Promise.all(
      ['full', 'summarize:1'].map((history) =>
        knobRun({ task: 'log-stats', mode: 'react', settings: { toolHistory: history } }),
      ),
    );
    const pFull = columnProfile([summarizeRun(composed(full.events))]);
    const pSumm = columnProfile([summarizeRun(composed(summ.events))]);
    expect(pFull.summarized).toBeNull();
    const steps = ofType(composed(summ.events), 'model-response');
    const saved = steps.reduce(
      (n, e) =>
        n +
        (e.promptComposition?.summarized
          ? e.promptComposition.summarized.replacedTokens - e.promptComposition.summarized.tokens
          : 0),
      0,
    );
    const cost = ofType(summ.events, 'history-summary').reduce((n, e) => n + e.usage!.prompt + e.usage!.completion, 0);
    expect(pSumm.summarized).toEqual({ saved, cost });
    const said = (pSumm.prompt < pFull.prompt ? reasons(pSumm, pFull) : reasons(pFull, pSumm)).join(' ');
    const kept =
      saved >= 0
        ? `${saved.toLocaleString('en-US')} tokens not re-sent`
        : `${(-saved).toLocaleString('en-US')} tokens more sent than the steps it replaced`;
    expect(said).toContain(
      `summarised older steps of its history: ${kept}, for ${cost.toLocaleString('en-US')} tokens of summary requests (in its totals)`,
    );
  });
});
