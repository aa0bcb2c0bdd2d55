/** Provider preset, base URL, model (from provider:models when the provider lists them), key and a connection test. */
import { isSimModel, SIM_MODEL_IDS, SIM_MODELS, type SimModelId } from '../../../shared/sim-models.js';
import { useEffect } from 'react';
import type { StartField } from '../../../shared/start-errors.js';
import type { ConnectionResult } from '../../../shared/ipc-contract.js';
import { PROVIDER_PRESETS, findPreset } from '../../../shared/providers.js';
import { loadModels, testConnection } from '../../app/actions.js';
import { useApp } from '../../store/app-store.js';
import { composerSelectors } from '../../store/selectors.js';
import { SimBadge } from '../common/badges.js';
import { IconAlert, IconCheck, IconPlug, IconRefresh, IconSpinner } from '../common/icons.js';
import { ApiKeyField } from './api-key-field.js';
import { StartFieldNote } from './start-field-note.js';
import { ModelPrice } from '../prices/model-price.js';

const REASON_TEXT: Record<Extract<ConnectionResult, { ok: false }>['reason'], string> = {
  unreachable: 'Server unreachable',
  'bad-key': 'Key rejected',
  'unknown-model': 'Unknown model',
  'bad-url': 'Bad base URL',
  error: 'Connection failed',
};

function TestResult() {
  const test = useApp(composerSelectors.connectionTest);
  if (test.status === 'idle') return null;
  if (test.status === 'testing')
    return (
      <p className="test-result" role="status">
        <IconSpinner size={13} /> Testing…
      </p>
    );
  const r = test.result!;
  return r.ok ? (
    <p className="test-result is-ok" role="status" data-testid="test-result" data-ok="true">
      <IconCheck size={13} />{' '}
      <span>
        <strong>Connected.</strong> {r.detail}
      </span>
    </p>
  ) : (
    <p className="test-result is-err" role="alert" data-testid="test-result" data-ok="false" data-reason={r.reason}>
      <IconAlert size={13} />{' '}
      <span>
        <strong>{REASON_TEXT[r.reason]}.</strong> {r.detail}
      </span>
    </p>
  );
}

const FIELD_IDS: Record<StartField, string> = { baseUrl: 'base-url', apiKey: 'api-key', model: 'model' };

