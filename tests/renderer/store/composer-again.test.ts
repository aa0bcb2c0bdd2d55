/** A stored comparison back in the composer: the form it gives starts the same request (formFromMeta, then buildRequest). */
import { describe, expect, it } from 'vitest';
import type { ComparisonMeta } from '../../../shared/ipc-contract.js';
import { DEFAULT_SETTINGS, parseSettings } from '../../../shared/run-spec.js';
import { resolveColumns, parseVariants } from '../../../shared/variants.js';
import { INITIAL_FORM } from '../../../renderer/store/composer-slice.js';
import { buildRequest } from '../../../renderer/store/composer-model.js';
import { formFromMeta } from '../../../renderer/store/composer-again.js';

const SIM = { name: 'simulated', baseUrl: 'http://127.0.0.1:0/v1', model: 'sim-careful', simulated: true };

function meta(over: Partial<ComparisonMeta>): ComparisonMeta {
  return {
    id: 'c1',
    createdAt: 0,
    task: { id: 'log-stats', text: 'Count lines' },
    provider: SIM,
    settings: DEFAULT_SETTINGS,
    runs: [],
    workspaceSource: 'fixture:log-stats seed 1',
    ...over,
  };
}

describe('formFromMeta', () => {
  it('modes, trials, model, settings and rounds at once come back as the request that ran', () => {
    const settings = parseSettings({
      maxSteps: 7,
      returnTypes: false,
      temperature: 0.3,
      truncateChars: 2000,
      toolDescriptions: 'vague',
    });
    const runs = [1, 2, 3].flatMap((trial) =>
      (['react', 'hybrid'] as const).map((mode) => ({ runId: `${mode}-${trial}`, mode, trial })),
    );
    const { form, notes } = formFromMeta(meta({ settings, runs, concurrency: 2 }), {
      ...INITIAL_FORM,
      taskChoice: 'calc',
      trials: '1',
    });
    expect(notes).toEqual([]);
    const { request, errors } = buildRequest(form);
    expect(errors).toEqual({});
    expect(request).toMatchObject({
      task: 'log-stats',
      modes: ['react', 'hybrid'],
      trials: 3,
      concurrency: 2,
      provider: { name: 'simulated', baseUrl: null, model: 'sim-careful' },
    });
    expect(parseSettings(request!.settings)).toEqual(settings);
  });

  it('variants come back as rows whose request resolves to the same columns, labels included; a free-text task as its text', () => {
    const variants = parseVariants([
      { mode: 'code', settings: { returnTypes: false, maxSteps: 4, codeState: 'persist', temperature: 0 } },
      { mode: 'code' },
      { mode: 'react', model: 'sim-hasty', label: 'Hasty ReAct' },
    ]);
    const records = resolveColumns(variants, { provider: 'simulated', model: 'sim', settings: DEFAULT_SETTINGS });
    const runs = records.map((r, i) => ({ runId: `r${i}`, mode: r.mode, variant: r.key }));
    const stored = meta({
      task: { id: null, text: 'Sum the numbers in a.txt' },
      provider: { ...SIM, model: 'sim' },
      variants: records,
      runs,
    });
    const { form } = formFromMeta(stored, INITIAL_FORM);
    expect(form.taskChoice).toBe('custom');
    expect(form.customTask).toBe('Sum the numbers in a.txt');
    const { request, errors } = buildRequest(form);
    expect(errors).toEqual({});
    expect(
      resolveColumns(parseVariants(request!.variants!), {
        provider: 'simulated',
        model: 'sim',
        settings: DEFAULT_SETTINGS,
      }),
    ).toEqual(records);
    // Only the label the user gave is kept as a label: the derived ones stay derived.
    expect(form.variants?.map((v) => v.label)).toEqual(['', '', 'Hasty ReAct']);
  });

  it('says what a comparison does not store: MCP servers, a folder copied as it is now; a custom column server', () => {
    const records = resolveColumns(
      parseVariants([
        { mode: 'react', provider: 'custom', baseUrl: 'http://127.0.0.1:9/v1', model: 'm' },
        { mode: 'code' },
      ]),
      { provider: 'simulated', model: 'sim', settings: DEFAULT_SETTINGS },
    );
    const { form, notes } = formFromMeta(
      meta({ workspaceSource: 'folder:/home/me/logs', variants: records, runs: [] }),
      { ...INITIAL_FORM, mcpConfig: '{"mcpServers":{}}' },
      ['files'],
    );
    expect(form.workspaceDir).toBe('/home/me/logs');
    expect(form.mcpConfig).toBe('{"mcpServers":{}}');
    expect(notes).toEqual([
      expect.stringContaining('ran on its own server (http://127.0.0.1:9/v1)'),
      'The workspace was your folder /home/me/logs: it is copied again as it is now.',
      'Its tools came from the MCP server files, whose config is not stored: paste it under Advanced → MCP servers.',
    ]);
    // Without MCP servers in the comparison, none from an earlier draft is carried into the run again.
    expect(formFromMeta(meta({}), { ...INITIAL_FORM, mcpConfig: '{"mcpServers":{}}' }).form.mcpConfig).toBe('');
  });
});
