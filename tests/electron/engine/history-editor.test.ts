/**
 * The history knob: what each request re-sends of the earlier tool results, in every mode, against the
 * simulated model (request bodies captured between the engine and the simulated server): a cleared result goes
 * as its placeholder from the request that cleared it on, exactly as model-request records it; the rest go
 * whole; totals stay the sum of the steps; the composition counts what was sent and says what was kept out.
 */
import { describe, expect, it } from 'vitest';
import { knobRuns, ofType, type WireBody } from '../../helpers/knob-runs.js';
import { parseSettings, type ModeId } from '../../../shared/run-spec.js';
import { buildSettings } from '../../../electron/cli/settings-option.js';
import { CLEARED_LEAD } from '../../../electron/engine/history-editor.js';
import { PROMPT_PARTS } from '../../../shared/prompt-composition.js';
import { CompositionTracker } from '../../../electron/engine/tokens/prompt-composition.js';
import type { StepEvent } from '../../../shared/step-event.js';
import { summarizeRun } from '../../../shared/summary.js';
import { columnProfile, reasons } from '../../../shared/result-reasons.js';

/** The events as the host keeps them: each step's prompt composition added, from the record alone. */
const composed = (events: StepEvent[]) => {
  const tracker = new CompositionTracker();
  return events.map((e) => tracker.observe(e));
};

const { knobRun } = knobRuns('parallax-history-');
const text = (c: unknown) => (typeof c === 'string' ? c : JSON.stringify(c ?? ''));

/** Every text the request sent after the task: tool messages and (text ReAct) observations. */
const sentAfterTask = (body: WireBody) =>
  body.messages
    .slice(2)
    .filter((m) => m.role !== 'assistant')
    .map((m) => text(m.content))
    .join('\n');

describe('history settings', () => {
  it('refuses a wrong K or form with what to write, in the settings and on the CLI', () => {
    expect(parseSettings({ toolHistory: 'clear-results:3' }).toolHistory).toBe('clear-results:3');
    expect(parseSettings({}).toolHistory).toBe('full');
    expect(() => parseSettings({ toolHistory: 'window:0' })).toThrow(
      /K in "window:0" must be a whole number from 1 to 100: write full, window:K/,
    );
    expect(() => parseSettings({ toolHistory: 'window:2.5' })).toThrow(/whole number/);
    expect(() => parseSettings({ toolHistory: 'trim' })).toThrow(/"trim" is not a history setting/);
    expect(() => buildSettings({ toolHistory: 'clear-results:x' })).toThrow(/^--tool-history: K in "clear-results:x"/);
  });
});

describe('history on the simulated model', () => {
  const modes: ModeId[] = ['react', 'react-text', 'hybrid', 'react-search', 'code'];

  it.each(modes)(
    '%s, log-stats: clear-results:1 and window:1 send what they keep, record what they clear, totals exact',
    async (mode) => {
      const [full, clear, window] = await Promise.all(
        ['full', 'clear-results:1', 'window:1'].map((toolHistory) =>
          knobRun({ task: 'log-stats', mode, settings: { toolHistory } }),
        ),
      );
      expect(ofType(clear.events, 'run-started')[0]!.settings.toolHistory).toBe('clear-results:1');
      for (const r of [full, clear, window]) {
        const steps = ofType(composed(r.events), 'model-response');
        expect(r.summary.totals.prompt).toBe(steps.reduce((sum, e) => sum + (e.usage?.prompt ?? 0), 0));
        expect(r.summary.totals.steps).toBe(steps.length);
        for (const e of steps) {
          const c = e.promptComposition!;
          expect(PROMPT_PARTS.reduce((n, p) => n + c[p], 0)).toBe(e.usage!.prompt);
        }
      }
      expect(ofType(full.events, 'model-request').some((e) => e.clearedResults)).toBe(false);
      for (const r of [clear, window]) {
        const requests = ofType(r.events, 'model-request').filter((e) => e.attempt === 1);
        const finished = ofType(r.events, 'tool-finished');
        const cleared = new Map<string, string>();
        requests.forEach((req, i) => {
          for (const c of req.clearedResults ?? []) cleared.set(c.callId, c.text);
          const sent = sentAfterTask(r.requests[i]!);
          const before = finished.filter((e) => e.step < req.step);
          for (const f of before) {
            const placeholder = cleared.get(f.callId);
            if (placeholder) {
              expect(placeholder.startsWith(`${CLEARED_LEAD} the result of `)).toBe(true);
              expect(sent).toContain(placeholder);
              // Not sent whole, unless a kept re-read of the same call returned the same text.
              if (!before.some((g) => !cleared.has(g.callId) && g.output === f.output))
                expect(sent).not.toContain(f.output);
            } else expect(sent).toContain(f.output);
          }
          // What the setting keeps: the newest result, or the last step's results (a result shorter than its placeholder stays).
          const earlier = finished.filter((e) => e.step < req.step);
          const kept = earlier.filter((f) => !cleared.has(f.callId));
          const long = kept.filter((f) => f.output.length > 200);
          if (r === clear) expect(long.length).toBeLessThanOrEqual(1);
          else expect(long.every((f) => f.step === req.step - 1)).toBe(true);
        });
        expect(cleared.size).toBeGreaterThan(0);
        const last = ofType(composed(r.events), 'model-response').at(-1)!.promptComposition!;
        // On the simulated model every string is counted as it was sent: only the reply priming is left over.
        expect(last.other).toBeLessThan(10);
        expect(last.cleared!.results).toBe(cleared.size);
        expect(last.cleared!.tokens).toBeGreaterThan(0);
      }
      // The result statement names what was kept out as a reason, from the recorded compositions.
      const profile = (r: typeof full) => columnProfile([summarizeRun(composed(r.events))]);
      const [pFull, pClear] = [profile(full), profile(clear)];
      const perStep = ofType(composed(clear.events), 'model-response').reduce(
        (n, e) => n + (e.promptComposition?.cleared?.tokens ?? 0),
        0,
      );
      expect(pClear.cleared).toBe(perStep);
      expect(pFull.cleared).toBe(0);
      const said = pClear.prompt < pFull.prompt ? reasons(pClear, pFull) : reasons(pFull, pClear);
      expect(said.join(' ')).toMatch(
        pClear.prompt < pFull.prompt
          ? /cleared older tool results from its history: [\d,]+ tokens not re-sent/
          : /cleared older tool results from its history \([\d,]+ tokens not re-sent\) and still sent more/,
      );
    },
  );

  it('ReAct re-reads a result it needs after it was cleared, and says so when it is cleared again', async () => {
    const r = await knobRun({ task: 'log-stats', mode: 'react', settings: { toolHistory: 'clear-results:2' } });
    const starts = ofType(r.events, 'tool-started');
    const key = (e: (typeof starts)[number]) => `${e.name} ${JSON.stringify(e.args)}`;
    const firstCleared = ofType(r.events, 'model-request').find((e) => e.clearedResults)!;
    const clearedKeys = new Set(
      starts.filter((s) => firstCleared.clearedResults!.some((c) => c.callId === s.callId)).map(key),
    );
    expect(starts.filter((s) => s.step >= firstCleared.step).some((s) => clearedKeys.has(key(s)))).toBe(true);
    expect(r.summary.validation?.ok).toBe(false);
    expect(ofType(r.events, 'run-finished')[0]!.answer).toMatch(/cleared again before I could use it/);
  });
});
