/** "All" trials: one row per trial, each mode's outcome side by side — how much one run differs from the next. */
import { MODE_LABELS, type ModeId } from '../../../shared/run-spec.js';
import type { RunSummary } from '../../../shared/summary.js';
import { fmtInt, fmtMs } from '../../lib/format.js';
import type { DisplayStatus } from '../../store/trial-model.js';
import { SimBadge, StatusBadge, ValidationBadge } from '../common/badges.js';

export interface TrialRun {
  readonly trial: number;
  readonly summary: RunSummary;
  readonly status: DisplayStatus;
}

export function TrialsTable({ runs, simulated }: { runs: readonly TrialRun[]; simulated: boolean }) {
  const modes = [...new Set(runs.map((r) => r.summary.mode))] as ModeId[];
  const trials = [...new Set(runs.map((r) => r.trial))].sort((a, b) => a - b);
  const at = new Map(runs.map((r) => [`${r.trial}:${r.summary.mode}`, r]));
  return (
    <figure className="summary" data-testid="trials-table">
      <figcaption className="chart-caption">
        <div className="chart-title-row">
          <h3 className="chart-title">Every trial</h3>
          {simulated ? <SimBadge /> : null}
        </div>
        <p className="chart-subtitle">
          Each run’s outcome, total tokens and time; pick a trial above to see its steps.
          {simulated ? ' Simulated model: not what a real provider would bill.' : ''}
        </p>
      </figcaption>
      <div className="table-wrap">
        <table className="data-table trials-grid">
          <thead>
            <tr>
              <th scope="col" rowSpan={2}>
                Trial
              </th>
              {modes.map((m) => (
                <th scope="colgroup" colSpan={4} key={m} className="mode-group">
                  <span className={`mode-swatch mode-${m}`} aria-hidden="true" /> {MODE_LABELS[m]}
                </th>
              ))}
            </tr>
            <tr>
              {modes.flatMap((m) => [
                <th scope="col" key={`${m}s`}>
                  Status
                </th>,
                <th scope="col" key={`${m}n`} className="num">
                  Steps
                </th>,
                <th scope="col" key={`${m}t`} className="num">
                  Tokens
                </th>,
                <th scope="col" key={`${m}w`} className="num">
                  Time
                </th>,
              ])}
            </tr>
          </thead>
          <tbody>
            {trials.map((t) => (
              <tr key={t} data-trial={t}>
                <th scope="row">{t}</th>
                {modes.flatMap((m) => {
                  const r = at.get(`${t}:${m}`);
                  if (!r) return [<td key={`${m}-none`} colSpan={4} className="muted" />];
                  const tot = r.summary.totals;
                  const started = r.status !== 'waiting';
                  return [
                    <td key={`${m}s`} className="trial-outcome">
                      <StatusBadge status={r.status} />
                      {r.summary.validation ? <ValidationBadge validation={r.summary.validation} /> : null}
                    </td>,
                    <td key={`${m}n`} className="num" data-testid={`trial-steps-${t}-${m}`} data-value={tot.steps}>
                      {started ? fmtInt(tot.steps) : '—'}
                    </td>,
                    <td key={`${m}t`} className="num" data-testid={`trial-total-${t}-${m}`} data-value={tot.total}>
                      {started ? fmtInt(tot.total) : '—'}
                    </td>,
                    <td key={`${m}w`} className="num">
                      {started ? fmtMs(tot.wallMs) : '—'}
                    </td>,
                  ];
                })}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </figure>
  );
}
