/**
 * The repeatGuard knob: a call identical to one that ran (same tool, same arguments in any key order) gets a
 * note instead of running, in every mode, against the simulated model with its 'repeat-call' fault (a model
 * stuck on its first call), request bodies captured between the engine and the simulated server.
 */
import { describe, expect, it } from 'vitest';
import { knobRuns, ofType, type WireBody } from '../../../helpers/knob-runs.js';
import type { ModeId } from '../../../../shared/run-spec.js';
import { canonicalJson } from '../../../../shared/canonical-json.js';
import { REPEAT_NOTE_LEAD, RepeatGuard } from '../../../../electron/engine/tools/repeat-guard.js';
import { MAX_REPEATS } from '../../../../electron/sim/faults.js';

const { knobRun } = knobRuns('parallax-repeat-guard-');

const sentTexts = (requests: readonly WireBody[]): string[] =>
  requests[requests.length - 1]!.messages.map((m) =>
    typeof m.content === 'string' ? m.content : JSON.stringify(m.content ?? ''),
  );

describe('RepeatGuard', () => {
  it('tells calls apart by tool and canonical arguments, and forgets a call whose result was cleared', () => {
    expect(canonicalJson({ b: 1, a: { d: [1, { y: 2, x: 1 }], c: null } })).toBe(
      '{"a":{"c":null,"d":[1,{"x":1,"y":2}]},"b":1}',
    );
    const g = new RepeatGuard();
    expect(g.check('read_file', { path: 'a', max: 1 }, { step: 1, callId: 'c1' })).toBeNull();
    expect(g.check('read_file', { max: 1, path: 'a' }, { step: 2, callId: 'c2' })).toEqual({ step: 1, callId: 'c1' });
    expect(g.check('read_file', { path: 'b', max: 1 }, { step: 2, callId: 'c3' })).toBeNull();
    expect(g.check('list_dir', { path: 'a', max: 1 }, { step: 2, callId: 'c4' })).toBeNull();
    g.forget('c1');
    expect(g.check('read_file', { path: 'a', max: 1 }, { step: 3, callId: 'c5' })).toBeNull();
    expect(g.check('read_file', { path: 'a', max: 1 }, { step: 4, callId: 'c6' })).toEqual({ step: 3, callId: 'c5' });
  });
});

describe('repeatGuard on the simulated model', () => {
  const modes: ModeId[] = ['react', 'react-text', 'hybrid', 'react-search', 'code', 'code-py'];

  it.each(modes)(
    '%s: off, the stuck call runs again each time; on, it gets one note and the run goes on',
    async (mode) => {
      const settings = (repeatGuard: 'off' | 'on') => ({ repeatGuard, simFaults: ['repeat-call' as const] });
      const [off, on, base] = await Promise.all([
        knobRun({ task: 'weather-f', mode, settings: settings('off') }),
        knobRun({ task: 'weather-f', mode, settings: settings('on') }),
        knobRun({ task: 'weather-f', mode }),
      ]);
      expect(ofType(on.events, 'run-started')[0]!.settings.repeatGuard).toBe('on');
      const finished = (r: typeof off) => ofType(r.events, 'tool-finished');
      const first = finished(base)[0]!;
      // Off: the first call ran 1 + MAX_REPEATS times, every time for real.
      const offSame = finished(off).filter((e) => e.name === first.name && e.output === first.output);
      expect(offSame.length).toBe(1 + MAX_REPEATS);
      expect(finished(off).some((e) => e.repeatOf)).toBe(false);
      expect(off.summary.totals.steps).toBe(base.summary.totals.steps + MAX_REPEATS);
      // On: the repeat was not run; its note names the earlier call, and the note is what the model was sent.
      const noted = finished(on).filter((e) => e.repeatOf);
      expect(noted).toHaveLength(1);
      expect(noted[0]!.output.startsWith(REPEAT_NOTE_LEAD)).toBe(true);
      expect(noted[0]!.output).toContain('in step 1');
      expect(noted[0]!.repeatOf).toEqual({ step: 1, callId: finished(on)[0]!.callId });
      expect(sentTexts(on.requests).some((t) => t.includes(REPEAT_NOTE_LEAD))).toBe(true);
      expect(sentTexts(off.requests).some((t) => t.includes(REPEAT_NOTE_LEAD))).toBe(false);
      expect(on.summary.totals.steps).toBe(base.summary.totals.steps + 1);
      for (const r of [off, on, base]) {
        expect(r.summary.validation?.ok).toBe(true);
        const steps = ofType(r.events, 'model-response');
        expect(r.summary.totals.prompt).toBe(steps.reduce((sum, e) => sum + (e.usage?.prompt ?? 0), 0));
        expect(r.summary.totals.steps).toBe(steps.length);
      }
      expect(on.summary.totals.prompt).toBeLessThan(off.summary.totals.prompt);
    },
  );
});
