/** Trials per mode: one run is noise, so each mode can run up to MAX_TRIALS times, in rounds. */
import type { KeyboardEvent } from 'react';
import { MAX_TRIALS } from '../../../shared/run-spec.js';
import { useApp } from '../../store/app-store.js';
import { checkTrials } from '../../store/composer-model.js';
import { composerSelectors } from '../../store/selectors.js';

export function TrialsField() {
  const form = useApp(composerSelectors.form);
  const setForm = useApp((s) => s.setForm);
  const check = checkTrials(form.trials);
  const n = check.trials;
  // With variants, each row is a column: trials count per variant, not per mode.
  const what = form.variants?.length ? 'variant' : 'mode';
  const modes = form.variants?.length || form.modes.length;
  const step = (by: number) => setForm({ trials: String(Math.min(MAX_TRIALS, Math.max(1, (n ?? 1) + by))) });
  const onKey = (e: KeyboardEvent) => {
    if (e.key !== 'ArrowUp' && e.key !== 'ArrowDown') return;
    e.preventDefault();
    step(e.key === 'ArrowUp' ? 1 : -1);
  };
  const hint =
    n === null || n === 1
      ? `One run per ${what}. Run each ${what} up to ${MAX_TRIALS} times to see averages and spread.`
      : `${n * Math.max(1, modes)} runs in ${n} rounds: each round runs every ${what} once, together.`;
  return (
    <div className="field trials-field">
      <label className="label" htmlFor="trials-input">
        Trials per {what}
      </label>
      <div className="stepper">
        <button
          type="button"
          className="stepper-btn"
          onClick={() => step(-1)}
          disabled={n !== null && n <= 1}
          aria-label="Fewer trials"
          tabIndex={-1}
          data-testid="trials-dec"
        >
          −
        </button>
        <input
          id="trials-input"
          className={`input num stepper-input ${check.error ? 'is-invalid' : ''}`}
          inputMode="numeric"
          value={form.trials}
          onChange={(e) => setForm({ trials: e.target.value })}
          onKeyDown={onKey}
          aria-invalid={!!check.error}
          aria-describedby="trials-msg"
          data-testid="trials-input"
        />
        <button
          type="button"
          className="stepper-btn"
          onClick={() => step(1)}
          disabled={n !== null && n >= MAX_TRIALS}
          aria-label="More trials"
          tabIndex={-1}
          data-testid="trials-inc"
        >
          +
        </button>
      </div>
      <p
        id="trials-msg"
        className={check.error ? 'field-error' : 'field-hint'}
        role={check.error ? 'alert' : undefined}
        data-testid={check.error ? 'trials-error' : 'trials-hint'}
      >
        {check.error ?? hint}
      </p>
    </div>
  );
}
