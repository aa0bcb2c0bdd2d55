/**
 * The key goes to the host (keys:set) and is never read back: afterwards the field only says "key stored"
 * (keys:status), and the input is cleared. Every key is bound to one base URL: a preset's to its own, the
 * custom provider's to the URL it was stored for, and the field says so. The custom provider can instead read
 * its key from an environment variable the user names here (keys:use-env), bound to the URL in the form.
 */
import { useState } from 'react';
import { findPreset } from '../../../shared/providers.js';
// An action, not a hook: named after the keys:use-env channel.
import { saveKey, useKeyEnv as chooseKeyEnv } from '../../app/actions.js';
import { useApp } from '../../store/app-store.js';
import { effectiveBaseUrl } from '../../store/composer-model.js';
import { composerSelectors } from '../../store/selectors.js';
import { IconAlert, IconCheck, IconKey } from '../common/icons.js';
import { StartFieldNote } from './start-field-note.js';

const sameUrl = (a: string | null, b: string | null): boolean =>
  !!a && !!b && a.trim().replace(/\/+$/, '') === b.trim().replace(/\/+$/, '');

/** Custom provider only: "read the key from $NAME" instead of storing it. */
function KeyEnvField() {
  const form = useApp(composerSelectors.form);
  const setForm = useApp((s) => s.setForm);
  const [name, setName] = useState('');
  const [busy, setBusy] = useState(false);
  if (form.apiKeyEnv) {
    return (
      <div className="key-stored" data-testid="key-env-used">
        <IconCheck size={14} />
        <span>
          Key read from <code>{form.apiKeyEnv}</code>
        </span>
        <button type="button" className="link-btn" onClick={() => setForm({ apiKeyEnv: '' })}>
          Stop using
        </button>
      </div>
    );
  }
  const use = async () => {
    if (!name.trim()) return;
    setBusy(true);
    const ok = await chooseKeyEnv(name.trim());
    setBusy(false);
    if (ok) setName('');
  };
  return (
    <div className="input-row key-env-row">
      <input
        className="input mono"
        placeholder="or a variable, e.g. MY_SERVER_API_KEY"
        aria-label="Environment variable that holds the key"
        spellCheck={false}
        autoComplete="off"
        value={name}
        onChange={(e) => setName(e.target.value)}
        onKeyDown={(e) => {
          if (e.key === 'Enter') {
            e.preventDefault();
            void use();
          }
        }}
        data-testid="key-env-input"
      />
      <button
        type="button"
        className="btn"
        disabled={!name.trim() || busy}
        onClick={() => void use()}
        data-testid="key-env-use"
      >
        Use
      </button>
    </div>
  );
}

/** `highlight`: the check before starting refused the key (a start error names this field). */
export function ApiKeyField({ highlight = false }: { highlight?: boolean }) {
  const form = useApp(composerSelectors.form);
  const providerName = form.providerName;
  const status = useApp(composerSelectors.keyStatus)[providerName];
  const preset = findPreset(providerName);
  const [value, setValue] = useState('');
  const [editing, setEditing] = useState(false);
  const [saving, setSaving] = useState(false);
  if (!preset || providerName === 'simulated') return null;
  const custom = providerName === 'custom';
  const url = effectiveBaseUrl(form);
  // A stored custom key bound to another URL is not sent to this one.
  const elsewhere =
    custom && status?.available && status.boundTo && !sameUrl(status.boundTo, url) ? status.boundTo : null;
  const stored = !!status?.available && !elsewhere;

  const save = async () => {
    if (!value.trim()) return;
    setSaving(true);
    const ok = await saveKey(value.trim());
    setSaving(false);
    if (ok) {
      setValue('');
      setEditing(false);
    }
  };

  if (stored && !editing) {
    return (
      <div className="field">
        <span className="label">API key</span>
        <div
          className={`key-stored ${highlight ? 'is-invalid' : ''}`}
          data-testid="key-stored"
          data-start-field="apiKey"
          aria-invalid={highlight || undefined}
        >
          <IconCheck size={14} />
          <span>
            Key stored{status?.boundTo ? <span className="muted"> · sent only to {status.boundTo}</span> : null}
          </span>
          <button type="button" className="link-btn" onClick={() => setEditing(true)}>
            Replace
          </button>
        </div>
        {highlight ? <StartFieldNote /> : null}
        {custom ? <KeyEnvField /> : null}
      </div>
    );
  }
  return (
    <div className="field">
      <label className="label" htmlFor="api-key">
        API key {preset.needsKey ? null : <span className="label-hint">(optional)</span>}
      </label>
      {elsewhere ? (
        <p className="field-hint is-warn" data-testid="key-elsewhere">
          <IconAlert size={12} /> The stored key is for {elsewhere}; it is not sent to this URL. Paste this server’s key
          to replace it.
        </p>
      ) : null}
      <div className="input-row">
        <span className="input-icon">
          <IconKey size={14} />
        </span>
        <input
          id="api-key"
          className={`input with-icon ${highlight ? 'is-invalid' : ''}`}
          aria-invalid={highlight || undefined}
          type="password"
          autoComplete="off"
          spellCheck={false}
          placeholder={preset.keyEnv ? `Paste your key (or set ${preset.keyEnv})` : 'Paste your key'}
          value={value}
          onChange={(e) => setValue(e.target.value)}
          onKeyDown={(e) => {
            if (e.key === 'Enter' && !e.ctrlKey && !e.metaKey) {
              e.preventDefault();
              void save();
            }
          }}
          data-testid="api-key-input"
        />
        <button
          type="button"
          className="btn"
          disabled={!value.trim() || saving || (custom && !url)}
          onClick={() => void save()}
        >
          {saving ? 'Saving…' : 'Save key'}
        </button>
      </div>
      {highlight ? <StartFieldNote /> : null}
      {custom ? <KeyEnvField /> : null}
      <p className="field-hint">
        {custom
          ? 'Stored by the host for this base URL only, never shown again.'
          : `Stored by the host and sent only to ${preset.baseUrl}, never shown again.`}
      </p>
    </div>
  );
}
