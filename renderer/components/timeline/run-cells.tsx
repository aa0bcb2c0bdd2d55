/** The setup and result cells of a run's column (first and last rows of the timeline). */
import type { RunSummary } from '../../../shared/summary.js';
import { fmtInt, fmtMs } from '../../lib/format.js';
import type { RunView } from '../../store/run-model.js';
import { StatusBadge, ValidationBadge, type AnyStatus } from '../common/badges.js';
import { IconAlert, IconSpinner } from '../common/icons.js';
import { ExpandableText, useExpanded } from './expandable-text.js';

export function SetupCell({ run, summary }: { run: RunView | undefined; summary: RunSummary | null }) {
  const started = run?.started;
  const [open, setOpen] = useExpanded(`${run?.runId}:setup`);
  if (!started)
    return (
      <div className="setup-cell is-pending">
        <IconSpinner size={13} /> Starting the worker…
      </div>
    );
  return (
    <div className="setup-cell" data-testid="setup-cell">
      <div className="setup-facts">
        <span title="Tools sent to the model on the first request">
          <strong>{started.tools.length}</strong> {started.tools.length === 1 ? 'tool' : 'tools'} sent: <span className="mono">{started.tools.map((t) => t.name).join(', ')}</span>
        </span>
        {summary?.firstRequestPrompt !== null && summary?.firstRequestPrompt !== undefined ? (
          <span title="Prompt tokens of the first request: the fixed cost of this mode's prompt and tool definitions">
            first request <strong className="num">{fmtInt(summary.firstRequestPrompt)}</strong> tokens
          </span>
        ) : null}
        <button type="button" className="link-btn" aria-expanded={open} onClick={() => setOpen(!open)}>
          {open ? 'Hide system prompt' : `System prompt · ${fmtInt(started.systemPrompt.length)} chars`}
        </button>
      </div>
      {open ? <ExpandableText id={`${run!.runId}:system`} text={started.systemPrompt} lines={12} /> : null}
    </div>
  );
}

export function ResultCell({ run, status, summary }: { run: RunView | undefined; status: AnyStatus; summary: RunSummary | null }) {
  const f = run?.finished;
  const warnings = run?.warnings ?? [];
  return (
    <div className={`result-cell status-${status}`} data-testid="result-cell" data-status={status}>
      <div className="result-head">
        <StatusBadge status={status} />
        {f ? <ValidationBadge validation={f.validation} /> : null}
        {summary ? (
          <span className="result-totals num muted">
            {fmtInt(summary.totals.steps)} steps · {fmtInt(summary.totals.total)} tokens · {fmtMs(summary.totals.wallMs)}
          </span>
        ) : null}
      </div>
      {status === 'running' || status === 'pending' ? (
        <p className="muted small">
          <IconSpinner size={12} /> Working — the answer appears here when the run finishes.
        </p>
      ) : null}
      {status === 'interrupted' ? (
        <p className="result-error">
          <IconAlert size={13} /> This run never finished: the host stopped while it was running. Its steps up to that point are shown.
        </p>
      ) : null}
      {f?.error ? (
        <p className="result-error" data-testid="run-error">
          <IconAlert size={13} /> <span>{f.error}</span>
        </p>
      ) : null}
      {f?.validation ? <p className={`validation-detail ${f.validation.ok ? 'is-ok' : 'is-err'}`}>{f.validation.detail}</p> : null}
      {f ? (
        f.answer ? (
          <div className="answer" data-testid="answer">
            <div className="section-label">Final answer</div>
            <ExpandableText id={`${run!.runId}:answer`} text={f.answer} lines={14} />
          </div>
        ) : (
          <p className="muted small">No final answer.</p>
        )
      ) : null}
      {warnings.length > 0 || (run?.gaps ?? 0) > 0 ? (
        <ul className="run-warnings">
          {warnings.map((w) => (
            <li key={w.seq}>
              <IconAlert size={12} /> {w.message}
            </li>
          ))}
          {run && run.gaps > 0 ? (
            <li>
              <IconAlert size={12} /> {run.gaps} gap(s) in this run’s event stream: reopen it from History for the stored copy.
            </li>
          ) : null}
        </ul>
      ) : null}
    </div>
  );
}
