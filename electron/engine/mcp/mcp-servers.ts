/**
 * A run's MCP servers: each worker opens its own connections (stdio servers started in the run's workspace,
 * streamable HTTP by URL) before its run is released, lists their tools and turns each into a ToolDefinition,
 * so every mode offers them its own way and every call goes through the same runCall / program bridge,
 * approval gate, limits and recording as a built-in tool. Loaded only by runs that have servers: the SDK is
 * imported here and nowhere else in the engine.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport, getDefaultEnvironment } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import {
  CreateMessageRequestSchema,
  ElicitRequestSchema,
  ListRootsRequestSchema,
} from '@modelcontextprotocol/sdk/types.js';
import { pathToFileURL } from 'node:url';
import { mcpToolName, type McpServerConfig } from '../../../shared/mcp-config.js';
import { mcpTool, type ActiveCalls, type McpToolInfo } from './mcp-tool.js';
import type { Sampler, SamplingParams } from './mcp-sampling.js';
import type { Elicitor } from './mcp-elicitation.js';
import type { ToolDefinition } from '../tools/tool.js';
import { trackChild } from '../child-processes.js';

/** What a server wrote to stderr, kept for its error message; the rest is dropped. */
const STDERR_KEEP_CHARS = 4000;
/** More tools than this from one server are left out, with a warning. */
const MAX_TOOLS_PER_SERVER = 200;
/**
 * A server's tool list is sent with every ReAct request, so a server must not make it grow without bound (a 1.5 MB
 * description made every request 1.5 MB): a description is cut at MCP_DESCRIPTION_CHARS, a tool whose input
 * schema is longer than MCP_SCHEMA_CHARS of JSON is left out (a cut schema would be wrong), a longer output schema
 * is dropped, and once a server's tools reach MCP_SERVER_OFFER_CHARS in all its further tools are left out. The
 * description cap leaves real servers' descriptions whole (the reference sequential-thinking server's is 2,781).
 */
export const MCP_DESCRIPTION_CHARS = 8000;
export const MCP_SCHEMA_CHARS = 16_000;
export const MCP_SERVER_OFFER_CHARS = 128_000;
/** Waiting for a server to end its HTTP session at the end of a run. */
const SESSION_END_TIMEOUT_MS = 3000;

export interface McpServerProblem {
  readonly server: string;
  readonly message: string;
}

export interface McpConnections {
  /** Every server's tools, in config order, then the server's own order. */
  readonly tools: readonly ToolDefinition[];
  /** Servers that failed to start, timed out or answered with an error; their tools are missing from the run. */
  readonly problems: readonly McpServerProblem[];
  /** Tools per server that connected. */
  readonly servers: readonly { readonly name: string; readonly tools: number }[];
  /** What answers the servers' own requests in this run (sampling); before it is given, they are refused. */
  attach(hooks: McpRunHooks): void;
  close(): Promise<void>;
}

export interface McpRunHooks {
  readonly sample?: Sampler;
  readonly elicit?: Elicitor;
}

/** Locale and time zone on top of the SDK's minimal base (HOME, PATH, USER, …): never the host's keys. */
function serverEnv(config: Readonly<Record<string, string>>): Record<string, string> {
  const base: Record<string, string> = { ...getDefaultEnvironment() };
  for (const name of ['LANG', 'LC_ALL', 'TZ', 'SYSTEMROOT', 'TEMP', 'TMP']) {
    const value = process.env[name];
    if (value !== undefined) base[name] = value;
  }
  return { ...base, ...config };
}

class StderrTail {
  private text = '';
  add(chunk: unknown): void {
    this.text = (this.text + String(chunk)).slice(-STDERR_KEEP_CHARS);
  }
  toString(): string {
    const t = this.text.trim();
    return t ? ` Its stderr ended with: ${t.split('\n').slice(-6).join(' | ')}` : '';
  }
}

function withTimeout<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`timed out after ${ms} ms while ${what}`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

interface OpenServer {
  readonly client: Client;
  readonly tools: McpToolInfo[];
  readonly transport: Transport;
  readonly active: ActiveCalls;
}

