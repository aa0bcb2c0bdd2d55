/** One native tool call: name, arguments, result as the model received it, duration, error and truncation. */
import { CopyButton } from '../common/copy-button.js';
import type { ToolFinishedEvent } from '../../../shared/step-event.js';
import { argsPreview, fmtArgs, fmtInt, fmtMs } from '../../lib/display-format.js';
import type { ToolCallView } from '../../store/run-model.js';
import { IconAlert, IconSpinner, IconTool } from '../common/icons.js';
import { Approvals } from './approval-card.js';
import { ExpandableText, useExpanded } from './expandable-text.js';
import { SearchHits } from './search-hits.js';
import { McpCallNotes } from './mcp-call-notes.js';
import { ElicitationCards } from './elicitation-card.js';

/** "truncated: 12,345 → 4,000 chars": what the tool produced vs. what the model was shown. */
export function TruncationNote({
  finished,
  truncateChars,
}: {
  finished: ToolFinishedEvent;
  truncateChars: number | null;
}) {
  const shown = truncateChars ?? finished.output.length;
  return (
    <span
      className="trunc-note"
      data-testid="truncation"
      data-raw={finished.rawSize}
      data-shown={shown}
      title="The tool returned more than the truncation limit; the model saw the first part and a marker."
    >
      truncated: {fmtInt(finished.rawSize)} → {fmtInt(shown)} chars
    </span>
  );
}

/** The call is paused on an approval nobody has answered yet. */
export const waiting = (call: ToolCallView): boolean => call.approvals.some((a) => a.resolved === null);

export function ToolCall({
  call,
  idPrefix,
  truncateChars,
  runId = '',
  live = false,
}: {
  call: ToolCallView;
  idPrefix: string;
  truncateChars: number | null;
  runId?: string;
  live?: boolean;
}) {
  const f = call.finished;
  const [argsOpen, setArgsOpen] = useExpanded(`${idPrefix}:args`);
  const invalidArgs = typeof call.args === 'string' && call.started;
  const argsText = fmtArgs(call.args);
  return (
    <div
      className={`call ${f?.error && !f.cancelled ? 'has-error' : ''}`}
      data-testid="tool-call"
      data-tool={call.name}
      data-call-id={call.callId}
    >
      <button
        type="button"
        className="call-head as-button"
        aria-expanded={argsOpen}
        onClick={() => setArgsOpen(!argsOpen)}
        title="Show the arguments"
      >
        <IconTool size={13} />
        <span className="call-name mono">{call.name}</span>
        <span className="call-args mono">({argsPreview(call.args, 64)})</span>
        {call.forwardedBy ? (
          <span
            className="muted small"
            data-testid="forwarded"
            title={`The model called ${call.forwardedBy}, which ran this tool`}
          >
            via {call.forwardedBy}
          </span>
        ) : null}
        <span className="call-meta">
          {f ? (
            <span>{fmtMs(f.durationMs)}</span>
          ) : waiting(call) ? (
            <span className="waiting-approval">waiting for you</span>
          ) : call.started ? (
            <>
              <IconSpinner size={12} /> running
            </>
          ) : (
            <span>queued</span>
          )}
        </span>
      </button>
      {argsOpen ? (
        <div className="call-section">
          <div className="section-label">
            Arguments {invalidArgs ? <span className="inline-err">· not valid JSON, shown as written</span> : null}
          </div>
          <div className="expandable">
            {argsText ? <CopyButton text={argsText} what="arguments" className="copy-corner" /> : null}
            <pre className="args-block">{argsText || '(none)'}</pre>
          </div>
        </div>
      ) : null}
      {call.searches.map((s) => (
        <SearchHits key={s.seq} search={s} />
      ))}
      <Approvals runId={runId} approvals={call.approvals} live={live} />
      <ElicitationCards runId={runId} asking={call.asking} live={live} />
      <McpCallNotes call={call} />
      {f ? (
        <div className="call-section">
          <div className="section-label">
            {f.cancelled ? (
              <span className="inline-warn" data-testid="tool-cancelled">
                Aborted by cancel: nothing went back to the model
              </span>
            ) : f.error ? (
              <span className="inline-err">
                <IconAlert size={12} /> Error returned to the model
              </span>
            ) : (
              'Result'
            )}
            <span className="muted"> · {fmtInt(f.output.length)} chars</span>
            {f.truncated ? <TruncationNote finished={f} truncateChars={truncateChars} /> : null}
          </div>
          <ExpandableText
            id={`${idPrefix}:out`}
            text={f.output}
            lines={6}
            className={f.error ? 'output is-error' : 'output'}
            copy="result"
          />
        </div>
      ) : null}
    </div>
  );
}
