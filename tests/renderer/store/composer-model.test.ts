import { describe, expect, it } from 'vitest';
import { DEFAULT_SETTINGS, MAX_TRIALS, parseSettings } from '../../../shared/run-spec.js';
import { INITIAL_FORM } from '../../../renderer/store/composer-slice.js';
import {
  DEFAULT_DRAFT,
  buildRequest,
  checkSettings,
  checkTrials,
  runLabel,
  savedForm,
} from '../../../renderer/store/composer-model.js';

describe('composer model', () => {
  it('the default form builds a simulated log-stats request over both modes with the default settings', () => {
    const { request, errors } = buildRequest(INITIAL_FORM);
    expect(errors).toEqual({});
    expect(request).toEqual({
      task: 'log-stats',
      modes: ['react', 'code'],
      trials: 1,
      provider: { name: 'simulated', baseUrl: null, model: 'sim' },
      settings: DEFAULT_SETTINGS,
    });
  });

  it('puts each bad setting at its field, in words, and refuses to build', () => {
    const draft = { ...DEFAULT_DRAFT, maxSteps: '500', truncateChars: 'lots', maxRetries: '1.5', temperature: '' };
    const check = checkSettings(draft, true);
    expect(check.settings).toBeNull();
    expect(check.fieldErrors).toEqual({
      maxSteps: 'Must be at most 100.',
      truncateChars: 'Must be a number.',
      maxRetries: 'Must be a whole number.',
    });
    expect(buildRequest({ ...INITIAL_FORM, settings: draft }).request).toBeNull();
  });

  it('agrees with parseSettings on what it accepts', () => {
    const draft = { ...DEFAULT_DRAFT, maxSteps: '3', temperature: '0.1', simFaults: ['hang' as const] };
    const check = checkSettings(draft, true);
    expect(check.settings).toEqual(parseSettings({ maxSteps: 3, temperature: 0.1, simFaults: ['hang'] }));
    // Faults only exist for the simulated model; another provider never receives them.
    expect(checkSettings(draft, false).settings?.simFaults).toEqual([]);
  });

  it('carries the experiment knobs; a form saved before they existed builds their defaults', () => {
    const draft = {
      ...DEFAULT_DRAFT,
      toolDescriptions: 'vague' as const,
      codeState: 'persist' as const,
      toolSearch: 'call-tool' as const,
    };
    expect(checkSettings(draft, true).settings).toEqual(
      parseSettings({ toolDescriptions: 'vague', codeState: 'persist', toolSearch: 'call-tool' }),
    );
    const { toolDescriptions: _d, codeState: _c, toolSearch: _s, ...older } = DEFAULT_DRAFT;
    expect(checkSettings(older, true).settings).toMatchObject({
      toolDescriptions: 'full',
      codeState: 'fresh',
      toolSearch: 'add-tools',
    });
  });

  it('carries the stream bounds and stream_options, with field errors in words', () => {
    const draft = { ...DEFAULT_DRAFT, streamIdleTimeoutMs: '30000', requestDeadlineMs: '300000', streamOptions: false };
    expect(checkSettings(draft, false).settings).toEqual(
      parseSettings({ streamIdleTimeoutMs: 30_000, requestDeadlineMs: 300_000, streamOptions: false }),
    );
    expect(checkSettings({ ...DEFAULT_DRAFT, streamIdleTimeoutMs: '10' }, false).fieldErrors).toEqual({
      streamIdleTimeoutMs: 'Must be at least 1,000.',
    });
    expect(DEFAULT_DRAFT).toMatchObject({
      streamIdleTimeoutMs: String(DEFAULT_SETTINGS.streamIdleTimeoutMs),
      requestDeadlineMs: String(DEFAULT_SETTINGS.requestDeadlineMs),
      streamOptions: true,
    });
  });

  it('asks for a task, a mode, a model and a usable base URL', () => {
    const { errors } = buildRequest({
      ...INITIAL_FORM,
      taskChoice: 'custom',
      customTask: '  ',
      modes: [],
      providerName: 'custom',
      baseUrl: 'localhost:8000',
      model: '',
    });
    expect(Object.keys(errors).sort()).toEqual(['baseUrl', 'model', 'modes', 'task']);
  });

  it('sends a free-text task as typed and a preset URL as null (the host fills it in)', () => {
    const { request } = buildRequest({
      ...INITIAL_FORM,
      taskChoice: 'custom',
      customTask: ' Sum 2 and 2 ',
      providerName: 'openai',
      baseUrl: 'https://api.openai.com/v1',
      model: 'gpt-4.1-mini',
    });
    expect(request?.task).toBe('Sum 2 and 2');
    expect(request?.provider).toEqual({ name: 'openai', baseUrl: null, model: 'gpt-4.1-mini' });
    const custom = buildRequest({
      ...INITIAL_FORM,
      providerName: 'vllm',
      baseUrl: 'http://10.0.0.5:8000/v1',
      model: 'qwen',
    });
    expect(custom.request?.provider.baseUrl).toBe('http://10.0.0.5:8000/v1');
  });

  it('takes trials per mode from 1 to MAX_TRIALS and says at the field what is wrong otherwise', () => {
    for (const ok of ['1', ' 3 ', String(MAX_TRIALS)])
      expect(checkTrials(ok)).toEqual({ trials: Number(ok), error: null });
    expect(checkTrials(String(MAX_TRIALS + 1)).error).toBe(`At most ${MAX_TRIALS} trials per mode.`);
    expect(checkTrials('0').error).toBe('Must be at least 1.');
    expect(checkTrials('-2').error).toBe('Must be at least 1.');
    expect(checkTrials('2.5').error).toBe('Must be a whole number.');
    expect(checkTrials('3x').error).toBe(`Must be a whole number from 1 to ${MAX_TRIALS}.`);
    expect(checkTrials('').error).toMatch(/^Enter how many times to run each mode/);
    const bad = buildRequest({ ...INITIAL_FORM, trials: String(MAX_TRIALS + 1) });
    expect(bad.request).toBeNull();
    expect(bad.errors).toEqual({ trials: `At most ${MAX_TRIALS} trials per mode.` });
    expect(buildRequest({ ...INITIAL_FORM, trials: '3' }).request?.trials).toBe(3);
  });

  it('names what Run starts: modes, and × trials when more than one', () => {
    expect(runLabel(2, 3)).toBe('Run 2 modes × 3');
    expect(runLabel(2, 1)).toBe('Run 2 modes');
    expect(runLabel(1, 1)).toBe('Run');
    expect(runLabel(1, 4)).toBe('Run 1 mode × 4');
    expect(runLabel(2, null)).toBe('Run 2 modes');
  });

  it('never sends a keyed preset anywhere but its own URL, even from a stale form', () => {
    const { request } = buildRequest({
      ...INITIAL_FORM,
      providerName: 'openai',
      baseUrl: 'https://evil.example/v1',
      model: 'gpt-4.1-mini',
    });
    expect(request?.provider).toEqual({ name: 'openai', baseUrl: null, model: 'gpt-4.1-mini' });
  });

  it('sends a key variable only for the custom provider, and the dialog handle (not the path) as the workspace', () => {
    const custom = buildRequest({
      ...INITIAL_FORM,
      providerName: 'custom',
      baseUrl: 'http://127.0.0.1:8000/v1',
      model: 'm',
      apiKeyEnv: 'MY_KEY',
    });
    expect(custom.request?.provider).toEqual({
      name: 'custom',
      baseUrl: 'http://127.0.0.1:8000/v1',
      model: 'm',
      apiKeyEnv: 'MY_KEY',
    });
    const preset = buildRequest({
      ...INITIAL_FORM,
      providerName: 'vllm',
      baseUrl: '',
      model: 'm',
      apiKeyEnv: 'MY_KEY',
    });
    expect(preset.request?.provider).not.toHaveProperty('apiKeyEnv');
    const picked = buildRequest({ ...INITIAL_FORM, workspaceDir: '/home/me/project', workspaceHandle: 'folder-abc' });
    expect(picked.request?.workspaceDir).toBe('folder-abc');
    const typed = buildRequest({ ...INITIAL_FORM, workspaceDir: ' /srv/allowed/p ' });
    expect(typed.request?.workspaceDir).toBe('/srv/allowed/p');
    expect(buildRequest(INITIAL_FORM).request).not.toHaveProperty('workspaceDir');
  });

  it('saves the form without what the host granted to this session only', () => {
    const form = {
      ...INITIAL_FORM,
      apiKeyEnv: 'MY_KEY',
      workspaceDir: '/home/me/project',
      workspaceHandle: 'folder-abc',
    };
    expect(savedForm(form)).not.toHaveProperty('apiKeyEnv');
    expect(savedForm(form)).not.toHaveProperty('workspaceHandle');
    expect(savedForm(form)).not.toHaveProperty('workspaceDir'); // a picked folder is picked again
    expect(savedForm({ ...INITIAL_FORM, workspaceDir: '/srv/allowed/p' })).toMatchObject({
      workspaceDir: '/srv/allowed/p',
    });
  });

  it('carries the approval policy chosen in Advanced into the request', () => {
    const { request } = buildRequest({
      ...INITIAL_FORM,
      settings: { ...DEFAULT_DRAFT, approvals: { fetch_url: 'ask' } },
    });
    expect(request?.settings).toMatchObject({ approvals: { fetch_url: 'ask' } });
  });
});
