/** RunSettings beyond the defaults, validated as typed against the host's own schema; errors at the field. */
import { useState } from 'react';
import { protocolOfInfo } from '../../../shared/providers.js';
import { PROMPT_CACHE_HELP, PROMPT_CACHES, SIM_FAULTS, type PromptCacheSetting } from '../../../shared/run-spec.js';
import { TOOLSET_IDS, TOOLSETS, type ToolsetId } from '../../../shared/toolsets.js';
import {
  SEARCH_BACKEND_IDS,
  SEARCH_BACKENDS,
  searchKeyName,
  type SearchBackendId,
} from '../../../shared/search-backends.js';
import { saveSearchKey } from '../../app/actions.js';
import { useApp } from '../../store/app-store.js';
import {
  DEFAULT_DRAFT,
  NUMERIC_SETTINGS,
  SETTING_INFO,
  SIM_FAULT_LABELS,
  checkSettings,
  type NumericSetting,
} from '../../store/composer-model.js';
import { composerSelectors } from '../../store/selectors.js';
import { IconCheck, IconChevron } from '../common/icons.js';
import { ApprovalSettings } from './approval-settings.js';
import { KnobSettings, knobsChanged } from './knob-settings.js';
import { McpServersField } from './mcp-servers-field.js';
import { checkMcpField } from '../../store/mcp-field.js';

const CODE_ONLY: readonly NumericSetting[] = ['codeTimeoutMs', 'codeMemoryMb', 'codeOutputChars', 'codeMaxToolCalls'];

