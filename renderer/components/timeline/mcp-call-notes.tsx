/**
 * What an MCP call carries beyond its result: its server's hints for the tool (read-only, destructive, …), the
 * progress it reports while it runs, the sampling requests its server made (answered by the run's model, whose
 * tokens count in the run's), and the audience and priority its server gave each part of the result. The words
 * are shared with the reports (shared/mcp-call-words.ts).
 */
import {
  mcpContentText,
  mcpElicitationText,
  mcpHintsText,
  mcpProgressText,
  mcpSamplingText,
} from '../../../shared/mcp-call-words.js';
import type { ToolCallView } from '../../store/run-model.js';

export function McpCallNotes({ call }: { call: ToolCallView }) {
  const p = call.progress;
  const content = mcpContentText(call.finished?.mcpContent);
  if (!call.mcp && !p && !call.samplings?.length && !call.elicitations?.length && content === null) return null;
  const fraction = p?.total ? Math.min(1, Math.max(0, p.progress / p.total)) : null;
  return (
    <div className="call-section mcp-notes" data-testid="mcp-notes">
      {call.mcp ? (
        <div className="muted small" data-testid="mcp-hints">
          {mcpHintsText(call.mcp)}
        </div>
      ) : null}
      {p ? (
        <div className="small" data-testid="mcp-progress" data-progress={p.progress} data-total={p.total ?? ''}>
          {mcpProgressText(p, Boolean(call.finished))}
          {fraction !== null ? (
            <progress
              max={1}
              value={fraction}
              aria-label={`${p.name} progress`}
              style={{ marginLeft: 8, verticalAlign: 'middle' }}
            />
          ) : null}
        </div>
      ) : null}
      {(call.samplings ?? []).map((s) => (
        <div key={s.seq} className={`small ${s.error !== null ? 'inline-err' : ''}`} data-testid="mcp-sampling">
          {mcpSamplingText(s)}
        </div>
      ))}
      {(call.elicitations ?? []).map((e) => (
        <div
          key={e.seq}
          className={`small ${e.action !== 'accept' ? 'inline-warn' : ''}`}
          data-testid="mcp-elicitation"
          data-action={e.action}
        >
          {mcpElicitationText(e)}
        </div>
      ))}
      {content !== null ? (
        <div className="muted small" data-testid="mcp-content">
          {content}
        </div>
      ) : null}
    </div>
  );
}
