/** The left panel's "New comparison" form: task, model, modes, advanced settings, and Run / Cancel. */
import { useEffect, useRef } from 'react';
import type { FormErrors } from '../../store/composer-model.js';
import { cancelComparison, runComparison } from '../../app/actions.js';
import { useApp } from '../../store/app-store.js';
import { buildRequest, checkTrials, runLabel } from '../../store/composer-model.js';
import { comparisonSelectors, composerSelectors } from '../../store/selectors.js';
import { IconAlert, IconPlay, IconSpinner, IconStop } from '../common/icons.js';
import { Kbd } from '../common/kbd.js';
import { AdvancedSettings } from './advanced-settings.js';
import { VariantsEditor } from './variants-editor.js';
import { ProviderSection } from './provider-section.js';
import { TaskPicker } from './task-picker.js';
import { startErrorField } from '../../../shared/start-errors.js';

/** The composer's sections, in the words of the error line under Run. */
const FIELD_NAMES: Record<keyof FormErrors, string> = {
  task: 'the task',
  modes: 'the modes',
  trials: 'the trials',
  model: 'the model',
  baseUrl: 'the base URL',
  settings: 'Advanced settings',
  variants: 'the variants',
  mcp: 'the MCP servers',
  concurrency: 'rounds at once',
};

/** Scrolls the composer to its first field in error and puts the focus in it, so a fix starts where the eye lands. */
function revealFirstError(root: HTMLElement | null): void {
  const first = root?.querySelector<HTMLElement>(
    '.panel-scroll [aria-invalid="true"], .panel-scroll .field-error, .panel-scroll .has-error',
  );
  if (!first) return;
  first.scrollIntoView({ block: 'center' });
  const input = first.matches('input, select, textarea')
    ? first
    : first
        .closest('.field, .variant-row, fieldset, section')
        ?.querySelector<HTMLElement>('[aria-invalid="true"], input, select, textarea');
  input?.focus({ preventScroll: true });
}

export function ComposerPanel() {
  const form = useApp(composerSelectors.form);
  const showErrors = useApp(composerSelectors.showErrors);
  const starting = useApp(comparisonSelectors.starting);
  const startError = useApp(comparisonSelectors.startError);
  const running = useApp(comparisonSelectors.isRunning);
  const focusRequest = useApp(composerSelectors.focusRequest);
  const errorReveal = useApp((s) => s.errorReveal);
  const loadedFrom = useApp((s) => s.loadedFrom);
  const setLoadedFrom = useApp((s) => s.setLoadedFrom);
  const rootRef = useRef<HTMLFormElement>(null);
  const { errors } = buildRequest(form);
  const shown = showErrors ? errors : { modes: errors.modes };
  // A start error that names a field (an unreachable base URL, a refused key) points at it.
  const startField = startError ? startErrorField(startError) : null;
  const trials = checkTrials(form.trials).trials;
  // Variants replace the modes as the columns: each row is one run per trial.
  const columns = form.variants?.length || form.modes.length;
  const what = form.variants?.length ? 'variant' : 'mode';
  const runs = columns * (trials ?? 1);

  useEffect(() => {
    if (focusRequest > 0) rootRef.current?.querySelector<HTMLInputElement>('input[name="task"]:checked')?.focus();
  }, [focusRequest]);
  // Run pressed with errors: show the first one, wherever the panel was scrolled.
  useEffect(() => {
    if (errorReveal > 0) revealFirstError(rootRef.current);
  }, [errorReveal]);
  const wrong = (Object.keys(errors) as (keyof FormErrors)[]).map((k) => FIELD_NAMES[k]);

  return (
    <form
      className="composer"
      ref={rootRef}
      onSubmit={(e) => {
        e.preventDefault();
        void runComparison();
      }}
      aria-label="New comparison"
      data-testid="composer"
    >
      <div className="panel-scroll">
        <TaskPicker error={shown.task} />
        <ProviderSection errors={shown} startField={startField} />
        <VariantsEditor modesError={shown.modes} />
        <AdvancedSettings />
      </div>
      <footer className="composer-footer">
        {startError ? (
          <p className="start-error" role="alert" data-testid="start-error">
            <IconAlert size={14} />
            <span>
              <strong>Could not start.</strong> {startError}
            </span>
          </p>
        ) : null}
        {loadedFrom ? (
          <div className="loaded-from" role="status" data-testid="loaded-from">
            <p>
              Loaded from the comparison of {loadedFrom.when}.{' '}
              <button
                type="button"
                className="link-btn"
                onClick={() => setLoadedFrom(null)}
                aria-label="Dismiss this note"
              >
                Dismiss
              </button>
            </p>
            {loadedFrom.notes.map((n) => (
              <p key={n} className="field-hint">
                {n}
              </p>
            ))}
          </div>
        ) : null}
        {showErrors && wrong.length > 0 ? (
          <p className="field-error" data-testid="composer-errors">
            Fix {wrong.length === 1 ? wrong[0] : `${wrong.slice(0, -1).join(', ')} and ${wrong[wrong.length - 1]}`} to
            run.{' '}
            <button
              type="button"
              className="link-btn"
              onClick={() => revealFirstError(rootRef.current)}
              data-testid="reveal-error"
            >
              Show
            </button>
          </p>
        ) : null}
        {running ? (
          <button
            type="button"
            className="btn btn-danger btn-block"
            onClick={() => void cancelComparison()}
            data-testid="cancel-comparison"
          >
            <IconStop size={13} /> Cancel comparison <Kbd keys={['Esc']} />
          </button>
        ) : (
          <button
            type="submit"
            className="btn btn-primary btn-block"
            disabled={starting || columns === 0}
            title={
              trials !== null && trials > 1
                ? `${runs} runs: ${trials} rounds of ${columns} ${what}${columns === 1 ? '' : 's'}`
                : undefined
            }
            data-testid="run"
          >
            {starting ? <IconSpinner size={14} /> : <IconPlay size={13} />}
            {starting ? 'Starting…' : runLabel(columns, trials, what)}
            <Kbd keys={['Mod', '↵']} />
          </button>
        )}
      </footer>
    </form>
  );
}