export function AdvancedSettings() {
  const draft = useApp(composerSelectors.settings);
  const providerName = useApp((s) => s.form.providerName);
  const setSetting = useApp((s) => s.setSetting);
  const setForm = useApp((s) => s.setForm);
  const simulated = providerName === 'simulated';
  const customProtocol = useApp((s) => s.form.protocol);
  const anthropic =
    protocolOfInfo({
      name: providerName,
      ...(providerName === 'custom' && customProtocol ? { protocol: customProtocol } : {}),
    }) === 'anthropic';
  const check = checkSettings(draft, simulated);
  const mcpConfig = useApp((s) => s.form.mcpConfig);
  const mcp = checkMcpField(mcpConfig);
  const changed =
    NUMERIC_SETTINGS.filter((k) => draft[k] !== DEFAULT_DRAFT[k]).length +
    (draft.returnTypes !== DEFAULT_DRAFT.returnTypes ? 1 : 0) +
    (draft.streamOptions !== DEFAULT_DRAFT.streamOptions ? 1 : 0) +
    (draft.toolset !== DEFAULT_DRAFT.toolset ? 1 : 0) +
    ((draft.webSearch ?? 'off') !== 'off' ? 1 : 0) +
    (anthropic && draft.promptCache !== DEFAULT_DRAFT.promptCache ? 1 : 0) +
    (simulated ? draft.simFaults.length : 0) +
    Object.keys(draft.approvals ?? {}).length +
    knobsChanged(draft) +
    (mcp.servers.length > 0 ? 1 : 0);
  const hasErrors = Object.keys(check.fieldErrors).length > 0 || !!check.formError || !!mcp.error;
  const [open, setOpen] = useState(hasErrors);
  const isOpen = open || hasErrors;

  const field = (key: NumericSetting) => {
    const info = SETTING_INFO[key];
    const error = check.fieldErrors[key];
    return (
      <div className="field" key={key}>
        <label className="label" htmlFor={`setting-${key}`}>
          {info.label}
          {info.unit ? <span className="label-hint"> ({info.unit})</span> : null}
        </label>
        <input
          id={`setting-${key}`}
          className={`input num ${error ? 'is-invalid' : ''}`}
          inputMode="decimal"
          value={draft[key]}
          placeholder={key === 'temperature' ? 'default' : DEFAULT_DRAFT[key]}
          onChange={(e) => setSetting(key, e.target.value)}
          aria-invalid={!!error}
          aria-describedby={`setting-${key}-msg`}
          data-testid={`setting-${key}`}
        />
        <p
          id={`setting-${key}-msg`}
          className={error ? 'field-error' : 'field-hint'}
          data-testid={error ? `setting-${key}-error` : undefined}
        >
          {error ?? info.hint}
        </p>
      </div>
    );
  };

  return (
    <section className={`advanced ${isOpen ? 'is-open' : ''}`}>
      <button
        type="button"
        className="advanced-toggle"
        aria-expanded={isOpen}
        onClick={() => setOpen(!isOpen)}
        data-testid="advanced-toggle"
      >
        <IconChevron size={14} className="chevron" />
        <span className="group-title">Advanced</span>
        {changed > 0 ? <span className="count-pill">{changed} changed</span> : null}
        {hasErrors ? <span className="count-pill is-err">needs fixing</span> : null}
      </button>
      {isOpen ? (
        <div className="advanced-body">
          <div className="field toolset-field">
            <label className="label" htmlFor="setting-toolset">
              Tools offered
            </label>
            <select
              id="setting-toolset"
              className="input"
              value={draft.toolset}
              onChange={(e) => setSetting('toolset', e.target.value as ToolsetId)}
              data-testid="setting-toolset"
            >
              {TOOLSET_IDS.map((id) => (
                <option key={id} value={id}>
                  {TOOLSETS[id].label}
                </option>
              ))}
            </select>
            <p className="field-hint">{TOOLSETS[draft.toolset].about}</p>
          </div>
          <div className="settings-grid">{NUMERIC_SETTINGS.filter((k) => !CODE_ONLY.includes(k)).map(field)}</div>
          <WebSearchSettings error={check.fieldErrors.webSearchUrl} />
          <McpServersField />
          {/* The Messages API always streams its usage: stream_options is for chat-completions providers. */}
          {simulated || anthropic ? null : (
            <label className="check-row">
              <input
                type="checkbox"
                checked={draft.streamOptions}
                onChange={(e) => setSetting('streamOptions', e.target.checked)}
                data-testid="setting-streamOptions"
              />
              <span>
                <span className="check-label">Ask for usage in the stream (stream_options)</span>
                <span className="check-hint">
                  Dropped by itself if the provider refuses it. Without usage from the provider, token figures are
                  estimated with the tokenizer and marked ≈.
                </span>
              </span>
            </label>
          )}
          {anthropic ? (
            <div className="field toolset-field">
              <label className="label" htmlFor="setting-promptCache">
                Prompt caching
              </label>
              <select
                id="setting-promptCache"
                className="input"
                value={draft.promptCache}
                onChange={(e) => setSetting('promptCache', e.target.value as PromptCacheSetting)}
                data-testid="setting-promptCache"
              >
                {PROMPT_CACHES.map((id) => (
                  <option key={id} value={id}>
                    {id}
                  </option>
                ))}
              </select>
              <p className="field-hint">
                {PROMPT_CACHE_HELP[draft.promptCache].replace(/^./, (c) => c.toUpperCase())}. Cache reads and writes are
                recorded as their own figures and priced at their own rates.
              </p>
            </div>
          ) : null}
          <h4 className="subgroup-title">run_code sandbox (Code Mode, Hybrid)</h4>
          <div className="settings-grid">{CODE_ONLY.map(field)}</div>
          <label className="check-row">
            <input
              type="checkbox"
              checked={draft.returnTypes}
              onChange={(e) => setSetting('returnTypes', e.target.checked)}
            />
            <span>
              <span className="check-label">Return types in tool signatures</span>
              <span className="check-hint">
                In the run_code catalog and in search_tools results. Off reproduces the guess-the-shape failure: the
                model must guess what each tool returns.
              </span>
            </span>
          </label>
          <KnobSettings />
          <ApprovalSettings />
          {simulated ? (
            <>
              <h4 className="subgroup-title">Simulated faults</h4>
              <div className="fault-grid">
                {SIM_FAULTS.map((f) => (
                  <label key={f} className="check-row compact" data-testid={`fault-${f}`}>
                    <input
                      type="checkbox"
                      checked={draft.simFaults.includes(f)}
                      onChange={(e) =>
                        setSetting(
                          'simFaults',
                          e.target.checked ? [...draft.simFaults, f] : draft.simFaults.filter((x) => x !== f),
                        )
                      }
                    />
                    <span className="check-label">{SIM_FAULT_LABELS[f]}</span>
                  </label>
                ))}
              </div>
            </>
          ) : null}
          {check.formError ? <p className="field-error">{check.formError}</p> : null}
          <div className="advanced-footer">
            <button
              type="button"
              className="link-btn"
              disabled={changed === 0}
              onClick={() => setForm({ settings: DEFAULT_DRAFT })}
            >
              Reset to defaults
            </button>
          </div>
        </div>
      ) : null}
    </section>
  );
}

