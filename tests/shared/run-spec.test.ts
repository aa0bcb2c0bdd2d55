/**
 * Settings stored under a former name: the knob `history` is `toolHistory` now (named apart from the History of
 * comparisons). Everything saved before the rename — settings objects, meta.json, event logs, suites, variant
 * columns — reads as it did; an object that sets both names is refused, naming both; new writes use the new name.
 */
import { describe, expect, it } from 'vitest';
import { currentSettingNames, DEFAULT_SETTINGS, formerNameConflict, parseSettings } from '../../shared/run-spec.js';
import { KNOBS, knobRows } from '../../shared/run-knobs.js';
import { FORMER_SETTING_NAMES } from '../../shared/former-setting-names.js';
import { checkComparisonMeta } from '../../shared/comparison-meta-schema.js';
import { checkStepEvent } from '../../shared/step-event-schema.js';
import { parseVariants } from '../../shared/variants.js';
import { parseSuite } from '../../shared/suite.js';
import type { ComparisonMeta } from '../../shared/ipc-contract.js';

const provider = { name: 'simulated', baseUrl: 'http://127.0.0.1:1/v1', model: 'sim', simulated: true };
/** DEFAULT_SETTINGS as a version before the rename wrote them: the knob under `history`. */
function oldSettings(value: string): Record<string, unknown> {
  const { toolHistory: _now, ...rest } = DEFAULT_SETTINGS;
  return { ...rest, history: value };
}

describe('the former name of the tool-result history knob', () => {
  it('is recorded on the knob, and the knob now has its own name, label and flag', () => {
    expect(FORMER_SETTING_NAMES).toEqual({ history: 'toolHistory' });
    expect(KNOBS.toolHistory.label).toBe('Tool-result history');
    expect(KNOBS.toolHistory.flag.name).toBe('tool-history');
    expect(Object.keys(DEFAULT_SETTINGS)).toContain('toolHistory');
    expect(Object.keys(DEFAULT_SETTINGS)).not.toContain('history');
  });

  it('an old settings object parses to the same settings as one written today', () => {
    expect(parseSettings({ history: 'window:2' })).toEqual(parseSettings({ toolHistory: 'window:2' }));
    expect(parseSettings({ history: 'window:2' }).toolHistory).toBe('window:2');
    expect(parseSettings(oldSettings('summarize:3'))).toEqual({ ...DEFAULT_SETTINGS, toolHistory: 'summarize:3' });
    // A bad value under the old name is still refused, under the new name.
    expect(() => parseSettings({ history: 'window:0' })).toThrow(/toolHistory: K in "window:0"/);
  });

  it('an object with both names is refused, naming both and what to keep', () => {
    const both = { history: 'window:2', toolHistory: 'full' };
    expect(formerNameConflict(both)).toBe(
      '"history" is the former name of "toolHistory" and both are set; keep only "toolHistory"',
    );
    expect(() => parseSettings(both)).toThrow(
      'Invalid run settings — "history" is the former name of "toolHistory" and both are set; keep only "toolHistory". Fix these values and start again.',
    );
  });

  it('renames without touching anything else, and leaves an object without a former name as it is', () => {
    const now = { maxSteps: 4 };
    expect(currentSettingNames(now)).toBe(now);
    expect(currentSettingNames(null)).toBe(null);
    expect(currentSettingNames({ maxSteps: 4, history: 'full' })).toEqual({ maxSteps: 4, toolHistory: 'full' });
  });

  it('keeps "__proto__" and "constructor" in settings from a page as plain keys, for the key check to refuse', () => {
    const hostile = JSON.parse('{"history":"full","__proto__":{"maxSteps":999},"constructor":"x"}') as object;
    const renamed = currentSettingNames(hostile) as Record<string, unknown>;
    expect(Object.keys(renamed)).toEqual(['toolHistory', '__proto__', 'constructor']);
    expect(Object.getPrototypeOf(renamed)).toBe(Object.prototype);
    expect(renamed.maxSteps).toBeUndefined();
    expect(() => parseSettings(hostile)).toThrow(/__proto__/);
    expect(formerNameConflict(JSON.parse('{"constructor":"x"}'))).toBeNull();
  });

  it('an old meta.json checks and comes back with its settings and its columns under the new name', () => {
    const meta = {
      id: 'cmp-old-1',
      createdAt: 1,
      task: { id: 'calc', text: 'x' },
      provider,
      settings: oldSettings('clear-results:2'),
      runs: [{ runId: 'run-old-1', mode: 'react', variant: 'react-1' }],
      workspaceSource: '/tmp/w',
      variants: [
        { key: 'react-1', label: 'ReAct · history window:2', mode: 'react', settings: { history: 'window:2' } },
      ],
    };
    const checked = checkComparisonMeta(meta);
    expect(checked.ok).toBe(true);
    const got = (checked as { meta: ComparisonMeta }).meta;
    expect(got.settings).toEqual({ ...DEFAULT_SETTINGS, toolHistory: 'clear-results:2' });
    expect(got.variants![0]!.settings).toEqual({ toolHistory: 'window:2' });
    // The report's settings rows show it, under the knob's label.
    expect(knobRows(got.settings)).toEqual([['Tool-result history', expect.stringMatching(/^clear-results:2 \(/)]]);
    expect(checkComparisonMeta({ ...meta, settings: { ...meta.settings, toolHistory: 'full' } })).toEqual({
      ok: false,
      problem: expect.stringContaining('"history" is the former name of "toolHistory" and both are set'),
    });
  });

  it("an old event log's run-started comes back with its setting under the new name; other events unchanged", () => {
    const started = {
      type: 'run-started',
      runId: 'run-old-1',
      seq: 0,
      t: 0,
      mode: 'react',
      task: { id: 'calc', text: 'x' },
      provider,
      settings: oldSettings('window:4'),
      systemPrompt: 's',
      tools: [],
      startedAt: 1,
    };
    const checked = checkStepEvent(started);
    expect(checked.ok).toBe(true);
    const event = (checked as { event: { type: string; settings?: Record<string, unknown> } }).event;
    expect(event.settings!.toolHistory).toBe('window:4');
    expect(event.settings).not.toHaveProperty('history');
    const request = {
      type: 'model-request',
      runId: 'run-old-1',
      seq: 1,
      t: 1,
      step: 1,
      attempt: 1,
      messageCount: 2,
      toolNames: [],
    };
    expect(checkStepEvent(request)).toEqual({ ok: true, event: request });
    expect(checkStepEvent({ ...started, settings: { ...started.settings, toolHistory: 'full' } }).ok).toBe(false);
  });

  it('a variant column and a suite written with the old name set the knob', () => {
    expect(parseVariants([{ mode: 'react', settings: { history: 'window:2' } }])[0]!.settings).toEqual({
      toolHistory: 'window:2',
    });
    const suite = parseSuite(
      { name: 'old', settings: { history: 'clear-results:4' }, tasks: [{ builtin: 'calc' }] },
      'old.json',
    );
    expect(suite.settings).toEqual({ toolHistory: 'clear-results:4' });
    expect(() =>
      parseSuite(
        { name: 'both', settings: { history: 'full', toolHistory: 'full' }, tasks: [{ builtin: 'calc' }] },
        'b.json',
      ),
    ).toThrow(/"history" is the former name of "toolHistory" and both are set/);
  });

  it('new writes use the new name', () => {
    const written = JSON.parse(JSON.stringify(parseSettings({ history: 'window:2' }))) as Record<string, unknown>;
    expect(written.toolHistory).toBe('window:2');
    expect(written).not.toHaveProperty('history');
  });
});
