/**
 * The approval policy per dangerous tool (shared/approval.ts): Default, Allow, Ask (a card in the run's column
 * waits for your answer) or Deny. The default shown is this host's: run_shell is allowed only where commands
 * run in the OS sandbox; fetch_url asks when the workspace is a folder of yours.
 */
import {
  APPROVAL_MODES,
  APPROVAL_TOOLS,
  defaultApprovalPolicy,
  MCP_APPROVAL,
  MCP_APPROVAL_KEYS,
  type ApprovalKey,
  type ApprovalMode,
  type ApprovalTool,
} from '../../../shared/approval.js';
import { checkMcpField } from '../../store/mcp-field.js';
import { useApp } from '../../store/app-store.js';
import { composerSelectors, uiSelectors } from '../../store/selectors.js';

const WHAT: Record<ApprovalKey, string> = {
  run_shell: 'runs a command',
  write_file: 'writes a file in the run’s copy of the workspace',
  fetch_url: 'fetches a URL (can send data out)',
  mcp: 'calls a tool of an MCP server (every server’s tools)',
  'mcp-readonly': 'calls an MCP tool its server marks read-only (overrides MCP tools)',
  'mcp-destructive': 'calls an MCP tool that may destroy: marked destructive, or unmarked (overrides MCP tools)',
  'mcp-sampling':
    'asks the run’s model a prompt of its own (MCP sampling: spends the run’s tokens; overrides MCP tools)',
};

const LABELS: Partial<Record<ApprovalKey, string>> = {
  mcp: 'MCP tools',
  'mcp-readonly': 'MCP read-only tools',
  'mcp-destructive': 'MCP destructive tools',
  'mcp-sampling': 'MCP sampling',
};

const MODE_TEXT: Record<ApprovalMode, string> = { allow: 'Allow', ask: 'Ask me', deny: 'Deny' };

export function ApprovalSettings() {
  const draft = useApp(composerSelectors.settings);
  const setSetting = useApp((s) => s.setSetting);
  const info = useApp(uiSelectors.appInfo);
  const form = useApp(composerSelectors.form);
  const defaults = defaultApprovalPolicy({
    shellSandbox: info?.shellSandbox ?? 'none',
    userFolder: !!(form.workspaceHandle || form.workspaceDir?.trim()),
  });
  const chosen = draft.approvals ?? {};
  // MCP tools are allowed unless chosen; the rows show only while servers are configured. The read-only and
  // destructive rows default to what the MCP tools row says.
  const mcpServers = checkMcpField(form.mcpConfig).servers.length > 0;
  const keys: readonly ApprovalKey[] = mcpServers ? [...APPROVAL_TOOLS, ...MCP_APPROVAL_KEYS] : APPROVAL_TOOLS;
  const isMcp = (tool: ApprovalKey): boolean => (MCP_APPROVAL_KEYS as readonly string[]).includes(tool);
  const defaultOf = (tool: ApprovalKey): ApprovalMode =>
    tool === MCP_APPROVAL ? 'allow' : isMcp(tool) ? (chosen.mcp ?? 'allow') : defaults[tool as ApprovalTool];
  const set = (tool: ApprovalKey, value: string) => {
    const next = { ...chosen };
    if (value === 'default') delete next[tool];
    else next[tool] = value as ApprovalMode;
    setSetting('approvals', next);
  };
  return (
    <>
      <h4 className="subgroup-title">Tool approvals</h4>
      <div className="settings-grid">
        {keys.map((tool) => (
          <div className="field" key={tool}>
            <label className={`label ${isMcp(tool) ? '' : 'mono'}`} htmlFor={`approval-${tool}`}>
              {LABELS[tool] ?? tool}
            </label>
            <select
              id={`approval-${tool}`}
              className="input select"
              value={chosen[tool] ?? 'default'}
              onChange={(e) => set(tool, e.target.value)}
              data-testid={`approval-${tool}`}
            >
              <option value="default">
                {tool !== MCP_APPROVAL && isMcp(tool) ? 'As MCP tools' : 'Default'}:{' '}
                {MODE_TEXT[defaultOf(tool)].toLowerCase()}
              </option>
              {APPROVAL_MODES.map((m) => (
                <option key={m} value={m}>
                  {MODE_TEXT[m]}
                </option>
              ))}
            </select>
            <p className="field-hint">When the model {WHAT[tool]}.</p>
          </div>
        ))}
      </div>
      <p className="field-hint">
        {info?.shellSandbox === 'bubblewrap'
          ? 'Commands run in an OS sandbox on this machine. '
          : info?.shellSandbox === 'seatbelt'
            ? 'Commands run under a macOS Seatbelt profile (files and network limited, processes not isolated), so run_shell asks by default. '
            : 'Commands would run outside a sandbox on this machine, so run_shell asks by default. '}
        Time spent waiting for you is kept out of a run’s time.
      </p>
    </>
  );
}
