/**
 * The errorHints knob: a failed tool call's text under 'plain' (as before the knob) and 'corrective' (what to do
 * next, by the kind of failure), as built and as sent to the simulated model in each mode whose tool errors
 * return to it (request bodies captured between the engine and the simulated server).
 */
import { describe, expect, it } from 'vitest';
import { knobRuns, ofType, type WireBody } from '../../../helpers/knob-runs.js';
import type { ModeId } from '../../../../shared/run-spec.js';
import { NEXT_STEP_LEAD, toolErrorText } from '../../../../electron/engine/tools/error-hints.js';

const { knobRun } = knobRuns('parallax-error-hints-');

/** The text of every tool message (or text-ReAct observation) the model was sent in the run's last request. */
function sentResults(requests: readonly WireBody[]): string[] {
  const last = requests[requests.length - 1]!;
  return last.messages
    .filter((m) => m.role === 'tool' || (m.role === 'user' && /Observation:/.test(String(m.content))))
    .map((m) => String(m.content));
}

describe('toolErrorText', () => {
  it("'plain' (and a record without the knob) keeps the message as it was", () => {
    expect(toolErrorText('read_file failed: EACCES', {}, 'plain')).toBe('Error: read_file failed: EACCES');
    expect(toolErrorText('read_file failed: EACCES', {}, undefined)).toBe('Error: read_file failed: EACCES');
  });

  it("'corrective' adds what to do next on its own line, by the kind of failure", () => {
    const next = (error: string, call = {}) => toolErrorText(error, call, 'corrective').split('\n')[1]!;
    expect(next('Tool "open_file" does not exist.', { unknownTool: true })).toMatch(
      /^What to do next: pick one of the available tools listed above/,
    );
    expect(next('read_file: The arguments are not valid JSON', { badArguments: true })).toMatch(
      /check each argument's name and type/,
    );
    expect(next('Invalid arguments for run_shell: missing required argument "command"')).toMatch(
      /check each argument's name and type/,
    );
    expect(next('No file at "a.txt" in the workspace.')).toMatch(/another folder or have another extension/);
    expect(next('calc: the reply reached its token limit', { cut: true })).toMatch(/shorter arguments/);
    expect(next('fetch_url failed: timeout')).toMatch(/do not repeat this call unchanged/);
    expect(toolErrorText('x', {}, 'corrective').startsWith('Error: x\n' + NEXT_STEP_LEAD)).toBe(true);
  });
});

describe('errorHints on the simulated model', () => {
  const modes: ModeId[] = ['react', 'react-text', 'hybrid', 'react-search'];

  it.each(modes)(
    '%s, missing-file: the error sent carries the hint only under corrective, and the run recovers a step sooner',
    async (mode) => {
      const [plain, corrective] = await Promise.all(
        (['plain', 'corrective'] as const).map((errorHints) =>
          knobRun({ task: 'missing-file', mode, settings: { errorHints } }),
        ),
      );
      const started = (r: typeof plain) => ofType(r.events, 'run-started')[0]!.settings.errorHints;
      expect([started(plain), started(corrective)]).toEqual(['plain', 'corrective']);
      const failedOf = (r: typeof plain) => ofType(r.events, 'tool-finished').find((e) => e.error !== null)!;
      expect(failedOf(plain).output).not.toContain(NEXT_STEP_LEAD);
      expect(failedOf(corrective).output).toContain(`${NEXT_STEP_LEAD} the path may be in another folder`);
      // What the model was sent is what was recorded.
      expect(sentResults(corrective.requests).some((t) => t.includes(NEXT_STEP_LEAD))).toBe(true);
      expect(sentResults(plain.requests).some((t) => t.includes(NEXT_STEP_LEAD))).toBe(false);
      for (const r of [plain, corrective]) {
        expect(r.summary.validation?.ok).toBe(true);
        const steps = ofType(r.events, 'model-response');
        expect(r.summary.totals.prompt).toBe(steps.reduce((sum, e) => sum + (e.usage?.prompt ?? 0), 0));
      }
      expect(corrective.summary.totals.steps).toBe(plain.summary.totals.steps - 1);
      expect(corrective.summary.totals.prompt).toBeLessThan(plain.summary.totals.prompt);
    },
  );

  it("an unknown tool (fault) gets the pick-a-listed-tool hint; Code Mode's malformed run_code call gets the arguments hint", async () => {
    const react = await knobRun({
      task: 'weather-f',
      mode: 'react',
      settings: { errorHints: 'corrective', simFaults: ['unknown-tool'] },
    });
    expect(ofType(react.events, 'tool-finished').find((e) => e.error !== null)!.output).toMatch(
      /Available tools: .*\nWhat to do next: pick one of the available tools/s,
    );
    const code = await knobRun({
      task: 'weather-f',
      mode: 'code',
      settings: { errorHints: 'corrective', simFaults: ['malformed-args'] },
    });
    expect(ofType(code.events, 'tool-finished').find((e) => e.error !== null)!.output).toMatch(
      /\nWhat to do next: check each argument's name and type/,
    );
    for (const r of [react, code]) expect(r.summary.validation?.ok).toBe(true);
  });
});
