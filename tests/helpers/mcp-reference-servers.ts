/**
 * The official MCP reference servers (installed from the registry as dev dependencies): everything (stdio, or
 * streamable HTTP on a free loopback port), memory, filesystem and sequential-thinking, as a run's config
 * names them, with sample arguments for each of their 43 tools.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { createRequire } from 'node:module';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { McpServerConfig } from '../../shared/mcp-config.js';

const require = createRequire(import.meta.url);
export const referenceServerScripts = {
  everything: require.resolve('@modelcontextprotocol/server-everything/dist/index.js'),
  memory: require.resolve('@modelcontextprotocol/server-memory/dist/index.js'),
  filesystem: require.resolve('@modelcontextprotocol/server-filesystem/dist/index.js'),
  thinking: require.resolve('@modelcontextprotocol/server-sequential-thinking/dist/index.js'),
} as const;

const stdio = (
  name: string,
  args: string[],
  env: Record<string, string> = {},
  callTimeoutMs = 120_000,
): McpServerConfig => ({
  name,
  transport: 'stdio',
  command: process.execPath,
  args,
  env,
  // Long enough for a loaded machine; a test of a limit passes its own call limit.
  startupTimeoutMs: 240_000,
  callTimeoutMs,
});

/** The four servers over stdio; the memory server keeps its graph in the workspace, filesystem serves it. */
export function referenceServers(workspace: string, callTimeoutMs = 120_000): McpServerConfig[] {
  return [
    stdio('everything', [referenceServerScripts.everything, 'stdio'], {}, callTimeoutMs),
    stdio(
      'memory',
      [referenceServerScripts.memory],
      { MEMORY_FILE_PATH: join(workspace, 'memory.jsonl') },
      callTimeoutMs,
    ),
    stdio('filesystem', [referenceServerScripts.filesystem, workspace], {}, callTimeoutMs),
    stdio('thinking', [referenceServerScripts.thinking], { DISABLE_THOUGHT_LOGGING: 'true' }, callTimeoutMs),
  ];
}

/** Files the filesystem tools' sample calls read, edit and move. */
export async function seedReferenceWorkspace(workspace: string): Promise<void> {
  await mkdir(join(workspace, 'docs'), { recursive: true });
  await writeFile(join(workspace, 'notes.txt'), 'alpha\nbeta\ngamma\n');
  await writeFile(join(workspace, 'docs', 'a.md'), '# A\n');
  await writeFile(join(workspace, 'edit-me.txt'), 'old line\n');
  await writeFile(join(workspace, 'move-me.txt'), 'moving\n');
  // A 1x1 PNG for read_media_file.
  await writeFile(
    join(workspace, 'dot.png'),
    Buffer.from(
      'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
      'base64',
    ),
  );
}

async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as AddressInfo;
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return port;
}

/** server-everything in its streamableHttp mode, on a free port; resolves once it listens. */
export async function startEverythingHttp(): Promise<{ url: string; output: () => string; close(): Promise<void> }> {
  const port = await freePort();
  const child: ChildProcess = spawn(process.execPath, [referenceServerScripts.everything, 'streamableHttp'], {
    env: { ...process.env, PORT: String(port) },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const listening = new Promise<void>((resolve, reject) => {
    const onData = (chunk: Buffer): void => {
      output += chunk.toString('utf8');
      if (output.includes('listening on port')) resolve();
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
    child.once('exit', (code) => reject(new Error(`server-everything exited (${code}): ${output}`)));
  });
  await listening;
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    output: () => output,
    close: async () => {
      if (child.exitCode !== null) return;
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill();
      await exited;
    },
  };
}

/** One sample call per tool of the four servers (tool names as the servers list them). */
export const referenceCalls: Readonly<Record<string, Readonly<Record<string, Record<string, unknown>>>>> = {
  everything: {
    echo: { message: 'hello' },
    'get-annotated-message': { messageType: 'error', includeImage: true },
    'get-env': {},
    'get-resource-links': { count: 2 },
    'get-resource-reference': { resourceType: 'Blob', resourceId: 2 },
    'get-structured-content': { location: 'Chicago' },
    'get-sum': { a: 2, b: 40 },
    'get-tiny-image': {},
    'gzip-file-as-resource': {
      name: 'hello.txt.gz',
      data: 'data:text/plain;base64,aGVsbG8gd29ybGQ=',
      outputType: 'resource',
    },
    'toggle-simulated-logging': {},
    'toggle-subscriber-updates': {},
    'trigger-long-running-operation': { duration: 6, steps: 3 },
    'get-roots-list': {},
    'trigger-elicitation-request': {},
    'trigger-url-elicitation': {},
    'trigger-sampling-request': { prompt: 'Say hi', maxTokens: 20 },
    'simulate-research-query': { topic: 'MCP' },
    'trigger-sampling-request-async': { prompt: 'Say hi', maxTokens: 20 },
    'trigger-elicitation-request-async': {},
  },
  memory: {
    create_entities: {
      entities: [
        { name: 'Ada', entityType: 'person', observations: ['wrote notes'] },
        { name: 'Engine', entityType: 'machine', observations: [] },
      ],
    },
    create_relations: { relations: [{ from: 'Ada', to: 'Engine', relationType: 'programs' }] },
    add_observations: { observations: [{ entityName: 'Ada', contents: ['likes tea'] }] },
    read_graph: {},
    search_nodes: { query: 'Ada' },
    open_nodes: { names: ['Ada'] },
    delete_observations: { deletions: [{ entityName: 'Ada', observations: ['likes tea'] }] },
    delete_relations: { relations: [{ from: 'Ada', to: 'Engine', relationType: 'programs' }] },
    delete_entities: { entityNames: ['Engine'] },
  },
  filesystem: {
    read_file: { path: 'notes.txt', head: 2 },
    read_text_file: { path: 'notes.txt', tail: 1 },
    read_media_file: { path: 'dot.png' },
    read_multiple_files: { paths: ['notes.txt', 'docs/a.md'] },
    write_file: { path: 'written.txt', content: 'new' },
    edit_file: { path: 'edit-me.txt', edits: [{ oldText: 'old line', newText: 'new line' }] },
    create_directory: { path: 'made' },
    list_directory: { path: '.' },
    list_directory_with_sizes: { path: '.', sortBy: 'size' },
    directory_tree: { path: 'docs' },
    move_file: { source: 'move-me.txt', destination: 'moved.txt' },
    search_files: { path: '.', pattern: '*.md' },
    get_file_info: { path: 'notes.txt' },
    list_allowed_directories: {},
  },
  thinking: {
    sequentialthinking: { thought: 'First step', nextThoughtNeeded: false, thoughtNumber: 1, totalThoughts: 1 },
  },
};