export function ProviderSection({
  errors,
  startField = null,
}: {
  errors: { model?: string; baseUrl?: string };
  startField?: StartField | null;
}) {
  const form = useApp(composerSelectors.form);
  const modelList = useApp(composerSelectors.modelList);
  const chooseProvider = useApp((s) => s.chooseProvider);
  const setForm = useApp((s) => s.setForm);
  const preset = findPreset(form.providerName);
  const simulated = form.providerName === 'simulated';
  // A preset that needs a key keeps its own URL: the host sends that key nowhere else.
  const keyBound = !!preset?.needsKey && !!preset.baseUrl;
  const custom = form.providerName === 'custom';
  const envTag = `${custom && form.apiKeyEnv ? `|$${form.apiKeyEnv}` : ''}${custom && form.protocol === 'anthropic' ? '|anthropic' : ''}`;
  const listKey = `${form.providerName}|${simulated ? '' : form.baseUrl.trim() || preset?.baseUrl || ''}${envTag}`;
  const models = modelList.key === listKey ? modelList.models : [];

  // Take the user to the field a start error names (or its section, when the field is not an input now).
  useEffect(() => {
    if (!startField) return;
    const el =
      document.getElementById(FIELD_IDS[startField]) ??
      document.querySelector<HTMLElement>(`[data-start-field="${startField}"]`);
    el?.scrollIntoView({ block: 'center' });
    if (el instanceof HTMLInputElement && !el.readOnly) el.focus();
  }, [startField]);

  // Reload the model list when the provider or its URL changes (debounced for typing in the URL field).
  useEffect(() => {
    const t = setTimeout(() => void loadModels(), 400);
    return () => clearTimeout(t);
  }, [listKey]);

  return (
    <fieldset className="field-group">
      <legend className="group-title">Model {simulated ? <SimBadge /> : null}</legend>
      <div className="field">
        <label className="label" htmlFor="provider">
          Provider
        </label>
        <select
          id="provider"
          className="input select"
          value={form.providerName}
          onChange={(e) => chooseProvider(e.target.value)}
          data-testid="provider-select"
        >
          {PROVIDER_PRESETS.map((p) => (
            <option key={p.name} value={p.name}>
              {p.label}
            </option>
          ))}
        </select>
        {simulated ? (
          <p className="field-hint">
            Scripted replies, real token counts. Every figure it produces is labelled simulated.
          </p>
        ) : null}
      </div>
      {simulated ? null : (
        <div className="field">
          <label className="label" htmlFor="base-url">
            Base URL
          </label>
          <input
            id="base-url"
            className={`input mono ${errors.baseUrl || startField === 'baseUrl' ? 'is-invalid' : ''}`}
            value={keyBound ? (preset.baseUrl ?? '') : form.baseUrl}
            placeholder={preset?.baseUrl ?? 'http://127.0.0.1:8000/v1'}
            onChange={(e) => setForm({ baseUrl: e.target.value })}
            readOnly={keyBound}
            spellCheck={false}
            aria-invalid={!!errors.baseUrl || startField === 'baseUrl'}
            data-testid="base-url"
          />
          {startField === 'baseUrl' ? <StartFieldNote /> : null}
          {keyBound ? (
            <p className="field-hint">
              {preset.label} keys are only sent here. For another server, choose Custom base URL
              {preset.protocol === 'anthropic' ? ' and the Anthropic Messages protocol' : ''}.
            </p>
          ) : null}
          {errors.baseUrl ? <p className="field-error">{errors.baseUrl}</p> : null}
        </div>
      )}
      {custom ? (
        <div className="field">
          <label className="label" htmlFor="protocol">
            Protocol
          </label>
          <select
            id="protocol"
            className="input select"
            value={form.protocol ?? 'openai'}
            onChange={(e) => setForm({ protocol: e.target.value === 'anthropic' ? 'anthropic' : 'openai' })}
            data-testid="protocol-select"
          >
            <option value="openai">OpenAI chat completions</option>
            <option value="anthropic">Anthropic Messages (a gateway for Claude)</option>
          </select>
          <p className="field-hint">
            What the server at this URL speaks. Its key goes only to this URL, whichever protocol.
          </p>
        </div>
      ) : null}
      <div className="field">
        <label className="label" htmlFor="model">
          Model
        </label>
        <div className="input-row">
          <input
            id="model"
            className={`input mono ${errors.model || startField === 'model' ? 'is-invalid' : ''}`}
            value={form.model}
            list="model-options"
            onChange={(e) => setForm({ model: e.target.value })}
            spellCheck={false}
            aria-invalid={!!errors.model || startField === 'model'}
            data-testid="model-input"
          />
          <datalist id="model-options">
            {models.map((m) => (
              <option key={m} value={m} />
            ))}
          </datalist>
          <button
            type="button"
            className="icon-btn bordered"
            title="Reload the model list"
            aria-label="Reload the model list"
            onClick={() => void loadModels()}
          >
            {modelList.status === 'loading' && modelList.key === listKey ? (
              <IconSpinner size={14} />
            ) : (
              <IconRefresh size={14} />
            )}
          </button>
        </div>
        {errors.model ? <p className="field-error">{errors.model}</p> : null}
        {simulated && !errors.model ? (
          <p className="field-hint" data-testid="sim-model-hint">
            {isSimModel(form.model.trim())
              ? SIM_MODELS[form.model.trim() as SimModelId].about.replace(/^./, (c) => c.toUpperCase()) + '.'
              : `Names: ${SIM_MODEL_IDS.join(', ')}; any other name behaves as sim.`}
          </p>
        ) : null}
        {startField === 'model' ? <StartFieldNote /> : null}
        {modelList.key === listKey && modelList.status === 'ready' ? (
          <p className="field-hint">
            {models.length === 1 ? '1 model available' : `${models.length} models available`}
          </p>
        ) : modelList.key === listKey && modelList.status === 'error' ? (
          <p className="field-hint is-warn">Could not list models: {modelList.detail}</p>
        ) : null}
        <ModelPrice />
      </div>
      <ApiKeyField highlight={startField === 'apiKey'} />
      <div className="field">
        <button type="button" className="btn" onClick={() => void testConnection()} data-testid="test-connection">
          <IconPlug size={14} /> Test connection
        </button>
        <TestResult />
      </div>
    </fieldset>
  );
}
