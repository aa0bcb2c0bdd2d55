/**
 * MCP servers as tool sources: the common `mcpServers` JSON format (Claude Desktop, Cursor, VS Code), checked
 * into the one shape the engine connects to. A stdio server is a command the user configured (trusted like
 * their shell); a streamable HTTP server is a URL. Errors name the server and the field, and say what to write.
 */
import { z } from 'zod';

/** A server's name prefixes its tools' names (`<server>_<tool>`), so it must be a short identifier. */
export const MCP_SERVER_NAME = /^[A-Za-z][A-Za-z0-9_-]{0,31}$/;
/** Connecting and listing tools; a server that takes longer is reported as timed out. */
export const MCP_STARTUP_TIMEOUT_MS = 20_000;
/** One tool call. */
export const MCP_CALL_TIMEOUT_MS = 60_000;
const MAX_SERVERS = 16;

interface McpCommon {
  readonly name: string;
  readonly startupTimeoutMs: number;
  readonly callTimeoutMs: number;
}
export interface McpStdioServer extends McpCommon {
  readonly transport: 'stdio';
  readonly command: string;
  readonly args: readonly string[];
  /** Added to a minimal base environment; nothing else of the host's environment reaches the server. */
  readonly env: Readonly<Record<string, string>>;
  /** Absent: the run's workspace. */
  readonly cwd?: string;
}
export interface McpHttpServer extends McpCommon {
  readonly transport: 'http';
  readonly url: string;
  readonly headers: Readonly<Record<string, string>>;
}
export type McpServerConfig = McpStdioServer | McpHttpServer;

const timeout = z.number().int().min(100).max(600_000);
const common = {
  startupTimeoutMs: timeout.optional(),
  callTimeoutMs: timeout.optional(),
  disabled: z.boolean().optional(),
};
const stringMap = z.record(z.string(), z.string());
const stdioSchema = z
  .object({
    type: z.literal('stdio').optional(),
    command: z.string().min(1),
    args: z.array(z.string()).optional(),
    env: stringMap.optional(),
    cwd: z.string().min(1).optional(),
    ...common,
  })
  .strict();
const httpSchema = z
  .object({
    type: z.enum(['http', 'streamable-http', 'streamableHttp']).optional(),
    url: z.url({ protocol: /^https?$/ }),
    headers: stringMap.optional(),
    ...common,
  })
  .strict();

export interface McpParseOptions {
  /**
   * A stdio server's `cwd` must be a full path (the app and the web host have no file to be relative to; the
   * CLI takes a relative one from the config file's folder).
   */
  readonly fullCwd?: boolean;
}

/** A full path on any system: /…, C:\… or \\server\… (no Node here). */
const FULL_PATH = /^(\/|[A-Za-z]:[\\/]|\\\\)/;

export class McpConfigError extends Error {
  override readonly name = 'McpConfigError';
}

/**
 * The servers of an `mcpServers` object (or a whole config file holding one), in file order. `source` names
 * where it came from in messages (a file path, "the MCP servers field"). Throws McpConfigError.
 */
export function parseMcpConfig(value: unknown, source: string, options: McpParseOptions = {}): McpServerConfig[] {
  const fail = (what: string): never => {
    throw new McpConfigError(`${source}: ${what}`);
  };
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    fail(
      'expected a JSON object with an "mcpServers" object, e.g. {"mcpServers": {"files": {"command": "npx", "args": ["-y", "@modelcontextprotocol/server-filesystem", "."]}}}.',
    );
  const servers =
    (value as { mcpServers?: unknown }).mcpServers ??
    fail('no "mcpServers" object. Put the servers under "mcpServers": {"<name>": {"command": …} or {"url": …}}.');
  if (typeof servers !== 'object' || servers === null || Array.isArray(servers))
    fail('"mcpServers" must be an object of named servers, not a list.');
  const entries = Object.entries(servers as Record<string, unknown>);
  if (entries.length > MAX_SERVERS) fail(`${entries.length} servers; at most ${MAX_SERVERS}.`);
  const out: McpServerConfig[] = [];
  for (const [name, raw] of entries) {
    const at = `MCP server "${name}"`;
    if (!MCP_SERVER_NAME.test(name))
      fail(
        `${at}: the name must start with a letter and hold only letters, digits, _ or - (at most 32): it prefixes the server's tool names.`,
      );
    if (typeof raw !== 'object' || raw === null || Array.isArray(raw))
      fail(`${at}: expected an object with "command" (stdio) or "url" (streamable HTTP).`);
    const entry = raw as Record<string, unknown>;
    if (entry.type === 'sse')
      fail(
        `${at}: "type": "sse" (the deprecated HTTP+SSE transport) is not supported; give the server's streamable HTTP URL with "type": "http".`,
      );
    const isHttp =
      'url' in entry || entry.type === 'http' || entry.type === 'streamable-http' || entry.type === 'streamableHttp';
    if (!isHttp && !('command' in entry))
      fail(`${at}: needs "command" (a program to start, with "args") or "url" (a streamable HTTP endpoint).`);
    const parsed = (isHttp ? httpSchema : stdioSchema).safeParse(entry);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      const field = issue.path.length > 0 ? issue.path.join('.') : null;
      if (issue.code === 'unrecognized_keys')
        fail(
          `${at}: unknown field${issue.keys.length > 1 ? 's' : ''} ${issue.keys.map((k) => `"${k}"`).join(', ')}. A ${isHttp ? 'streamable HTTP server takes url, headers' : 'stdio server takes command, args, env, cwd'}, startupTimeoutMs, callTimeoutMs and disabled.`,
        );
      fail(`${at}: field "${field ?? '?'}": ${fieldHint(field, issue.message)}`);
    }
    const p = parsed.data!;
    if (p.disabled) continue;
    if (options.fullCwd && 'cwd' in p && p.cwd && !FULL_PATH.test(p.cwd))
      fail(
        `${at}: field "cwd": must be a full path, e.g. "/home/me/project" (leave it out to start the server in the run's workspace).`,
      );
    const base = {
      name,
      startupTimeoutMs: p.startupTimeoutMs ?? MCP_STARTUP_TIMEOUT_MS,
      callTimeoutMs: p.callTimeoutMs ?? MCP_CALL_TIMEOUT_MS,
    };
    if ('url' in p) out.push({ ...base, transport: 'http', url: p.url, headers: p.headers ?? {} });
    else
      out.push({
        ...base,
        transport: 'stdio',
        command: p.command,
        args: p.args ?? [],
        env: p.env ?? {},
        ...(p.cwd ? { cwd: p.cwd } : {}),
      });
  }
  return out;
}

