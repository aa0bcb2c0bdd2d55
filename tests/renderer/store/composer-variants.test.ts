/** The composer's variant rows: into ComparisonRequest.variants, their derived labels, and the errors at the rows. */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { loadPrefs } from '../../../renderer/app/prefs.js';
import { DEFAULT_SETTINGS } from '../../../shared/run-spec.js';
import { isModeId } from '../../../shared/modes.js';
import { INITIAL_FORM } from '../../../renderer/store/composer-slice.js';
import { buildRequest, runLabel, savedForm } from '../../../renderer/store/composer-model.js';
import {
  blankVariant,
  checkVariants,
  draftsFromMatrix,
  draftsFromModes,
  restoreVariants,
} from '../../../renderer/store/composer-variants.js';

const BASE = { provider: 'simulated', model: 'sim', settings: DEFAULT_SETTINGS };

describe('composer variants', () => {
  it('an agent row: its command as words or a JSON array, sent as an agent column; without a command, the row says what to write', () => {
    const variants = [
      blankVariant('react'),
      { ...blankVariant('agent'), agentCommand: 'python3 /home/me/agent.py' },
      { ...blankVariant('agent'), agentCommand: '["python3", "/home/me/my agent.py"]' },
    ];
    const { request, errors } = buildRequest({ ...INITIAL_FORM, taskChoice: 'log-stats', variants });
    expect(errors).toEqual({});
    expect(request?.variants).toEqual([
      { mode: 'react' },
      { mode: 'agent', agent: { command: ['python3', '/home/me/agent.py'] } },
      { mode: 'agent', agent: { command: ['python3', '/home/me/my agent.py'] } },
    ]);
    expect(checkVariants(variants, BASE).columns?.map((c) => c.label)).toEqual([
      'ReAct',
      'Agent · agent.py',
      'Agent · my agent.py',
    ]);
    const bad = checkVariants(
      [blankVariant('agent'), { ...blankVariant('agent'), agentCommand: '["python3", 3]' }],
      BASE,
    );
    expect(bad.rowErrors).toEqual([
      "Give the agent's command, e.g. python3 /home/me/agent.py.",
      'The command as JSON must be an array of words, e.g. ["python3", "/home/me/my agent.py"].',
    ]);
    // A saved draft keeps the command.
    expect(restoreVariants(JSON.parse(JSON.stringify(variants)), isModeId)?.[1]?.agentCommand).toBe(
      'python3 /home/me/agent.py',
    );
  });

  it('Code Mode with and without return types: the request carries both columns, the modes theirs', () => {
    const variants = [{ ...blankVariant('code'), returnTypes: 'off' as const }, blankVariant('code')];
    const { request, errors } = buildRequest({ ...INITIAL_FORM, taskChoice: 'time-and-title', variants });
    expect(errors).toEqual({});
    expect(request?.variants).toEqual([{ mode: 'code', settings: { returnTypes: false } }, { mode: 'code' }]);
    expect(request?.modes).toEqual(['code']);
    expect(checkVariants(variants, BASE).columns?.map((c) => [c.key, c.label])).toEqual([
      ['code-1', 'Code Mode · no return types'],
      ['code', 'Code Mode'],
    ]);
  });

  it('a row set to the comparison’s own value changes nothing, so two such rows are the same column: refused, naming both', () => {
    const same = [{ ...blankVariant('code'), returnTypes: 'on' as const }, blankVariant('code')];
    const check = checkVariants(same, BASE);
    expect(check.variants).toBeNull();
    expect(check.error).toMatch(/^Variants 1 and 2 are the same column/);
    expect(buildRequest({ ...INITIAL_FORM, variants: same }).errors.variants).toBe(check.error);
  });

  it('max steps, truncation and other settings as JSON: labelled by each, checked over the comparison’s settings', () => {
    const rows = [
      { ...blankVariant('react'), maxSteps: '3', truncateChars: '2000' },
      { ...blankVariant('react'), other: '{"temperature": 0}' },
    ];
    expect(checkVariants(rows, BASE).columns?.map((c) => c.label)).toEqual([
      'ReAct · max 3 steps · truncate at 2000 chars',
      'ReAct · temperature 0',
    ]);
    const bad = checkVariants(
      [
        { ...blankVariant('react'), maxSteps: '500' },
        { ...blankVariant('react'), other: '[1]' },
        { ...blankVariant('code'), other: '{"maxRetries": -1}' },
      ],
      BASE,
    );
    expect(bad.rowErrors[0]).toMatch(/^Max steps: /);
    expect(bad.rowErrors[1]).toBe('Other settings must be a JSON object, e.g. {"temperature": 0}.');
    expect(bad.rowErrors[2]).toMatch(/maxRetries/);
    expect(bad.variants).toBeNull();
  });

  it('a column’s knobs from the registry: sent as its settings, labelled by their phrases, kept across a reload', () => {
    const rows = [
      { ...blankVariant('react'), knobs: { errorHints: 'corrective' } },
      blankVariant('react'),
      { ...blankVariant('code'), knobs: { codeState: 'persist', toolDescriptions: 'vague' } },
    ];
    const check = checkVariants(rows, BASE);
    expect(check.variants).toEqual([
      { mode: 'react', settings: { errorHints: 'corrective' } },
      { mode: 'react' },
      { mode: 'code', settings: { toolDescriptions: 'vague', codeState: 'persist' } },
    ]);
    expect(check.columns?.map((c) => c.label)).toEqual([
      'ReAct · corrective error hints',
      'ReAct',
      'Code Mode · state kept · vague descriptions',
    ]);
    // A saved draft: known knobs with known values come back; anything else is let go.
    const saved = JSON.parse(
      JSON.stringify([...rows, { ...blankVariant('code'), knobs: { codeState: 'forever', nope: 'x' } }]),
    ) as unknown;
    const restored = restoreVariants(saved, isModeId)!;
    expect(restored.slice(0, 3).map((r) => r.knobs ?? {})).toEqual([
      { errorHints: 'corrective' },
      {},
      { codeState: 'persist', toolDescriptions: 'vague' },
    ]);
    expect(restored[3]!.knobs).toBeUndefined();
  });

  it('models × modes: every model with every selected mode, models as rows, labelled by model', () => {
    const rows = draftsFromMatrix(' sim, sim-careful ,sim', ['react', 'code']);
    expect(Array.isArray(rows) && rows.map((r) => [r.model, r.mode])).toEqual([
      ['sim', 'react'],
      ['sim', 'code'],
      ['sim-careful', 'react'],
      ['sim-careful', 'code'],
    ]);
    const check = checkVariants(rows as never, BASE);
    expect(check.columns?.map((c) => c.label)).toEqual([
      'ReAct · sim',
      'Code Mode · sim',
      'ReAct · sim-careful',
      'Code Mode · sim-careful',
    ]);
    expect(buildRequest({ ...INITIAL_FORM, variants: rows as never }).request?.variants).toEqual([
      { mode: 'react', model: 'sim' },
      { mode: 'code', model: 'sim' },
      { mode: 'react', model: 'sim-careful' },
      { mode: 'code', model: 'sim-careful' },
    ]);
    expect(draftsFromMatrix(' , ', ['react'])).toBe('Name at least one model, e.g. sim, sim-careful.');
    expect(draftsFromMatrix('sim', [])).toBe('Pick at least one mode above.');
    // A name the simulated model does not have would run as sim under another label: refused at its row.
    const unknown = checkVariants(draftsFromMatrix('sim, nosuchmodel', ['react']) as never, BASE);
    expect(unknown.rowErrors).toEqual([
      null,
      'The simulated model has no model "nosuchmodel": it answers to sim, sim-careful, sim-hasty (see docs/simulated-model.md).',
    ]);
    expect(buildRequest({ ...INITIAL_FORM, model: 'sim-hasy' }).errors.model).toMatch(
      /^The simulated model has no model "sim-hasy"/,
    );
  });

  it('a given label wins; two equal labels are refused', () => {
    const rows = [
      { ...blankVariant('code'), label: 'Baseline' },
      { ...blankVariant('code'), returnTypes: 'off' as const, label: 'Baseline' },
    ];
    expect(checkVariants(rows, BASE).error).toBe(
      'Variants 1 and 2 would both be labelled "Baseline"; give one a "label".',
    );
  });

  it('starts from the selected modes, runs as variants, and survives a saved draft of another version', () => {
    expect(draftsFromModes(['react', 'code']).map((r) => r.mode)).toEqual(['react', 'code']);
    expect(runLabel(4, 1, 'variant')).toBe('Run 4 variants');
    expect(runLabel(2, 3, 'variant')).toBe('Run 2 variants × 3');
    expect(
      restoreVariants([{ mode: 'code', returnTypes: 'off', maxSteps: 3 }, { mode: 'warp' }, null], isModeId),
    ).toEqual([{ ...blankVariant('code'), returnTypes: 'off' }]);
    expect(restoreVariants('nope', isModeId)).toBeUndefined();
  });
});

