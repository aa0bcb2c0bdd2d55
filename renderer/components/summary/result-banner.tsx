/**
 * The result of the open comparison, on top of every tab once its runs have ended: who used the fewest tokens
 * among the runs that passed, by how much, why, what was left out, and how far the evidence goes (one run, or
 * the trials' interval and test). The sentences come from shared/result-statement.ts, as in the reports and CLI.
 */
import { useState } from 'react';
import { SUGGESTED_TRIALS } from '../../../shared/result-statement.js';
import { useApp } from '../../store/app-store.js';
import { comparisonSelectors, resultSelectors } from '../../store/selectors.js';

export function ResultBanner() {
  const s = useApp(resultSelectors.statement);
  const running = useApp(comparisonSelectors.isRunning);
  const setForm = useApp((st) => st.setForm);
  const focusComposer = useApp((st) => st.requestComposerFocus);
  const [open, setOpen] = useState(true);
  if (!s || running || s.outcome === 'running') return null;
  const failed = s.outcome === 'none';
  const details = s.why.length + s.leftOut.length + (s.among ? 1 : 0) + (s.evidence ? 1 : 0) > 0;
  return (
    <section className={`result-banner is-${s.outcome}`} data-testid="result-banner" data-outcome={s.outcome} data-winner={s.winner?.key ?? ''} aria-label="Result">
      <div className="result-banner-head">
        <p className="result-headline" data-testid="result-headline">
          <span className={`result-tag ${failed ? 'is-fail' : ''}`}>{failed ? 'No result' : 'Result'}</span> {s.headline}
        </p>
        {details ? (
          <button type="button" className="link-btn result-toggle" aria-expanded={open} onClick={() => setOpen(!open)} data-testid="result-toggle">
            {open ? 'Less' : 'Why'}
          </button>
        ) : null}
      </div>
      {open && details ? (
        <div className="result-body">
          {s.among ? <p className="result-among" data-testid="result-among">{s.among}</p> : null}
          {s.why.length ? (
            <ul className="result-why" data-testid="result-why">
              {s.why.map((w) => <li key={w}>{w}</li>)}
            </ul>
          ) : null}
          {s.leftOut.length ? (
            <ul className="result-left-out" data-testid="result-left-out">
              {s.leftOut.map((w) => <li key={w}>{w}</li>)}
            </ul>
          ) : null}
          {s.evidence ? (
            <p className="result-evidence" data-testid="result-evidence">
              {s.evidence}{' '}
              {s.offerTrials ? (
                <button type="button" className="link-btn" data-testid="offer-trials" onClick={() => { setForm({ trials: String(SUGGESTED_TRIALS) }); focusComposer(); }}>
                  Set {SUGGESTED_TRIALS} trials in the composer
                </button>
              ) : null}
            </p>
          ) : null}
        </div>
      ) : null}
    </section>
  );
}
