/**
 * Lists and calls every tool of the four MCP reference servers through Parallax's MCP layer (openMcpServers,
 * invokeTool) and prints one row per tool: offered or not, its signatures, and what the call gave.
 * `node --import tsx tests/helpers/mcp-reference-table.ts [--json]`
 */
import { mkdtemp, realpath, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseSettings } from '../../shared/run-spec.js';
import { mcpToolName } from '../../shared/mcp-config.js';
import { openMcpServers } from '../../electron/engine/mcp/mcp-servers.js';
import { invokeTool, signatureOf, toolResultText } from '../../electron/engine/tools/index.js';
import { pythonSignatureOf } from '../../electron/engine/sandbox/python/py-signature.js';
import { referenceCalls, referenceServers, seedReferenceWorkspace } from './mcp-reference-servers.js';

export interface ReferenceRow {
  readonly server: string;
  readonly tool: string;
  readonly offered: boolean;
  readonly signature?: string;
  readonly python?: string;
  /** lossy: the text says a part was not shown, or names a resource by its URI alone. */
  readonly outcome: 'ok' | 'lossy' | 'error' | 'not offered';
  readonly result: string;
}

/** Every tool of the four servers, called once with a 3 s call timeout (as a short-timeout config would). */
export async function referenceTable(): Promise<{ rows: ReferenceRow[]; problems: string[] }> {
  const workspace = await realpath(await mkdtemp(join(tmpdir(), 'parallax-mcp-ref-')));
  await seedReferenceWorkspace(workspace);
  const servers = referenceServers(workspace, 3000);
  const connections = await openMcpServers(servers, workspace);
  const ctx = { workspace, settings: parseSettings({}), signal: new AbortController().signal };
  const rows: ReferenceRow[] = [];
  try {
    for (const server of servers) {
      for (const [tool, args] of Object.entries(referenceCalls[server.name])) {
        const def = connections.tools.find((t) => t.name === mcpToolName(server.name, tool));
        if (!def) {
          rows.push({ server: server.name, tool, offered: false, outcome: 'not offered', result: '' });
          continue;
        }
        let outcome: ReferenceRow['outcome'] = 'ok';
        let result: string;
        try {
          result = toolResultText(await invokeTool(def, args, ctx));
          if (/not shown\]|\[resource (link )?[a-z]+:\/\/[^\s\]]*\]/.test(result)) outcome = 'lossy';
        } catch (error) {
          outcome = 'error';
          result = error instanceof Error ? error.message : String(error);
        }
        rows.push({
          server: server.name,
          tool,
          offered: true,
          signature: signatureOf(def),
          python: pythonSignatureOf(def),
          outcome,
          result,
        });
      }
    }
  } finally {
    await connections.close();
    await rm(workspace, { recursive: true, force: true });
  }
  return { rows, problems: connections.problems.map((p) => p.message) };
}

const oneLine = (text: string, max: number): string => {
  const flat = text.replace(/\s+/g, ' ').replace(/\|/g, '\\|').trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
};

if (process.argv[1]?.endsWith('mcp-reference-table.ts')) {
  const { rows, problems } = await referenceTable();
  if (process.argv.includes('--json')) {
    console.log(JSON.stringify({ rows, problems }, null, 1));
  } else {
    console.log('| server | tool | outcome | signature | python | result |\n|---|---|---|---|---|---|');
    for (const r of rows)
      console.log(
        `| ${r.server} | ${r.tool} | ${r.outcome} | ${oneLine(r.signature ?? '', 160)} | ${oneLine(r.python ?? '', 160)} | ${oneLine(r.result, 200)} |`,
      );
    for (const p of problems) console.log(`problem: ${p}`);
  }
  process.exit(0);
}
