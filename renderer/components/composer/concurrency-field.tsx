/**
 * Rounds at once, beside trials (shown when there are several rounds): empty takes the host's default (the
 * simulated model one per two cores, a real provider 1). Rounds side by side share the cores, which changes
 * latency figures (never tokens): the comparison records it and the reports say so.
 */
import { checkConcurrency, concurrencyCap } from '../../../shared/concurrency.js';
import { useApp } from '../../store/app-store.js';
import { checkTrials } from '../../store/composer-model.js';
import { composerSelectors } from '../../store/selectors.js';

export function ConcurrencyField() {
  const form = useApp(composerSelectors.form);
  const setForm = useApp((s) => s.setForm);
  const trials = checkTrials(form.trials).trials;
  if (trials === null || trials <= 1) return null;
  const text = form.concurrency ?? '';
  const error = text.trim() ? checkConcurrency(text, form.providerName).error : null;
  const simulated = form.providerName === 'simulated';
  return (
    <div className="field concurrency-field">
      <div className="concurrency-row">
        <label className="label" htmlFor="concurrency-input">
          Rounds at once
        </label>
        <input
          id="concurrency-input"
          className={`input num concurrency-input ${error ? 'is-invalid' : ''}`}
          inputMode="numeric"
          value={text}
          placeholder={simulated ? 'auto' : '1'}
          onChange={(e) => setForm({ concurrency: e.target.value })}
          aria-invalid={!!error}
          aria-describedby="concurrency-msg"
          data-testid="concurrency-input"
        />
      </div>
      <p
        id="concurrency-msg"
        className={error ? 'field-error' : 'field-hint'}
        data-testid={error ? 'concurrency-error' : undefined}
      >
        {error ??
          `Each round still starts its modes together. Rounds side by side share the cores: latency changes, tokens do not. At most ${concurrencyCap(form.providerName)}${simulated ? '; empty: one per two cores' : '; a 429 lowers it'}.`}
      </p>
    </div>
  );
}
