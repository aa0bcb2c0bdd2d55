/** The setup and result cells of a run's column (first and last rows of the timeline). */
import { memo } from 'react';
import type { RunFinishedEvent, RunStartedEvent, RunTotals, RunWarningEvent } from '../../../shared/step-event.js';
import { fmtInt, fmtMs } from '../../lib/display-format.js';
import { describeMode } from '../../../shared/modes.js';
import {
  costHint,
  costText,
  ESTIMATED_HINT,
  isEstimated,
  type RunCost,
  type RunUsageSource,
} from '../../../shared/cost.js';
import { StatusBadge, ValidationBadge, type AnyStatus } from '../common/badges.js';
import { IconAlert, IconSpinner } from '../common/icons.js';
import { ExpandableText, useExpanded } from './expandable-text.js';
import { AnswerViewSwitch } from '../answers/markdown-view.js';
import { useApp } from '../../store/app-store.js';

// Both cells take only the parts of the run they show, so a live batch that touches neither skips them.
export const SetupCell = memo(function SetupCell({
  runId,
  started,
  firstRequestPrompt,
  waiting = false,
  firstRequestEstimated = false,
}: {
  runId: string;
  started: RunStartedEvent | null;
  firstRequestPrompt: number | null;
  waiting?: boolean;
  firstRequestEstimated?: boolean;
}) {
  const [open, setOpen] = useExpanded(`${runId}:setup`);
  if (!started && waiting)
    return (
      <div className="setup-cell is-pending" data-testid="setup-waiting">
        Waiting: this trial starts when every run of the previous one has ended.
      </div>
    );
  if (!started)
    return (
      <div className="setup-cell is-pending">
        <IconSpinner size={13} /> Starting the worker…
      </div>
    );
  if (started.tools.length === 0 && !started.systemPrompt)
    return (
      <div className="setup-cell" data-testid="setup-cell">
        The run ended before its first model request.
      </div>
    );
  const inPrompt = describeMode(started.mode)?.toolsInPrompt === true;
  return (
    <div className="setup-cell" data-testid="setup-cell">
      <div className="setup-facts">
        <span
          title={
            inPrompt
              ? 'Tools listed in the system prompt (the request has no tools parameter)'
              : 'Tools sent to the model on the first request'
          }
        >
          <strong>{started.tools.length}</strong> {started.tools.length === 1 ? 'tool' : 'tools'}{' '}
          {inPrompt ? 'listed in the prompt' : 'sent'}:{' '}
          <span className="mono">{started.tools.map((t) => t.name).join(', ')}</span>
        </span>
        {firstRequestPrompt !== null ? (
          <span title="Prompt tokens of the first request: the fixed cost of this mode's prompt and tool definitions">
            first request{' '}
            <strong className="num" title={firstRequestEstimated ? ESTIMATED_HINT : undefined}>
              {firstRequestEstimated ? '≈ ' : ''}
              {fmtInt(firstRequestPrompt)}
            </strong>{' '}
            tokens
          </span>
        ) : null}
        <button type="button" className="link-btn" aria-expanded={open} onClick={() => setOpen(!open)}>
          {open ? 'Hide system prompt' : `System prompt · ${fmtInt(started.systemPrompt.length)} chars`}
        </button>
      </div>
      {open ? (
        <ExpandableText id={`${runId}:system`} text={started.systemPrompt} lines={12} copy="system prompt" />
      ) : null}
    </div>
  );
});

interface ResultProps {
  readonly runId: string;
  readonly status: AnyStatus;
  readonly finished: RunFinishedEvent | null;
  readonly warnings: readonly RunWarningEvent[];
  readonly gaps: number;
  readonly totals: RunTotals | null;
  /** The run's cost (null before any event); shown unless the run is simulated or predates prices. */
  readonly cost?: RunCost | null;
  readonly usageSource?: RunUsageSource;
}

export const ResultCell = memo(function ResultCell({
  runId,
  status,
  finished: f,
  warnings,
  gaps,
  totals,
  cost = null,
  usageSource = 'reported',
}: ResultProps) {
  const answerRaw = useApp((s) => s.answerRaw);
  const setAnswerRaw = useApp((s) => s.setAnswerRaw);
  const est = isEstimated(usageSource) ? '≈ ' : '';
  const showCost = cost !== null && cost.kind !== 'simulated' && cost.kind !== 'unrecorded';
  return (
    <div
      className={`result-cell status-${status}${f?.validation?.ok === false ? ' is-wrong-answer' : ''}`}
      data-testid="result-cell"
      data-status={status}
    >
      <div className="result-head">
        <StatusBadge status={status} validation={f?.validation} />
        {f ? <ValidationBadge validation={f.validation} /> : null}
        {totals ? (
          <span className="result-totals num muted">
            {fmtInt(totals.steps)} {totals.steps === 1 ? 'step' : 'steps'} ·{' '}
            <span title={est ? ESTIMATED_HINT : undefined}>
              {est}
              {fmtInt(totals.total)} tokens
            </span>
            {showCost ? (
              <>
                {' · '}
                <span data-testid="result-cost" data-value={cost.usd ?? ''} title={costHint(cost)}>
                  {costText(cost)}
                </span>
              </>
            ) : null}
            {' · '}
            {fmtMs(totals.wallMs)}
          </span>
        ) : null}
        {totals?.approvalWaitMs ? (
          <span
            className="result-totals num muted"
            data-testid="approval-wait"
            title="Time the run waited for your approval: kept out of its own time so the comparison stays fair"
          >
            + waited {fmtMs(totals.approvalWaitMs)} for approval
          </span>
        ) : null}
      </div>
      {status === 'running' || status === 'pending' ? (
        <p className="muted small">
          <IconSpinner size={12} /> Working — the answer appears here when the run finishes.
        </p>
      ) : null}
      {status === 'waiting' ? <p className="muted small">Not started yet: trials run one round at a time.</p> : null}
      {status === 'never-started' ? (
        <p className="muted small">
          Never started: the host stopped before this run's round began, so nothing of it was recorded.
        </p>
      ) : null}
      {status === 'interrupted' ? (
        <p className="result-error">
          <IconAlert size={13} /> This run never finished: the host stopped while it was running. Its steps up to that
          point are shown.
        </p>
      ) : null}
      {f?.error ? (
        <p className="result-error" data-testid="run-error">
          <IconAlert size={13} /> <span>{f.error}</span>
        </p>
      ) : null}
      {f?.validation ? (
        <p className={`validation-detail ${f.validation.ok ? 'is-ok' : 'is-err'}`}>{f.validation.detail}</p>
      ) : null}
      {f ? (
        f.answer ? (
          <div className="answer" data-testid="answer">
            <div className="answer-head">
              <div className="section-label">{f.status === 'answered' ? 'Final answer' : 'Last reply'}</div>
              <AnswerViewSwitch raw={answerRaw} onChange={setAnswerRaw} />
            </div>
            <ExpandableText id={`${runId}:answer`} text={f.answer} lines={14} copy="answer" markdown={!answerRaw} />
          </div>
        ) : (
          <p className="muted small">No final answer.</p>
        )
      ) : null}
      {warnings.length > 0 || gaps > 0 ? (
        <ul className="run-warnings">
          {warnings.map((w) => (
            <li key={w.seq}>
              <IconAlert size={12} /> {w.message}
            </li>
          ))}
          {gaps > 0 ? (
            <li>
              <IconAlert size={12} /> {gaps} gap(s) in this run’s event stream: reopen it from History for the stored
              copy.
            </li>
          ) : null}
        </ul>
      ) : null}
    </div>
  );
});
