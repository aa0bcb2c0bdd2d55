/** The agent modes to compare (at least one), and how many times to run each. */
import { MODE_IDS, MODE_LABELS, type ModeId } from '../../../shared/run-spec.js';
import { useApp } from '../../store/app-store.js';
import { composerSelectors } from '../../store/selectors.js';
import { TrialsField } from './trials-field.js';

/** What each mode offers the model, in one line. */
const MODE_ABOUT: Readonly<Record<ModeId, string>> = {
  react: 'Native tool calling: every tool schema on every request.',
  code: 'One run_code tool: the model writes a program that calls the tools.',
  hybrid: 'list_dir and read_file as direct tools, plus run_code for batch work.',
  'react-search': 'Four file tools and search_tools; the tools it finds join later requests.',
};

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
              <span className="check-label">{MODE_LABELS[m]}</span>
              <span className="check-hint">{MODE_ABOUT[m]}</span>
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
    </fieldset>
  );
}
