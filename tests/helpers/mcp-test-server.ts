/**
 * A small MCP server written with the official SDK, for tests: over stdio when run as a program
 * (`node --import tsx tests/helpers/mcp-test-server.ts`), or over streamable HTTP on loopback with
 * startHttpMcpServer(). Its tools report what they were called with, so a test can check the calls.
 */
import { appendFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { z } from 'zod';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { CreateMessageResultSchema, ElicitResultSchema } from '@modelcontextprotocol/sdk/types.js';
import type { McpServerConfig, McpStdioServer } from '../../shared/mcp-config.js';

/** tsx by absolute URL, so the server starts from any working folder (it starts in the run's workspace). */
export const tsx = pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href;
export const serverScript = join(import.meta.dirname, 'mcp-test-server.ts');

/** This server over stdio as a run's config names it. */
export function stdioServer(
  name: string,
  extra: Partial<Omit<McpStdioServer, 'transport' | 'name'>> = {},
): McpServerConfig {
  return {
    name,
    transport: 'stdio',
    command: process.execPath,
    args: ['--import', tsx, serverScript],
    env: {},
    // Long enough for a loaded machine (the server starts through tsx): a test of a limit sets its own.
    startupTimeoutMs: 240_000,
    callTimeoutMs: 120_000,
    ...extra,
  };
}

/** A 1×1 PNG, base64 (the `picture` tool's image). */
export const PNG_1X1 =
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==';

export function createTestMcpServer(): McpServer {
  const server = new McpServer({ name: 'parallax-test', version: '1.0.0' });
  server.registerTool(
    'add',
    {
      description: 'Add two numbers and return their sum.',
      inputSchema: { a: z.number().describe('First addend.'), b: z.number().describe('Second addend.') },
      outputSchema: { sum: z.number() },
    },
    async ({ a, b }) => ({ content: [{ type: 'text', text: String(a + b) }], structuredContent: { sum: a + b } }),
  );
  server.registerTool(
    'echo',
    {
      description: 'Echo a text back, with the tags given.',
      inputSchema: { text: z.string(), tags: z.array(z.string()).optional() },
    },
    async ({ text, tags }) => ({
      content: [{ type: 'text', text: `echo: ${text}${tags?.length ? ` [${tags.join(',')}]` : ''}` }],
    }),
  );
  server.registerTool(
    'fail',
    {
      description: 'Always answers with an error result.',
      inputSchema: { reason: z.string() },
    },
    async ({ reason }) => ({ isError: true, content: [{ type: 'text', text: `refused: ${reason}` }] }),
  );
  server.registerTool(
    'where',
    {
      description: "Report the server process's working folder and whether an environment variable is set.",
      inputSchema: { variable: z.string() },
    },
    async ({ variable }) => ({
      content: [
        {
          type: 'text',
          text: JSON.stringify({
            cwd: process.cwd(),
            set: variable in process.env,
            value: process.env[variable] ?? null,
          }),
        },
      ],
    }),
  );
  server.registerTool(
    'sleep',
    {
      description: 'Wait for some milliseconds, then answer.',
      inputSchema: { ms: z.number().int() },
    },
    async ({ ms }) => {
      await new Promise((r) => setTimeout(r, ms));
      return { content: [{ type: 'text', text: `slept ${ms}` }] };
    },
  );
  // Hostile behaviour, as a server may have it: a flood of progress reports with bad numbers and control
  // characters, sampling requests of any size (during the call), and annotations out of range.
  server.registerTool(
    'flood',
    {
      description: 'Send many progress reports, then answer.',
      // settleMs: wait before answering, so the reports are read before the result (the SDK client handles a
      // notification a tick later than a response that came in the same read).
      inputSchema: { count: z.number().int(), settleMs: z.number().int().optional() },
    },
    async ({ count, settleMs }, extra) => {
      const token = extra._meta?.progressToken;
      if (token !== undefined) {
        await extra.sendNotification({
          method: 'notifications/progress',
          params: { progressToken: token, progress: Number.NaN, message: 'bad' },
        });
        for (let i = 1; i <= count; i++) {
          await extra.sendNotification({
            method: 'notifications/progress',
            params: { progressToken: token, progress: i, total: count, message: `step ${i}\u001b[2J\r\nrm -rf /` },
          });
        }
      }
      if (settleMs) await new Promise((r) => setTimeout(r, settleMs));
      return { content: [{ type: 'text', text: `sent ${count}` }] };
    },
  );
  server.registerTool(
    'sample',
    {
      description: 'Ask the client to sample a prompt of the given size, and return what it said.',
      // thenSleepMs: wait that long after the reply before answering (the call's own time again).
      inputSchema: { chars: z.number().int(), maxTokens: z.number().int(), thenSleepMs: z.number().int().optional() },
    },
    async ({ chars, maxTokens, thenSleepMs }, extra) => {
      try {
        // No timeout of the SDK's on this request: the client decides how long it takes (a person, a model).
        const result = await extra.sendRequest(
          {
            method: 'sampling/createMessage',
            params: {
              messages: [
                { role: 'user', content: { type: 'text', text: 'x'.repeat(chars) } },
                { role: 'user', content: { type: 'image', data: 'iVBORw0KGgo=', mimeType: 'image/png' } },
              ],
              maxTokens,
            },
          },
          CreateMessageResultSchema,
          { timeout: 600_000 },
        );
        if (thenSleepMs) await new Promise((r) => setTimeout(r, thenSleepMs));
        return { content: [{ type: 'text', text: `sampled: ${JSON.stringify(result.content)}` }] };
      } catch (error) {
        return { content: [{ type: 'text', text: `sampling failed: ${(error as Error).message}` }] };
      }
    },
  );
  // Elicitation: asks the person `times` times with the form given (any schema: a hostile server's too).
  server.registerTool(
    'ask',
    {
      description: 'Ask the person for values with a form, and return what they answered.',
      inputSchema: {
        message: z.string(),
        schema: z.record(z.string(), z.unknown()),
        times: z.number().int().optional(),
      },
    },
    async ({ message, schema, times }, extra) => {
      const answers: unknown[] = [];
      for (let i = 0; i < (times ?? 1); i++) {
        try {
          answers.push(
            await extra.sendRequest(
              { method: 'elicitation/create', params: { message, requestedSchema: schema } } as never,
              ElicitResultSchema,
              { timeout: 600_000 },
            ),
          );
        } catch (error) {
          answers.push({ error: (error as Error).message });
        }
      }
      return { content: [{ type: 'text', text: JSON.stringify(answers) }] };
    },
  );
  // Images: a 1×1 PNG (a type every API takes) and an SVG (one none takes), after a line of text.
  server.registerTool(
    'picture',
    {
      description: 'Return a picture.',
      inputSchema: {},
    },
    async () => ({
      content: [
        { type: 'text', text: 'a red dot' },
        { type: 'image', data: PNG_1X1, mimeType: 'image/png' },
        {
          type: 'image',
          data: Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"/>').toString('base64'),
          mimeType: 'image/svg+xml',
        },
      ],
    }),
  );
  server.registerTool(
    'annotated',
    {
      description: 'Return content with annotations, some of them out of range.',
      inputSchema: {},
      annotations: { title: 'Annotated parts', readOnlyHint: true, idempotentHint: true },
    },
    async () => ({
      content: [
        { type: 'text', text: 'for you', annotations: { audience: ['user', 'user'], priority: 0.9 } },
        { type: 'text', text: 'odd', annotations: { lastModified: '2025-01-01T00:00:00Z' } },
      ],
    }),
  );
  return server;
}

/** A stateless streamable HTTP endpoint at http://127.0.0.1:<port>/mcp (one server and transport per request). */
export async function startHttpMcpServer(): Promise<{ url: string; requests: () => number; close(): Promise<void> }> {
  let count = 0;
  const http: Server = createServer((req, res) => {
    count += 1;
    if (req.url !== '/mcp') {
      res.writeHead(404).end();
      return;
    }
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const server = createTestMcpServer();
      const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
      res.on('close', () => {
        void transport.close();
        void server.close();
      });
      const body = chunks.length > 0 ? (JSON.parse(Buffer.concat(chunks).toString('utf8')) as unknown) : undefined;
      void server.connect(transport).then(() => transport.handleRequest(req, res, body));
    });
  });
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  const { port } = http.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    requests: () => count,
    close: () =>
      new Promise<void>((resolve) => {
        http.closeAllConnections();
        http.close(() => resolve());
      }),
  };
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  if (process.argv.includes('--crash')) {
    process.stderr.write('test server: cannot open its database\n');
    process.exit(3);
  }
  // A test can count how many times the server was started (e.g. once per run, before its release).
  if (process.env.MCP_TEST_START_LOG) appendFileSync(process.env.MCP_TEST_START_LOG, `${process.pid}\n`);
  // --stay: a server that does not end when its stdin closes (only a kill ends it).
  if (process.argv.includes('--stay')) setInterval(() => undefined, 60_000);
  await createTestMcpServer().connect(new StdioServerTransport());
}
