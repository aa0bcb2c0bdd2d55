/**
 * Advanced → MCP servers: the `mcpServers` JSON pasted as is (the format of Claude Desktop, Cursor, VS Code),
 * checked as typed with the host's parser, errors under the field naming the server and the field, and a
 * one-line summary. Every mode offers the servers' tools; the host starts stdio commands only as its rules
 * allow (the desktop asks in a native dialog; the web host needs --allow-mcp).
 */
import { useApp } from '../../store/app-store.js';
import { checkMcpField, MCP_PLACEHOLDER } from '../../store/mcp-field.js';
import { composerSelectors, uiSelectors } from '../../store/selectors.js';

export function McpServersField() {
  const text = useApp((s) => s.form.mcpConfig ?? '');
  const setForm = useApp((s) => s.setForm);
  const showErrors = useApp(composerSelectors.showErrors);
  const info = useApp(uiSelectors.appInfo);
  const check = checkMcpField(text);
  const where =
    info?.host === 'electron'
      ? 'Before a comparison starts stdio commands, the app asks you to allow each command line.'
      : 'The web host takes MCP servers only when started with --allow-mcp (and --allow-mcp-command for stdio programs).';
  return (
    <div className="field mcp-field">
      <label className="label" htmlFor="mcp-config">
        MCP servers <span className="label-hint">(mcpServers JSON)</span>
      </label>
      <textarea
        id="mcp-config"
        className={`input textarea mono ${check.error ? 'is-invalid' : ''}`}
        rows={text.trim() ? Math.min(8, Math.max(3, text.split('\n').length)) : 2}
        value={text}
        placeholder={MCP_PLACEHOLDER}
        onChange={(e) => setForm({ mcpConfig: e.target.value })}
        spellCheck={false}
        autoComplete="off"
        aria-invalid={!!check.error}
        aria-describedby="mcp-config-msg"
        data-testid="mcp-config"
      />
      {check.error ? (
        <p
          id="mcp-config-msg"
          className="field-error"
          role={showErrors ? 'alert' : undefined}
          data-testid="mcp-config-error"
        >
          {check.error}
        </p>
      ) : (
        <p id="mcp-config-msg" className="field-hint">
          {check.summary ? (
            <span className="mcp-summary" data-testid="mcp-summary">
              {check.summary}.{' '}
            </span>
          ) : (
            'Every mode offers their tools as <server>_<tool>. '
          )}
          {'Env and header values are not saved with the composer. '}
          {where}
        </p>
      )}
    </div>
  );
}
