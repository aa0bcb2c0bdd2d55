/**
 * The set-up the MCP test files share: a fresh real workspace, a run's MCP connections opened in it before the
 * tests and closed after, a tool context for calls, and a lookup of a tool by the name the model calls.
 */
import { mkdtemp, realpath, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll } from 'vitest';
import { parseSettings } from '../../shared/run-spec.js';
import type { McpConnections } from '../../electron/engine/mcp/mcp-servers.js';
import type { ToolContext, ToolDefinition } from '../../electron/engine/tools/index.js';

export interface McpFixture {
  /** The workspace's real path (set once beforeAll ran). */
  readonly workspace: string;
  readonly connections: McpConnections;
  ctx(extra?: Partial<ToolContext>): ToolContext;
  tool(name: string): ToolDefinition;
}

/**
 * Registers beforeAll / afterAll: `open` starts the servers once the workspace exists (after `seed`), and
 * `cleanup` runs after the connections are closed.
 */
export function useMcpConnections(
  prefix: string,
  open: (workspace: string) => Promise<McpConnections>,
  options: { readonly timeoutMs?: number; cleanup?(): Promise<void> | void } = {},
): McpFixture {
  let workspace = '';
  let connections: McpConnections | undefined;
  beforeAll(async () => {
    workspace = await realpath(await mkdtemp(join(tmpdir(), prefix)));
    connections = await open(workspace);
  }, options.timeoutMs ?? 90_000);
  afterAll(async () => {
    await connections?.close();
    await options.cleanup?.();
    if (workspace) await rm(workspace, { recursive: true, force: true });
  });
  return {
    get workspace() {
      return workspace;
    },
    get connections() {
      if (!connections) throw new Error('the MCP connections are not open yet (used outside a test?)');
      return connections;
    },
    ctx: (extra = {}) => ({ workspace, settings: parseSettings({}), signal: new AbortController().signal, ...extra }),
    tool(name) {
      const found = connections?.tools.find((t) => t.name === name);
      if (!found) throw new Error(`no tool ${name} among ${connections?.tools.map((t) => t.name).join(', ')}`);
      return found;
    },
  };
}