async function openServer(
  server: McpServerConfig,
  workspace: string,
  stderr: StderrTail,
  hooks: { current: McpRunHooks },
): Promise<OpenServer> {
  let transport: Transport;
  if (server.transport === 'stdio') {
    // The model's arguments never reach this command line: they travel as JSON-RPC over the pipe.
    const stdio = new StdioClientTransport({
      command: server.command,
      args: [...server.args],
      env: serverEnv(server.env),
      cwd: server.cwd ?? workspace,
      stderr: 'pipe',
    });
    stdio.stderr?.on('data', (chunk: unknown) => stderr.add(chunk));
    transport = stdio;
  } else {
    transport = new StreamableHTTPClientTransport(new URL(server.url), {
      requestInit: { headers: { ...server.headers } },
    });
  }
  // Roots: the run's workspace (what a stdio server started there already serves). Elicitation: the person
  // answers where the run can ask them (mcp-elicitation.ts), else it is declined. Sampling: the run's own
  // model answers (mcp-sampling.ts). Both only during one of the server's calls.
  const client = new Client(
    { name: 'parallax', version: '1.0.0' },
    { capabilities: { roots: { listChanged: false }, elicitation: { form: {} }, sampling: {} } },
  );
  const active: ActiveCalls = new Map();
  client.setRequestHandler(ListRootsRequestSchema, () => ({
    roots: [{ uri: pathToFileURL(workspace).href, name: 'workspace' }],
  }));
  client.setRequestHandler(ElicitRequestSchema, async (request, extra) => {
    const elicit = hooks.current.elicit;
    const call = [...active.keys()].at(-1) ?? null;
    if (!elicit) return { action: 'decline' as const };
    // The call waits on a person: its timeout stops meanwhile.
    const resume = call ? active.get(call)!.pause() : () => undefined;
    try {
      const r = await elicit(server.name, request.params, call, extra.signal);
      return {
        action: r.action,
        ...(r.content ? { content: r.content as Record<string, string | number | boolean | string[]> } : {}),
      };
    } finally {
      resume();
    }
  });
  client.setRequestHandler(CreateMessageRequestSchema, async (request, extra) => {
    const sample = hooks.current.sample;
    if (!sample) throw new Error('This client answers sampling only during a run.');
    // The latest of the server's calls running now is the one that asked (a server may run several at once).
    const call = [...active.keys()].at(-1) ?? null;
    // The call waits on us (an approval, the model's reply): its timeout stops meanwhile.
    const resume = call ? active.get(call)!.pause() : () => undefined;
    try {
      return await sample(server.name, request.params as unknown as SamplingParams, call, extra.signal);
    } finally {
      resume();
    }
  });
  const tools: McpToolInfo[] = [];
  // Killed with the worker if its host is gone; a server that ignores its closed stdin would stay otherwise.
  const untrack = trackChild(() => {
    const pid = (transport as Partial<StdioClientTransport>).pid;
    if (pid) process.kill(pid, 'SIGKILL');
  });
  transport.onclose = untrack;
  try {
    await withTimeout(
      client.connect(transport, { timeout: server.startupTimeoutMs }),
      server.startupTimeoutMs,
      'connecting',
    );
    let cursor: string | undefined;
    do {
      const page = await withTimeout(
        client.listTools(cursor ? { cursor } : {}, { timeout: server.startupTimeoutMs }),
        server.startupTimeoutMs,
        'listing its tools',
      );
      tools.push(...(page.tools as McpToolInfo[]));
      cursor = page.nextCursor;
    } while (cursor && tools.length < MAX_TOOLS_PER_SERVER);
  } catch (error) {
    await client.close().catch(() => undefined);
    throw error;
  }
  return { client, tools, transport, active };
}

/** A streamable HTTP session is ended with DELETE (the server frees it at once), then the connection is closed. */
async function closeServer(open: OpenServer): Promise<void> {
  if (open.transport instanceof StreamableHTTPClientTransport && open.transport.sessionId) {
    // A server that does not support ending sessions answers 405, which the SDK takes as done.
    await withTimeout(open.transport.terminateSession(), SESSION_END_TIMEOUT_MS, 'ending its session').catch(
      () => undefined,
    );
  }
  await open.client.close().catch(() => undefined);
}

