/**
 * The key goes to the host (keys:set) and is never read back: afterwards the field only says "key stored"
 * (keys:status), and the input is cleared.
 */
import { useState } from 'react';
import { findPreset } from '../../../shared/providers.js';
import { saveKey } from '../../app/actions.js';
import { useApp } from '../../store/app-store.js';
import { composerSelectors } from '../../store/selectors.js';
import { IconCheck, IconKey } from '../common/icons.js';

export function ApiKeyField() {
  const providerName = useApp((s) => s.form.providerName);
  const stored = useApp(composerSelectors.keyStatus)[providerName] ?? false;
  const preset = findPreset(providerName);
  const [value, setValue] = useState('');
  const [editing, setEditing] = useState(false);
  const [saving, setSaving] = useState(false);
  if (!preset || providerName === 'simulated') return null;

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
        <div className="key-stored" data-testid="key-stored">
          <IconCheck size={14} />
          <span>Key stored</span>
          <button type="button" className="link-btn" onClick={() => setEditing(true)}>
            Replace
          </button>
        </div>
      </div>
    );
  }
  return (
    <div className="field">
      <label className="label" htmlFor="api-key">
        API key {preset.needsKey ? null : <span className="label-hint">(optional)</span>}
      </label>
      <div className="input-row">
        <span className="input-icon">
          <IconKey size={14} />
        </span>
        <input
          id="api-key"
          className="input with-icon"
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
        <button type="button" className="btn" disabled={!value.trim() || saving} onClick={() => void save()}>
          {saving ? 'Saving…' : 'Save key'}
        </button>
      </div>
      <p className="field-hint">Stored by the host for this provider, never shown again.</p>
    </div>
  );
}
