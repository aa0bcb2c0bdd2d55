/**
 * What an MCP call carries beyond its result: its server's hints for the tool (read-only, destructive, …), the
 * progress it reports while it runs, the sampling requests its server made (answered by the run's model, whose
 * tokens count in the run's), and the audience and priority its server gave each part of the result.
 */
import { annotationWords } from '../../../shared/mcp-tools.js';
import { fmtInt } from '../../lib/display-format.js';
import type { ToolCallView } from '../../store/run-model.js';

export function McpCallNotes({ call }: { call: ToolCallView }) {
  const words = annotationWords(call.mcp?.annotations);
  const p = call.progress;
  const content = (call.finished?.mcpContent ?? []).filter((b) => b.audience || b.priority !== undefined);
  if (!call.mcp && !p && !call.samplings?.length && content.length === 0) return null;
  const fraction = p?.total ? Math.min(1, Math.max(0, p.progress / p.total)) : null;
  return (
    <div className="call-section mcp-notes" data-testid="mcp-notes">
      {call.mcp ? (
        <div className="muted small" data-testid="mcp-hints">
          MCP tool “{call.mcp.tool}” of {call.mcp.server}{call.mcp.title ? ` · ${call.mcp.title}` : ''}
          {words.length ? ` · the server says: ${words.join(', ')}` : ' · no hints from the server (treated as destructive)'}
        </div>
      ) : null}
      {p ? (
        <div className="small" data-testid="mcp-progress" data-progress={p.progress} data-total={p.total ?? ''}>
          {call.finished ? 'Last progress' : 'Progress'}{p.inProgram ? ` of ${p.name}` : ''}: {fmtInt(p.progress)}{p.total !== undefined ? ` of ${fmtInt(p.total)}` : ''}
          {p.message ? ` — ${p.message}` : ''}
          {fraction !== null ? <progress max={1} value={fraction} aria-label={`${p.name} progress`} style={{ marginLeft: 8, verticalAlign: 'middle' }} /> : null}
        </div>
      ) : null}
      {(call.samplings ?? []).map((s) => (
        <div key={s.seq} className={`small ${s.error !== null ? 'inline-err' : ''}`} data-testid="mcp-sampling">
          {s.error !== null
            ? `Sampling asked by ${s.server} was refused: ${s.error}`
            : `Sampling asked by ${s.server}, answered by the run's model: ${s.usage ? `${s.usageSource === 'estimated' ? '≈' : ''}${fmtInt(s.usage.prompt)} prompt + ${fmtInt(s.usage.completion)} completion tokens (in the run's totals)` : 'no usage reported'}`}
        </div>
      ))}
      {content.length ? (
        <div className="muted small" data-testid="mcp-content">
          Result parts: {content.map((b) => `${b.type}${b.audience ? ` for ${b.audience.join(' and ')}` : ''}${b.priority !== undefined ? ` (priority ${b.priority})` : ''}`).join('; ')}
        </div>
      ) : null}
    </div>
  );
}