/** Open every server at once; a failing server is a problem, never an exception, so the run goes on without it. */
export async function openMcpServers(
  servers: readonly McpServerConfig[],
  workspace: string,
  reserved: readonly string[] = [],
): Promise<McpConnections> {
  const opened: { server: McpServerConfig; open: OpenServer }[] = [];
  const problems: McpServerProblem[] = [];
  const hooks: { current: McpRunHooks } = { current: {} };
  await Promise.all(
    servers.map(async (server) => {
      const stderr = new StderrTail();
      try {
        opened.push({ server, open: await openServer(server, workspace, stderr, hooks) });
      } catch (error) {
        const where = server.transport === 'stdio' ? `the command "${server.command}"` : server.url;
        const message = error instanceof Error ? error.message : String(error);
        problems.push({
          server: server.name,
          message: `MCP server "${server.name}" (${where}) failed to start: ${message}.${stderr} Its tools are not offered in this run; check the server's entry in the MCP config.`,
        });
      }
    }),
  );
  opened.sort((a, b) => servers.indexOf(a.server) - servers.indexOf(b.server));
  problems.sort(
    (a, b) => servers.findIndex((s) => s.name === a.server) - servers.findIndex((s) => s.name === b.server),
  );
  const tools: ToolDefinition[] = [];
  const taken = new Set<string>(reserved);
  for (const { server, open } of opened) {
    if (open.tools.length > MAX_TOOLS_PER_SERVER) {
      problems.push({
        server: server.name,
        message: `MCP server "${server.name}" lists more than ${MAX_TOOLS_PER_SERVER} tools; only the first ${MAX_TOOLS_PER_SERVER} are offered.`,
      });
    }
    let offered = 0;
    for (const info of open.tools.slice(0, MAX_TOOLS_PER_SERVER)) {
      const name = mcpToolName(server.name, info.name);
      if (info.execution?.taskSupport === 'required') {
        problems.push({
          server: server.name,
          message: `MCP server "${server.name}": its tool "${info.name}" runs only as a task (MCP's task-based execution), which Parallax does not support; it is left out.`,
        });
        continue;
      }
      if (taken.has(name)) {
        problems.push({
          server: server.name,
          message: `MCP server "${server.name}": its tool "${info.name}" has the same name as another tool (${name}) and is left out.`,
        });
        continue;
      }
      const capped = cappedTool(server.name, info, offered, problems);
      if (!capped) continue;
      offered += capped.size;
      taken.add(name);
      tools.push(mcpTool(server, capped.info, name, open.client, open.active));
    }
  }
  return {
    tools,
    problems,
    servers: opened.map(({ server, open }) => ({ name: server.name, tools: open.tools.length })),
    attach(next) {
      hooks.current = next;
    },
    async close() {
      hooks.current = {};
      await Promise.all(opened.map(({ open }) => closeServer(open)));
    },
  };
}

const count = (n: number) => n.toLocaleString('en-US');

/** The tool within the caps (MCP_DESCRIPTION_CHARS …) and what it adds to its server's offer; null: left out. */
function cappedTool(
  server: string,
  info: McpToolInfo,
  offered: number,
  problems: McpServerProblem[],
): { info: McpToolInfo; size: number } | null {
  const say = (message: string) => problems.push({ server, message: `MCP server "${server}": ${message}` });
  const input = JSON.stringify(info.inputSchema ?? {}).length;
  if (input > MCP_SCHEMA_CHARS) {
    say(
      `the input schema of its tool "${info.name}" is ${count(input)} characters of JSON, more than the ${count(MCP_SCHEMA_CHARS)} a tool may send; the tool is left out.`,
    );
    return null;
  }
  let capped: McpToolInfo = info;
  const description = typeof info.description === 'string' ? info.description.trim() : '';
  if (description.length > MCP_DESCRIPTION_CHARS) {
    say(
      `the description of its tool "${info.name}" has ${count(description.length)} characters; only the first ${count(MCP_DESCRIPTION_CHARS)} are sent with the tool.`,
    );
    capped = {
      ...capped,
      description: `${description.slice(0, MCP_DESCRIPTION_CHARS)} [cut by Parallax: the server's description has ${count(description.length)} characters; the first ${count(MCP_DESCRIPTION_CHARS)} are sent]`,
    };
  }
  const output = info.outputSchema ? JSON.stringify(info.outputSchema).length : 0;
  if (output > MCP_SCHEMA_CHARS) {
    say(
      `the output schema of its tool "${info.name}" is ${count(output)} characters of JSON, more than the ${count(MCP_SCHEMA_CHARS)} kept; its result is described as a string.`,
    );
    const { outputSchema: _dropped, ...rest } = capped;
    capped = rest;
  }
  const size = input + Math.min(description.length, MCP_DESCRIPTION_CHARS) + (capped.outputSchema ? output : 0);
  if (offered + size > MCP_SERVER_OFFER_CHARS) {
    say(
      `its tools' descriptions and schemas pass ${count(MCP_SERVER_OFFER_CHARS)} characters in all; its tool "${info.name}" is left out.`,
    );
    return null;
  }
  return { info: capped, size };
}