describe('variant rows saved with the draft', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('are saved with the form and read back, rows of another version dropped', () => {
    const rows = [{ ...blankVariant('code'), returnTypes: 'off' as const }, blankVariant('code')];
    const saved = savedForm({ ...INITIAL_FORM, variants: rows });
    expect(saved.variants).toEqual(rows);
    const data = new Map([
      ['parallax.prefs.v1', JSON.stringify({ form: { ...saved, variants: [...rows, { mode: 'warp' }] } })],
    ]);
    vi.stubGlobal('localStorage', { getItem: (k: string) => data.get(k) ?? null, setItem: () => {} });
    expect(loadPrefs().form?.variants).toEqual(rows);
    data.set('parallax.prefs.v1', JSON.stringify({ form: { ...saved, variants: 'garbage' } }));
    expect(loadPrefs().form && 'variants' in loadPrefs().form!).toBe(false);
  });
});

describe('composer choices saved before the history knob was renamed toolHistory', () => {
  afterEach(() => vi.unstubAllGlobals());

  it("come back under the new name: the draft's setting and a row's knob", () => {
    const saved = savedForm({ ...INITIAL_FORM, variants: [blankVariant('react')] });
    const { toolHistory: _now, ...older } = saved.settings as Record<string, unknown>;
    const oldRow = { ...blankVariant('react'), knobs: { history: 'window:2' } };
    const data = new Map([
      [
        'parallax.prefs.v1',
        JSON.stringify({ form: { ...saved, settings: { ...older, history: 'clear-results:2' }, variants: [oldRow] } }),
      ],
    ]);
    vi.stubGlobal('localStorage', { getItem: (k: string) => data.get(k) ?? null, setItem: () => {} });
    const form = loadPrefs().form!;
    expect(form.settings).toMatchObject({ toolHistory: 'clear-results:2' });
    expect(form.settings).not.toHaveProperty('history');
    expect(form.variants?.[0]?.knobs).toEqual({ toolHistory: 'window:2' });
    expect(buildRequest({ ...INITIAL_FORM, ...form }).request?.settings?.toolHistory).toBe('clear-results:2');
  });
});
