/**
 * A tool call waiting for the user, in its run's column: the tool, its arguments, Allow / Deny / Allow for this
 * comparison. Only this run waits; the time it waits is kept out of its own time. Once answered (or when the
 * run ends) the card becomes one line of the record: who decided what, after how long.
 */
import { useState } from 'react';
import type { ApprovalAnswer } from '../../../shared/ipc-contract.js';
import { answerApproval } from '../../app/actions.js';
import { approvalArgsText, inert } from '../../../shared/inert-text.js';
import { fmtMs } from '../../lib/display-format.js';
import type { ApprovalView } from '../../store/run-model.js';
import { IconAlert, IconCheck, IconSpinner, IconX } from '../common/icons.js';

/** Characters of the arguments the card shows before it leaves the middle out. */
const CARD_ARGS_CHARS = 600;

const DECISION_TEXT = {
  allow: 'Allowed by you',
  deny: 'Denied by you',
  'allow-comparison': 'Allowed for this comparison',
  cancelled: 'Not answered: the run was cancelled',
} as const;

export function ApprovalCard({ runId, approval, live }: { runId: string; approval: ApprovalView; live: boolean }) {
  const { requested: q, resolved: r } = approval;
  const [sent, setSent] = useState<ApprovalAnswer | null>(null);
  if (r) {
    const allowed = r.decision === 'allow' || r.decision === 'allow-comparison';
    return (
      <p
        className={`approval-record ${allowed ? 'is-allowed' : 'is-denied'}`}
        data-testid="approval-record"
        data-decision={r.decision}
      >
        {allowed ? <IconCheck size={12} /> : <IconX size={12} />}
        <span>
          <span className="mono">{inert(q.tool)}</span>{' '}
          {q.server !== undefined ? `(MCP server ${inert(q.server)}) ` : ''}
          {q.inProgram ? '(inside the program) ' : ''}· {DECISION_TEXT[r.decision]}
          {r.waitedMs >= 1 ? (
            <span className="muted"> after {fmtMs(r.waitedMs)} (not counted as the run’s time)</span>
          ) : null}
        </span>
      </p>
    );
  }
  if (!live) {
    return (
      <p className="approval-record is-denied" data-testid="approval-record" data-decision="none">
        <IconAlert size={12} />{' '}
        <span>
          <span className="mono">{inert(q.tool)}</span> was waiting for approval when the run stopped.
        </span>
      </p>
    );
  }
  const answer = async (decision: ApprovalAnswer) => {
    setSent(decision);
    if (!(await answerApproval(runId, q.approvalId, decision))) setSent(null);
  };
  // Whole, or its start and end with the count between: the card never hides a command's tail.
  const args = approvalArgsText(q.tool, q.args, CARD_ARGS_CHARS);
  return (
    <section
      className="approval-card"
      role="alertdialog"
      aria-label={`Allow ${q.tool}${q.server !== undefined ? ` of MCP server ${q.server}` : ''}?`}
      data-testid="approval-card"
      data-tool={q.tool}
      data-approval-id={q.approvalId}
    >
      <header className="approval-head">
        <IconAlert size={14} />
        <strong>
          Allow <span className="mono">{inert(q.tool)}</span>
          {q.server !== undefined ? (
            <>
              {' '}
              of MCP server{' '}
              <span className="mono" data-testid="approval-server">
                {inert(q.server)}
              </span>
            </>
          ) : null}
          ?
        </strong>
        <span className="muted small">
          {q.inProgram ? 'called inside the program' : 'called by the model'} · this run waits
        </span>
      </header>
      <pre className="args-block approval-args" data-testid="approval-args">
        {args || '(no arguments)'}
      </pre>
      <div className="approval-actions">
        <button
          type="button"
          className="btn btn-sm btn-primary"
          disabled={sent !== null}
          onClick={() => void answer('allow')}
          data-testid="approval-allow"
        >
          {sent === 'allow' ? <IconSpinner size={12} /> : null} Allow
        </button>
        <button
          type="button"
          className="btn btn-sm btn-danger"
          disabled={sent !== null}
          onClick={() => void answer('deny')}
          data-testid="approval-deny"
        >
          {sent === 'deny' ? <IconSpinner size={12} /> : null} Deny
        </button>
        <button
          type="button"
          className="btn btn-sm"
          disabled={sent !== null}
          onClick={() => void answer('allow-comparison')}
          data-testid="approval-allow-all"
          title={`Allow ${q.tool} in every run of this comparison without asking again`}
        >
          {sent === 'allow-comparison' ? <IconSpinner size={12} /> : null} Allow for this comparison
        </button>
      </div>
    </section>
  );
}

export function Approvals({
  runId,
  approvals,
  live,
}: {
  runId: string;
  approvals: readonly ApprovalView[];
  live: boolean;
}) {
  if (approvals.length === 0) return null;
  return (
    <div className="approvals">
      {approvals.map((a) => (
        <ApprovalCard key={a.requested.approvalId} runId={runId} approval={a} live={live} />
      ))}
    </div>
  );
}
