/** The sticky head of a run's column: its label (mode, and what differs), status, running totals, and Cancel for this run alone. */
import type { ColumnSlot } from '../../../shared/column-shades.js';
import { CopyButton } from '../common/copy-button.js';
import type { ColumnRef } from '../../../shared/variants.js';
import type { RunSummary } from '../../../shared/summary.js';
import { cancelRun } from '../../app/actions.js';
import { fmtInt, fmtMs } from '../../lib/display-format.js';
import { SimBadge, StatusBadge, type AnyStatus } from '../common/badges.js';
import { IconStop } from '../common/icons.js';
import { EstMark, Marked, runEstimated } from '../summary/cost-parts.js';
import { costHint, costText } from '../../../shared/cost.js';
import { startupTitle, WorkerStarting } from './worker-start.js';

interface Props {
  /** Its column (key: test ids, label: the title) and the palette slot it draws with. */
  readonly column: ColumnRef;
  readonly slot: ColumnSlot;
  /** Opened from a matrix cell: marked until another cell is opened. */
  readonly focused?: boolean;
  readonly runId: string;
  readonly trial: number;
  /** Name the trial in the head (several trials side by side). */
  readonly showTrial: boolean;
  readonly status: AnyStatus;
  readonly summary: RunSummary | null;
  readonly simulated: boolean;
  /** Tool calls of this run waiting for the user's approval. */
  readonly pendingApprovals?: number;
  /** MCP servers' forms of this run waiting for the person. */
  readonly pendingForms?: number;
}

export function ColumnHeader({
  column,
  slot,
  focused = false,
  runId,
  trial,
  showTrial,
  status,
  summary,
  simulated,
  pendingApprovals = 0,
  pendingForms = 0,
}: Props) {
  const t = summary?.totals;
  const live = status === 'running' || status === 'pending' || status === 'waiting';
  // A run whose trial has not begun has no figures yet, not zero of them.
  const int = (n: number | undefined) => (status === 'waiting' ? '—' : fmtInt(n ?? 0));
  const est = summary !== null && status !== 'waiting' && runEstimated(summary);
  const cost = summary?.cost;
  const showCost = !!cost && cost.kind !== 'simulated' && cost.kind !== 'unrecorded' && status !== 'waiting';
  return (
    <div
      className={`column-head mode-${slot}${focused ? ' is-focused' : ''}`}
      data-testid={`column-${column.key}`}
      data-column={column.key}
      data-run-id={runId}
      data-trial={trial}
    >
      {/* One line each, never wrapped: the title with its actions, then the badges. */}
      <div className="column-title">
        <span className={`mode-swatch mode-${slot}`} aria-hidden="true" />
        <h3 title={column.label}>{column.label}</h3>
        {showTrial ? <span className="trial-pill">Trial {trial}</span> : null}
        <CopyButton text={runId} what="run id" className="copy-id" label="Copy id" />
        {live ? (
          <button
            type="button"
            className="btn btn-sm btn-ghost column-cancel"
            onClick={() => void cancelRun(runId)}
            data-testid={`cancel-run-${column.key}`}
            aria-label={
              status === 'waiting'
                ? `Cancel run: ${column.label}, before its trial starts`
                : `Cancel run: ${column.label} only`
            }
            title={
              status === 'waiting'
                ? `Cancel this ${column.label} run before its trial starts`
                : `Cancel the ${column.label} run only`
            }
          >
            <IconStop size={11} /> <span className="btn-label">Cancel run</span>
          </button>
        ) : null}
      </div>
      <div className="column-badges" data-testid="column-badges">
        <StatusBadge status={status} validation={summary?.validation} />
        {simulated ? <SimBadge /> : null}
        {pendingApprovals > 0 && status === 'running' ? (
          <span
            className="badge badge-warn"
            data-testid="needs-approval"
            title="A tool call of this run waits for your answer below; only this run is paused."
          >
            needs your approval
          </span>
        ) : null}
        {pendingForms > 0 && status === 'running' ? (
          <span
            className="badge badge-warn"
            data-testid="needs-answer"
            title="An MCP server of this run asks you to fill in a form below; only its call waits."
          >
            needs your answer
          </span>
        ) : null}
      </div>
      <WorkerStarting active={status === 'pending'} />
      <dl className="column-stats num">
        <div>
          <dt>steps</dt>
          <dd data-testid="col-steps">{int(t?.steps)}</dd>
        </div>
        <div>
          <dt>prompt</dt>
          <dd>
            <EstMark on={est} />
            {int(t?.prompt)}
          </dd>
        </div>
        <div>
          <dt>completion</dt>
          <dd>
            <EstMark on={est} />
            {int(t?.completion)}
          </dd>
        </div>
        <div>
          <dt>total</dt>
          <dd>
            <EstMark on={est} />
            <span data-testid="col-total">{int(t?.total)}</span>
          </dd>
        </div>
        <div>
          <dt>time</dt>
          <dd
            title={
              t?.approvalWaitMs
                ? `The run's own time; it also waited ${fmtMs(t.approvalWaitMs)} for your approval, not counted here.`
                : undefined
            }
          >
            {status === 'waiting' ? '—' : fmtMs(t?.wallMs ?? 0)}
          </dd>
        </div>
        {summary?.workerStart ? (
          <div>
            <dt>start-up</dt>
            <dd
              data-testid="col-startup"
              data-value={summary.workerStart.ms}
              data-pooled={summary.workerStart.pooled}
              title={startupTitle(summary.workerStart)}
            >
              {fmtMs(summary.workerStart.ms)}
              {summary.workerStart.pooled ? <span className="startup-warm"> warm</span> : null}
            </dd>
          </div>
        ) : null}
        {showCost ? (
          <div>
            <dt>cost</dt>
            <dd data-testid="col-cost" data-value={cost.usd ?? ''} title={costHint(cost)}>
              <Marked text={costText(cost)} />
            </dd>
          </div>
        ) : null}
      </dl>
    </div>
  );
}
