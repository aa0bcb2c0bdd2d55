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
    return {
      servers,
      error: null,
      summary: servers.length ? mcpSummary(servers) : 'No servers (every one is disabled).',
    };
  } catch (err) {
    const message = err instanceof McpConfigError ? err.message.replace(`${SOURCE}: `, '') : String(err);
    return { servers: [], error: message.replace(/^./, (c) => c.toUpperCase()), summary: null };
  }
}

/**
 * The field as saved between sessions. A server's env and header values can be tokens, and the saved composer is
 * plain local storage, so they are blanked ("") for the user to enter again; text that does not parse as an
 * mcpServers object is not saved at all (it may hold one).
 */
export function mcpConfigToSave(text: string): string | undefined {
  if (!text.trim()) return text;
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch {
    return undefined;
  }
  const servers = (doc as { mcpServers?: unknown } | null)?.mcpServers;
  if (!servers || typeof servers !== 'object') return undefined;
  for (const server of Object.values(servers as Record<string, unknown>)) {
    if (!server || typeof server !== 'object') continue;
    for (const field of ['env', 'headers']) {
      const values = (server as Record<string, unknown>)[field];
      if (values && typeof values === 'object')
        for (const name of Object.keys(values)) (values as Record<string, unknown>)[name] = '';
    }
  }
  return JSON.stringify(doc, null, 2);
}

export const MCP_PLACEHOLDER =
  '{"mcpServers": {"files": {"command": "npx", "args": ["-y", "@modelcontextprotocol/server-filesystem", "/home/me/notes"]}}}';