function fieldHint(field: string | null, message: string): string {
  const root = field?.split('.')[0];
  if (root === 'command') return 'must be the program to start, as a non-empty string (its arguments go in "args").';
  if (root === 'args') return 'must be a list of strings, e.g. ["-y", "some-server"].';
  if (root === 'env' || root === 'headers')
    return `must be an object of string values, e.g. {"NAME": "value"} (${message}).`;
  if (root === 'url')
    return 'must be an http(s) URL of the server\'s streamable HTTP endpoint, e.g. "http://127.0.0.1:3000/mcp".';
  if (root?.endsWith('TimeoutMs')) return 'must be a whole number of milliseconds from 100 to 600000.';
  return message;
}

/** Parse JSON text (a file's contents, a settings field) into servers; bad JSON is an McpConfigError naming `source`. */
export function parseMcpConfigText(text: string, source: string, options: McpParseOptions = {}): McpServerConfig[] {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new McpConfigError(
      `${source}: not valid JSON (${error instanceof Error ? error.message : String(error)}). Fix the file and try again.`,
    );
  }
  return parseMcpConfig(value, source, options);
}

/**
 * The servers a ComparisonRequest carries (already parsed by the sender, but a page is not trusted), checked
 * again by the one parser: each entry goes back into the `mcpServers` form, so the same errors name the same
 * server and field. A stdio `cwd` must be a full path.
 */
export function mcpServersOfRequest(value: unknown, source = 'MCP servers'): McpServerConfig[] {
  if (value === undefined || value === null) return [];
  if (!Array.isArray(value)) throw new McpConfigError(`${source}: expected a list of servers.`);
  const named: Record<string, unknown> = {};
  for (const entry of value as unknown[]) {
    if (typeof entry !== 'object' || entry === null || Array.isArray(entry))
      throw new McpConfigError(`${source}: every server must be an object with a name.`);
    const { name, transport, ...rest } = entry as Record<string, unknown>;
    if (typeof name !== 'string') throw new McpConfigError(`${source}: every server needs a name.`);
    if (Object.hasOwn(named, name))
      throw new McpConfigError(`${source}: MCP server "${name}" is named twice; give each server its own name.`);
    if (transport !== 'stdio' && transport !== 'http')
      throw new McpConfigError(`${source}: MCP server "${name}": transport must be "stdio" or "http".`);
    named[name] = { ...rest, type: transport };
  }
  return parseMcpConfig({ mcpServers: named }, source, { fullCwd: true });
}

/** A stdio server's command line as the user would type it (arguments with spaces or quotes are quoted). */
export function mcpCommandLine(server: Pick<McpStdioServer, 'command' | 'args'>): string {
  const quote = (a: string): string => (a === '' || /[\s"'\\$`]/.test(a) ? `'${a.replace(/'/g, `'\\''`)}'` : a);
  return [server.command, ...server.args].map(quote).join(' ');
}

/** "2 servers: files (stdio: npx -y @modelcontextprotocol/…), search (http: https://…)": never env or header values. */
export function mcpSummary(servers: readonly McpServerConfig[]): string {
  if (servers.length === 0) return 'No MCP servers.';
  const cut = (text: string, max: number): string => (text.length > max ? `${text.slice(0, max - 1)}…` : text);
  const one = (s: McpServerConfig): string =>
    `${s.name} (${s.transport === 'stdio' ? `stdio: ${cut(mcpCommandLine(s), 40)}` : `http: ${cut(s.url, 48)}`})`;
  return `${servers.length} server${servers.length === 1 ? '' : 's'}: ${servers.map(one).join(', ')}`;
}

/** A tool's name as the model sees it: `<server>_<tool>`, with anything but letters, digits and _ turned into _. */
export function mcpToolName(server: string, tool: string): string {
  return `${server}_${tool}`.replace(/[^A-Za-z0-9_]/g, '_').slice(0, 64);
}
