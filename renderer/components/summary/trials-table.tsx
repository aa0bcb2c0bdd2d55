/** "All" trials: one row per trial, each column's outcome side by side — how much one run differs from the next. */
import { ColumnSwatch, useSlotOf } from '../common/column-swatch.js';
import type { RunSummary } from '../../../shared/summary.js';
import { fmtInt, fmtMs } from '../../lib/display-format.js';
import type { DisplayStatus } from '../../store/trial-model.js';
import { SimBadge, StatusBadge, ValidationBadge } from '../common/badges.js';
import { EstMark, runEstimated } from './cost-parts.js';

export interface TrialRun {
  readonly trial: number;
  readonly summary: RunSummary;
  readonly status: DisplayStatus;
}

/** One run's outcome in one cell (more than two modes, where four columns per mode would not fit). */
function StackedCell({ r, mode }: { r: TrialRun; mode: string }) {
  const tot = r.summary.totals;
  const started = r.status !== 'waiting';
  return (
    <td className="trial-outcome is-stacked">
      <span className="trial-badges">
        <StatusBadge status={r.status} validation={r.summary.validation} />
        {r.summary.validation ? <ValidationBadge validation={r.summary.validation} /> : null}
      </span>
      <span className="trial-figures num">
        <strong data-testid={`trial-total-${r.trial}-${mode}`} data-value={tot.total}>
          {started ? (
            <>
              <EstMark on={runEstimated(r.summary)} />
              {fmtInt(tot.total)} tokens
            </>
          ) : (
            '—'
          )}
        </strong>
        <span className="muted">
          <span data-testid={`trial-steps-${r.trial}-${mode}`} data-value={tot.steps}>
            {started ? `${fmtInt(tot.steps)} step${tot.steps === 1 ? '' : 's'}` : '—'}
          </span>
          {started ? ` · ${fmtMs(tot.wallMs)}` : ''}
        </span>
      </span>
    </td>
  );
}

export function TrialsTable({ runs, simulated }: { runs: readonly TrialRun[]; simulated: boolean }) {
  // One group per column (key), labelled by its column; a plain comparison's keys are its modes.
  const columns = [...new Map(runs.map((r) => [r.summary.column.key, r.summary])).values()];
  const modes = columns.map((c) => c.column.key);
  const slot = useSlotOf();
  const stacked = modes.length > 2;
  const trials = [...new Set(runs.map((r) => r.trial))].sort((a, b) => a - b);
  const at = new Map(runs.map((r) => [`${r.trial}:${r.summary.column.key}`, r]));
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
              <th scope="col" rowSpan={stacked ? 1 : 2}>
                Trial
              </th>
              {columns.map((c) => (
                <th
                  scope={stacked ? 'col' : 'colgroup'}
                  colSpan={stacked ? 1 : 4}
                  key={c.column.key}
                  className="mode-group"
                >
                  <ColumnSwatch slot={slot(c)} /> {c.column.label}
                </th>
              ))}
            </tr>
            <tr hidden={stacked}>
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
                  if (!r) return [<td key={`${m}-none`} colSpan={stacked ? 1 : 4} className="muted" />];
                  if (stacked) return [<StackedCell key={m} r={r} mode={m} />];
                  const tot = r.summary.totals;
                  const started = r.status !== 'waiting';
                  return [
                    <td key={`${m}s`} className="trial-outcome">
                      <StatusBadge status={r.status} validation={r.summary.validation} />
                      {r.summary.validation ? <ValidationBadge validation={r.summary.validation} /> : null}
                    </td>,
                    <td key={`${m}n`} className="num" data-testid={`trial-steps-${t}-${m}`} data-value={tot.steps}>
                      {started ? fmtInt(tot.steps) : '—'}
                    </td>,
                    <td key={`${m}t`} className="num" data-testid={`trial-total-${t}-${m}`} data-value={tot.total}>
                      {started ? (
                        <>
                          <EstMark on={runEstimated(r.summary)} />
                          {fmtInt(tot.total)}
                        </>
                      ) : (
                        '—'
                      )}
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
