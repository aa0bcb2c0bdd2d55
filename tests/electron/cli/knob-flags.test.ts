/** The experiment knobs' CLI flags and the simulated model's names, as the CLI reads them (no process started). */
import { describe, expect, it } from 'vitest';
import { buildSettings } from '../../../electron/cli/settings-option.js';
import { resolveProviderFlags, simModelsHelp } from '../../../electron/cli/provider-options.js';
import { knobRows } from '../../../electron/host/reports/report-text.js';
import { parseSettings } from '../../../shared/run-spec.js';
import { SIM_MODEL_IDS, SIM_MODELS } from '../../../shared/sim-models.js';

describe('knob flags', () => {
  it('--tool-descriptions, --code-state and --tool-search set their settings, over --settings', () => {
    const settings = buildSettings({
      settings: '{"toolSearch":"add-tools","maxSteps":4}',
      toolDescriptions: 'vague',
      codeState: 'persist',
      toolSearch: 'call-tool',
    });
    expect(parseSettings(settings)).toMatchObject({
      toolDescriptions: 'vague',
      codeState: 'persist',
      toolSearch: 'call-tool',
      maxSteps: 4,
    });
  });

  it('refuses a value it does not know, naming the flag and the values', () => {
    expect(() => buildSettings({ codeState: 'forever' })).toThrow(
      '--code-state must be one of fresh, persist; got "forever".',
    );
    expect(() => parseSettings({ toolDescriptions: 'terse' })).toThrow(
      /toolDescriptions: .*"full"\|"one-line"\|"vague"|toolDescriptions/,
    );
  });

  it('the defaults keep what runs did before the knobs existed', () => {
    expect(parseSettings({})).toMatchObject({ toolDescriptions: 'full', codeState: 'fresh', toolSearch: 'add-tools' });
  });

  it('reports list a knob only when it differs from its default, with what the value means', () => {
    expect(knobRows(parseSettings({}))).toEqual([]);
    expect(knobRows({})).toEqual([]);
    expect(knobRows(parseSettings({ codeState: 'persist' }))).toEqual([
      ['Code Mode state', expect.stringMatching(/^persist \(top-level variables stay/)],
    ]);
  });
});

describe('simulated model names', () => {
  it('accepts each simulated name without a provider, and refuses others with the list', () => {
    for (const model of SIM_MODEL_IDS)
      expect(resolveProviderFlags({ model })).toMatchObject({ name: 'simulated', model, simulated: true });
    expect(resolveProviderFlags({})).toMatchObject({ model: 'sim' });
    expect(() => resolveProviderFlags({ model: 'gpt-4o' })).toThrow(
      '--model gpt-4o needs --base-url or --provider; without them the simulated model answers to sim, sim-careful, sim-hasty.',
    );
  });

  it('--help lists each name with its one description', () => {
    const help = simModelsHelp();
    for (const model of SIM_MODEL_IDS) expect(help).toContain(`${model}`);
    expect(help).toContain(SIM_MODELS['sim-hasty'].about);
  });
});