/** A search backend's key: stored by the host (never read back), bound to the backend's own URL. */
function SearchKeyField({ backend }: { readonly backend: SearchBackendId }) {
  const status = useApp(composerSelectors.keyStatus)[searchKeyName(backend)];
  const [value, setValue] = useState('');
  const [editing, setEditing] = useState(false);
  const info = SEARCH_BACKENDS[backend];
  const save = async () => {
    if (!value.trim()) return;
    if (await saveSearchKey(backend, value.trim())) {
      setValue('');
      setEditing(false);
    }
  };
  if (status?.available && !editing) {
    return (
      <div className="field">
        <span className="label">Search key</span>
        <div className="key-stored" data-testid="search-key-stored">
          <IconCheck size={14} />
          <span>
            Key available<span className="muted"> · sent only to {status.boundTo}</span>
          </span>
          <button type="button" className="link-btn" onClick={() => setEditing(true)}>
            Replace
          </button>
        </div>
      </div>
    );
  }
  return (
    <div className="field">
      <label className="label" htmlFor="search-key">
        Search key
      </label>
      <div className="input-row">
        <input
          id="search-key"
          className="input"
          type="password"
          autoComplete="off"
          spellCheck={false}
          placeholder={`Paste your key (or set ${info.keyEnv})`}
          value={value}
          onChange={(e) => setValue(e.target.value)}
          onKeyDown={(e) => {
            if (e.key === 'Enter') {
              e.preventDefault();
              void save();
            }
          }}
          data-testid="search-key-input"
        />
        <button
          type="button"
          className="btn"
          disabled={!value.trim()}
          onClick={() => void save()}
          data-testid="search-key-save"
        >
          Save
        </button>
      </div>
      <p className="field-hint">Stored in the system keychain (desktop) and sent only to {info.defaultUrl}.</p>
    </div>
  );
}

/** The web_search backend: which service, and its URL when not the default. Keys: SearchKeyField. */
function WebSearchSettings({ error }: { readonly error: string | undefined }) {
  const draft = useApp(composerSelectors.settings);
  const setSetting = useApp((s) => s.setSetting);
  const backend = draft.webSearch ?? 'off';
  const info = SEARCH_BACKENDS[backend];
  const hasUrl = backend === 'searxng' || backend === 'brave' || backend === 'tavily';
  return (
    <div className="settings-grid">
      <div className="field">
        <label className="label" htmlFor="setting-webSearch">
          Web search
        </label>
        <select
          id="setting-webSearch"
          className="input"
          value={backend}
          onChange={(e) => setSetting('webSearch', e.target.value as SearchBackendId)}
          data-testid="setting-webSearch"
        >
          {SEARCH_BACKEND_IDS.map((id) => (
            <option key={id} value={id}>
              {SEARCH_BACKENDS[id].label}
            </option>
          ))}
        </select>
        <p className="field-hint">{info.about}</p>
      </div>
      {info.keyEnv ? <SearchKeyField backend={backend} /> : null}
      {hasUrl ? (
        <div className="field">
          <label className="label" htmlFor="setting-webSearchUrl">
            Search URL
          </label>
          <input
            id="setting-webSearchUrl"
            className={`input ${error ? 'is-invalid' : ''}`}
            value={draft.webSearchUrl ?? ''}
            placeholder={info.defaultUrl ?? ''}
            onChange={(e) => setSetting('webSearchUrl', e.target.value)}
            aria-invalid={!!error}
            data-testid="setting-webSearchUrl"
          />
          <p
            className={error ? 'field-error' : 'field-hint'}
            data-testid={error ? 'setting-webSearchUrl-error' : undefined}
          >
            {error ?? 'Empty: the default shown.'}
          </p>
        </div>
      ) : null}
    </div>
  );
}
