/**
 * Which MCP servers a request may name. A stdio server is a command this host runs, and the page is not
 * trusted with commands (its script may be compromised; on the web host, anyone with the URL drives it):
 * - CLI: the user's own `--mcp FILE`, as given;
 * - desktop app: a request with stdio servers starts only after the user allowed its exact command lines in a
 *   native dialog (the answer may be kept for the identical set until the app quits);
 * - web host: refused unless the operator started it with `parallax serve --allow-mcp` (streamable HTTP
 *   servers), and a stdio server only if its program was named with `--allow-mcp-command`.
 * From a page, env variables go by env-policy.ts's allowlist: names a loader or interpreter reads are refused
 * whatever the host (they would make an allowed command run something else), key and token variables pass, and
 * any other name passes on the web host only when the operator named it (--allow-env) and on the desktop only in
 * the dialog, which shows its value.
 */
import { createHash } from 'node:crypto';
import { checkEnvNames, DIALOG_ALLOWANCE, envLine, serveAllowance, type EnvAllowance } from './env-policy.js';
import {
  mcpCommandLine,
  mcpServersOfRequest,
  type McpHttpServer,
  type McpServerConfig,
  type McpStdioServer,
} from '../../shared/mcp-config.js';

export interface McpAccess {
  /** The request's servers, checked (a clear Error saying how to enable what was refused). */
  check(requested: unknown): Promise<McpServerConfig[]>;
}

/** What the desktop dialog answered: allowed, and whether to keep the answer for this set until the app quits. */
export interface McpConfirmation {
  readonly allowed: boolean;
  readonly remember: boolean;
}
export type ConfirmMcp = (stdio: readonly McpStdioServer[], http: readonly McpHttpServer[]) => Promise<McpConfirmation>;

function checkServerEnv(servers: readonly McpServerConfig[], allowance: EnvAllowance): void {
  for (const s of servers) if (s.transport === 'stdio') checkEnvNames(`MCP server "${s.name}"`, s.env, allowance);
}

const stdioOf = (servers: readonly McpServerConfig[]): McpStdioServer[] =>
  servers.filter((s): s is McpStdioServer => s.transport === 'stdio');

/** The CLI: its own flag, as given. */
export function cliMcp(): McpAccess {
  return { check: async (requested) => mcpServersOfRequest(requested) };
}

/** A page with no way to name servers (a host made without an MCP policy). */
export function noPageMcp(how: string): McpAccess {
  return {
    async check(requested) {
      const servers = mcpServersOfRequest(requested);
      if (servers.length > 0) throw new Error(`This host does not take MCP servers from the page. ${how}`);
      return servers;
    },
  };
}

export const WEB_MCP_HOW =
  'Start it with parallax serve --allow-mcp (streamable HTTP servers), adding --allow-mcp-command <program> for each stdio program the page may start; or run parallax compare --mcp FILE.';

/** The web host: nothing without --allow-mcp; with it, HTTP servers and stdio servers whose program was allowed. */
export function webMcp(options: {
  readonly allow: boolean;
  readonly commands?: readonly string[];
  readonly env?: readonly string[];
}): McpAccess {
  const commands = new Set(options.commands ?? []);
  const allowance = serveAllowance(options.env);
  return {
    async check(requested) {
      const servers = mcpServersOfRequest(requested);
      if (servers.length === 0) return servers;
      if (!options.allow) throw new Error(`This web host does not take MCP servers from the page. ${WEB_MCP_HOW}`);
      checkServerEnv(servers, allowance);
      for (const s of stdioOf(servers)) {
        if (!commands.has(s.command)) {
          throw new Error(
            `MCP server "${s.name}": this web host does not start the program ${s.command}. The operator can allow it with parallax serve --allow-mcp-command ${s.command}.`,
          );
        }
      }
      return servers;
    },
  };
}

/** The desktop app: stdio servers only after the user allowed their command lines in `confirm` (a native dialog). */
export function confirmedMcp(confirm: ConfirmMcp): McpAccess {
  const remembered = new Set<string>();
  return {
    async check(requested) {
      const servers = mcpServersOfRequest(requested);
      checkServerEnv(servers, DIALOG_ALLOWANCE);
      const stdio = stdioOf(servers);
      if (stdio.length === 0) return servers;
      // The identical set: every command line, folder and env (values included, kept only as a hash).
      const key = createHash('sha256')
        .update(
          JSON.stringify(stdio.map((s) => [s.name, s.command, s.args, s.cwd ?? null, Object.entries(s.env).sort()])),
        )
        .digest('hex');
      if (remembered.has(key)) return servers;
      const answer = await confirm(
        stdio,
        servers.filter((s): s is McpHttpServer => s.transport === 'http'),
      );
      if (!answer.allowed) {
        throw new Error(
          `Not allowed: the MCP server command${stdio.length > 1 ? 's were' : ' was'} refused in the confirmation, so nothing was started. Remove the servers under Advanced → MCP servers, or start again and allow them.`,
        );
      }
      if (answer.remember) remembered.add(key);
      return servers;
    },
  };
}

/** The desktop dialog's words: each exact command line, its folder and its env (a key's value never shown). */
export function mcpConfirmText(
  stdio: readonly McpStdioServer[],
  http: readonly McpHttpServer[],
): { message: string; detail: string } {
  const lines = stdio.map((s) => {
    const env = Object.entries(s.env);
    return [
      `${s.name}: ${mcpCommandLine(s)}`,
      `    in ${s.cwd ?? "each run's own copy of the workspace"}`,
      ...env.map(([name, value]) => `    env ${envLine(name, value)}`),
    ].join('\n');
  });
  const remote = http.length ? [`Also connects to: ${http.map((s) => `${s.name} (${s.url})`).join(', ')}.`] : [];
  return {
    message: `Start ${stdio.length === 1 ? 'this MCP server command' : `these ${stdio.length} MCP server commands`} for every run of the comparison?`,
    detail: [
      ...lines,
      ...remote,
      'They run as you, with your permissions. Allow only commands you configured yourself.',
    ].join('\n\n'),
  };
}
