import { describe, expect, it } from 'vitest';
import { DEFAULT_SETTINGS, parseSettings } from '../../../shared/run-spec.js';
import { INITIAL_FORM } from '../../../renderer/store/composer-slice.js';
import { DEFAULT_DRAFT, buildRequest, checkSettings } from '../../../renderer/store/composer-model.js';

describe('composer model', () => {
  it('the default form builds a simulated log-stats request over both modes with the default settings', () => {
    const { request, errors } = buildRequest(INITIAL_FORM);
    expect(errors).toEqual({});
    expect(request).toEqual({
      task: 'log-stats',
      modes: ['react', 'code'],
      provider: { name: 'simulated', baseUrl: null, model: 'sim' },
      settings: DEFAULT_SETTINGS,
    });
  });

  it('puts each bad setting at its field, in words, and refuses to build', () => {
    const draft = { ...DEFAULT_DRAFT, maxSteps: '500', truncateChars: 'lots', maxRetries: '1.5', temperature: '' };
    const check = checkSettings(draft, true);
    expect(check.settings).toBeNull();
    expect(check.fieldErrors).toEqual({ maxSteps: 'Must be at most 100.', truncateChars: 'Must be a number.', maxRetries: 'Must be a whole number.' });
    expect(buildRequest({ ...INITIAL_FORM, settings: draft }).request).toBeNull();
  });

  it('agrees with parseSettings on what it accepts', () => {
    const draft = { ...DEFAULT_DRAFT, maxSteps: '3', temperature: '0.1', simFaults: ['hang' as const] };
    const check = checkSettings(draft, true);
    expect(check.settings).toEqual(parseSettings({ maxSteps: 3, temperature: 0.1, simFaults: ['hang'] }));
    // Faults only exist for the simulated model; another provider never receives them.
    expect(checkSettings(draft, false).settings?.simFaults).toEqual([]);
  });

  it('asks for a task, a mode, a model and a usable base URL', () => {
    const { errors } = buildRequest({ ...INITIAL_FORM, taskChoice: 'custom', customTask: '  ', modes: [], providerName: 'custom', baseUrl: 'localhost:8000', model: '' });
    expect(Object.keys(errors).sort()).toEqual(['baseUrl', 'model', 'modes', 'task']);
  });

  it('sends a free-text task as typed and a preset URL as null (the host fills it in)', () => {
    const { request } = buildRequest({ ...INITIAL_FORM, taskChoice: 'custom', customTask: ' Sum 2 and 2 ', providerName: 'openai', baseUrl: 'https://api.openai.com/v1', model: 'gpt-4.1-mini' });
    expect(request?.task).toBe('Sum 2 and 2');
    expect(request?.provider).toEqual({ name: 'openai', baseUrl: null, model: 'gpt-4.1-mini' });
    const custom = buildRequest({ ...INITIAL_FORM, providerName: 'vllm', baseUrl: 'http://10.0.0.5:8000/v1', model: 'qwen' });
    expect(custom.request?.provider.baseUrl).toBe('http://10.0.0.5:8000/v1');
  });
});
