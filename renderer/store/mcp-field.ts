/**
 * The composer's "MCP servers" field: the `mcpServers` JSON as pasted, checked as typed by the host's own
 * parser (errors name the server and the field), with a one-line summary. The text is the user's own and stays
 * in their field; only the parsed servers go into the request, where the host checks them again.
 */
import { McpConfigError, mcpSummary, parseMcpConfigText, type McpServerConfig } from '../../shared/mcp-config.js';

export interface McpFieldCheck {
  readonly servers: readonly McpServerConfig[];
  readonly error: string | null;
  /** "2 servers: files (stdio: npx …), search (http: https://…)"; null when empty or invalid. */
  readonly summary: string | null;
}

const SOURCE = 'MCP servers';

export function checkMcpField(text: string | undefined): McpFieldCheck {
  if (!text?.trim()) return { servers: [], error: null, summary: null };
  try {
    const servers = parseMcpConfigText(text, SOURCE, { fullCwd: true });
    return { servers, error: null, summary: servers.length ? mcpSummary(servers) : 'No servers (every one is disabled).' };
  } catch (err) {
    const message = err instanceof McpConfigError ? err.message.replace(`${SOURCE}: `, '') : String(err);
    return { servers: [], error: message.replace(/^./, (c) => c.toUpperCase()), summary: null };
  }
}

export const MCP_PLACEHOLDER = '{"mcpServers": {"files": {"command": "npx", "args": ["-y", "@modelcontextprotocol/server-filesystem", "/home/me/notes"]}}}';
