/**
 * One run_code call: the program, what it printed (all the model gets back), its error at the failing line,
 * the tool calls it made inside the sandbox, and how many bytes stayed out of the conversation.
 */
import type { CodeRunEvent } from '../../../shared/step-event.js';
import { argsPreview, fmtBytes, fmtInt, fmtMs } from '../../lib/display-format.js';
import type { ToolCallView } from '../../store/run-model.js';
import { WarnBadge } from '../common/badges.js';
import { IconAlert, IconCode, IconSpinner } from '../common/icons.js';
import { CodeBlock } from './code-block.js';
import { ExpandableText } from './expandable-text.js';
import { SearchHits } from './search-hits.js';
import { Approvals } from './approval-card.js';
import { McpCallNotes } from './mcp-call-notes.js';
import { ElicitationCards } from './elicitation-card.js';
import { TruncationNote, waiting } from './tool-call.js';

const LIMIT_TEXT: Record<NonNullable<CodeRunEvent['limitHit']>, string> = {
  time: 'time limit hit',
  memory: 'memory limit hit',
  output: 'output limit hit',
  'tool-calls': 'tool-call limit hit',
};

/** The program, or null when the model's arguments were not valid JSON (then they are shown as written). */
function codeOf(call: ToolCallView): string | null {
  if (call.codeRun) return call.codeRun.code;
  const a = call.args;
  if (a && typeof a === 'object' && typeof (a as { code?: unknown }).code === 'string')
    return (a as { code: string }).code;
  return null;
}

/** codeState 'persist': what stays for the next program, and the sandbox's memory, or that a limit took it. */
function StoredState({ state }: { state: NonNullable<CodeRunEvent['state']> }) {
  if (state.lost)
    return (
      <p className="inline-warn small" data-testid="code-state">
        Stored variables lost: a limit stopped this program.
      </p>
    );
  const names = state.variables.map((v) =>
    v.bytes === null ? `${v.name} (${v.type})` : `${v.name} (${v.type}, ${fmtBytes(v.bytes)})`,
  );
  return (
    <p
      className="muted small"
      data-testid="code-state"
      title="Kept in the sandbox for the run's next program (codeState persist)"
    >
      Stored for the next program: {names.length ? names.join(', ') : 'nothing'}
      {state.memoryBytes !== null ? ` · sandbox memory ${fmtBytes(state.memoryBytes)}` : ''}
    </p>
  );
}

export function CodeRun({
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
  const run = call.codeRun;
  const code = codeOf(call);
  const done = !!run || !!call.finished;
  return (
    <div
      className={`call call-code ${run?.error ? 'has-error' : ''}`}
      data-testid="code-run"
      data-call-id={call.callId}
    >
      <div className="call-head">
        <IconCode size={13} />
        <span className="call-name mono">run_code</span>
        {run ? (
          <span className="call-meta">
            <span title="Time the program ran">{fmtMs(run.durationMs)}</span>
            <span title="Tool calls made inside the program">
              {run.toolCalls.length === 1 ? '1 inner call' : `${run.toolCalls.length} inner calls`}
            </span>
            <span
              title="Bytes the tools returned to the program vs. bytes printed back to the model"
              data-testid="code-bytes"
            >
              {fmtBytes(run.toolBytes)} in → {fmtBytes(run.printedBytes)} printed
            </span>
          </span>
        ) : done ? null : waiting(call) && live ? (
          <span className="call-meta waiting-approval">program paused: waiting for you</span>
        ) : (
          <span className="call-meta">
            <IconSpinner size={12} /> running
          </span>
        )}
        {run?.limitHit ? <WarnBadge>{LIMIT_TEXT[run.limitHit]}</WarnBadge> : null}
      </div>
      {code !== null ? (
        <CodeBlock code={code} error={run?.error ?? null} />
      ) : typeof call.args === 'string' && call.args ? (
        <div className="call-section">
          <div className="section-label">
            Arguments <span className="inline-err">· not valid JSON, shown as written</span>
          </div>
          <ExpandableText id={`${idPrefix}:args`} text={call.args} lines={4} copy="arguments" />
        </div>
      ) : null}
      <Approvals runId={runId} approvals={call.approvals} live={live} />
      <ElicitationCards runId={runId} asking={call.asking} live={live} />
      <McpCallNotes call={call} />
      {run && run.toolCalls.length > 0 ? (
        <table className="mini-table inner-calls">
          <thead>
            <tr>
              <th>Inner call</th>
              <th className="num">Result</th>
              <th className="num">Time</th>
            </tr>
          </thead>
          <tbody>
            {run.toolCalls.map((c, i) => (
              <tr key={i} className={c.error ? 'is-error' : ''}>
                <td className="mono" title={JSON.stringify(c.args)}>
                  {c.name}({argsPreview(c.args, 48)}){c.error ? <span className="inline-err"> — {c.error}</span> : null}
                </td>
                <td className="num mono">{fmtBytes(c.resultBytes)}</td>
                <td className="num mono">{fmtMs(c.durationMs)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : null}
      {call.searches.map((s) => (
        <SearchHits key={s.seq} search={s} />
      ))}
      {run ? (
        <div className="call-section">
          <div className="section-label">
            Printed{' '}
            {call.finished?.cancelled ? (
              <span className="inline-warn" data-testid="tool-cancelled">
                · aborted by cancel: nothing went back to the model
              </span>
            ) : (
              <span className="muted">· {fmtInt(run.output.length)} chars returned to the model</span>
            )}
          </div>
          {run.output ? (
            <ExpandableText id={`${idPrefix}:out`} text={run.output} className="output" copy="printed output" />
          ) : (
            <p className="muted small">The program printed nothing.</p>
          )}
        </div>
      ) : null}
      {run?.state ? <StoredState state={run.state} /> : null}
      {run?.error ? (
        <p className="code-error" role="note" data-testid="code-error">
          <IconAlert size={13} />
          <span>
            {run.error.line !== null ? <strong>Line {run.error.line}: </strong> : null}
            {run.error.message}
          </span>
        </p>
      ) : null}
      {!run && call.finished ? (
        <div className="call-section">
          <div className="section-label">
            {call.finished.error ? <span className="inline-err">Error returned to the model</span> : 'Result'}
          </div>
          <ExpandableText
            id={`${idPrefix}:out`}
            text={call.finished.output}
            lines={6}
            className={call.finished.error ? 'output is-error' : 'output'}
            copy="result"
          />
        </div>
      ) : null}
      {call.finished?.truncated ? <TruncationNote finished={call.finished} truncateChars={truncateChars} /> : null}
    </div>
  );
}
