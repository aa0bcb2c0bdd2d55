/** The agent modes to compare (at least one), and how many times to run each. */
import { MODE_IDS, MODES } from '../../../shared/modes.js';
import { useApp } from '../../store/app-store.js';
import { composerSelectors } from '../../store/selectors.js';
import { TrialsField } from './trials-field.js';
import { ConcurrencyField } from './concurrency-field.js';

export function ModePicker({ error }: { error?: string }) {
  const form = useApp(composerSelectors.form);
  const toggle = useApp((s) => s.toggleMode);
  return (
    <fieldset className="field-group">
      <legend className="group-title">Modes</legend>
      <div className="mode-list">
        {MODE_IDS.map((m) => (
          <label key={m} className="check-row" data-testid={`mode-${m}`}>
            <input type="checkbox" checked={form.modes.includes(m)} onChange={(e) => toggle(m, e.target.checked)} />
            <span className={`mode-swatch mode-${m}`} aria-hidden="true" />
            <span>
              <span className="check-label">{MODES[m].label}</span>
              <span className="check-hint">{MODES[m].about}</span>
            </span>
          </label>
        ))}
      </div>
      {error ? (
        <p className="field-error" role="alert">
          {error}
        </p>
      ) : null}
      <TrialsField />
      <ConcurrencyField />
    </fieldset>
  );
}
