/**
 * The result of the open comparison, on top of every tab once its runs have ended: one line by default (who used
 * the fewest tokens among the runs that passed, by how much), the advice to run more trials when the result
 * cannot settle it, and "Why" for the reasons, what was left out, what a cancel took and how far the evidence
 * goes. The sentences come from shared/result-statement.ts, as in the reports and CLI. Kept short because it
 * stays in place while the tab's content scrolls under it.
 */
import { useState } from 'react';
import { loadIntoComposer } from '../../app/again-actions.js';
import { useApp } from '../../store/app-store.js';
import { comparisonSelectors, resultSelectors } from '../../store/selectors.js';

/** Whether the details were last left open: the choice holds from one comparison to the next. */
let detailsOpen = false;

export function ResultBanner() {
  const s = useApp(resultSelectors.statement);
  const running = useApp(comparisonSelectors.isRunning);
  const [open, setOpenState] = useState(detailsOpen);
  if (!s || running || s.outcome === 'running') return null;
  const setOpen = (v: boolean) => {
    detailsOpen = v;
    setOpenState(v);
  };
  // No result because runs failed wears the colour of failure; no result only because a cancel stopped every run
  // that could have answered is said in neutral words and colour (its notes say what the cancel took).
  const none = s.outcome === 'none';
  const failed = none && s.leftOut.length > 0;
  const count = s.why.length + s.leftOut.length + s.notes.length + (s.among ? 1 : 0) + (s.evidence ? 1 : 0);
  const suggest = s.suggestTrials;
  return (
    <section
      className={`result-banner is-${s.outcome} ${failed ? 'is-failed' : ''} ${open ? 'is-open' : ''}`}
      data-testid="result-banner"
      data-outcome={s.outcome}
      data-winner={s.winner?.key ?? ''}
      aria-label="Result"
    >
      <div className="result-banner-head">
        <p className="result-headline" data-testid="result-headline">
          <span className={`result-tag ${failed ? 'is-fail' : none ? 'is-neutral' : ''}`}>
            {none ? 'No result' : 'Result'}
          </span>{' '}
          {s.headline}
        </p>
        <div className="result-actions">
          {suggest !== null ? (
            <button
              type="button"
              className="btn btn-sm"
              data-testid="offer-trials"
              data-trials={suggest}
              title={`Loads this comparison's task, model, columns and settings into the composer with ${suggest} trials per mode`}
              onClick={() => loadIntoComposer({ trials: suggest })}
            >
              Set up {suggest} trials
            </button>
          ) : null}
          {count > 0 ? (
            <button
              type="button"
              className="link-btn result-toggle"
              aria-expanded={open}
              aria-controls="result-body"
              onClick={() => setOpen(!open)}
              data-testid="result-toggle"
            >
              {open ? 'Less' : 'Why'}
            </button>
          ) : null}
        </div>
      </div>
      {open && count > 0 ? (
        <div className="result-body" id="result-body" data-testid="result-body">
          {s.among ? (
            <p className="result-among" data-testid="result-among">
              {s.among}
            </p>
          ) : null}
          {s.why.length ? (
            <ul className="result-why" data-testid="result-why">
              {s.why.map((w) => (
                <li key={w}>{w}</li>
              ))}
            </ul>
          ) : null}
          {s.leftOut.length ? (
            <ul className="result-left-out" data-testid="result-left-out">
              {s.leftOut.map((w) => (
                <li key={w}>{w}</li>
              ))}
            </ul>
          ) : null}
          {s.notes.length ? (
            <ul className="result-notes" data-testid="result-notes">
              {s.notes.map((w) => (
                <li key={w}>{w}</li>
              ))}
            </ul>
          ) : null}
          {s.evidence ? (
            <p className="result-evidence" data-testid="result-evidence">
              {s.evidence}
            </p>
          ) : null}
        </div>
      ) : null}
    </section>
  );
}
