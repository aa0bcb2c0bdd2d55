/**
 * What MCP servers cost a run: loading the SDK (once per worker, only for runs with servers), opening the
 * reference filesystem server over stdio (spawn, initialize, tools/list: paid before the run is released), and
 * one tool call through invokeTool against a built-in tool doing the same work (read_file). Medians.
 */
import { createRequire } from 'node:module';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseSettings } from '../shared/run-spec.js';
import { findTool, invokeTool } from '../electron/engine/tools/index.js';

const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const ms = (n: number): string => `${n.toFixed(2)} ms`;

export default async function bench(): Promise<void> {
  const workspace = await mkdtemp(join(tmpdir(), 'parallax-bench-mcp-'));
  await writeFile(join(workspace, 'notes.txt'), 'alpha\n'.repeat(100));
  const ctx = { workspace, settings: parseSettings({}), signal: new AbortController().signal };
  const server = createRequire(import.meta.url).resolve('@modelcontextprotocol/server-filesystem/dist/index.js');
  try {
    const t0 = performance.now();
    const { openMcpServers } = await import('../electron/engine/mcp/mcp-servers.js');
    const sdkLoad = performance.now() - t0;
    // The reference filesystem server on the workspace, as a user's MCP settings would start it.
    const fs = { name: 'fs', transport: 'stdio', command: process.execPath, args: [server, '.'], env: {} } as const;
    const openFs = () => openMcpServers([{ ...fs, startupTimeoutMs: 20_000, callTimeoutMs: 10_000 }], workspace);

    const opens: number[] = [];
    for (let i = 0; i < 5; i++) {
      const t1 = performance.now();
      const c = await openFs();
      opens.push(performance.now() - t1);
      if (c.problems.length) throw new Error(c.problems[0].message);
      await c.close();
    }

    const c = await openFs();
    const mcpRead = c.tools.find((t) => t.name === 'fs_read_text_file')!;
    const builtIn = findTool('read_file')!;
    const calls: number[] = [];
    const local: number[] = [];
    for (let i = 0; i < 200; i++) {
      let t = performance.now();
      await invokeTool(mcpRead, { path: 'notes.txt' }, ctx);
      calls.push(performance.now() - t);
      t = performance.now();
      await invokeTool(builtIn, { path: 'notes.txt' }, ctx);
      local.push(performance.now() - t);
    }
    await c.close();

    console.log(`SDK + engine/mcp load (first import)         ${ms(sdkLoad)}`);
    console.log(
      `filesystem server open (spawn, init, list)   ${ms(median(opens))} median of ${opens.length}, ${c.tools.length} tools`,
    );
    console.log(`read through MCP (fs_read_text_file)         ${ms(median(calls))} median of ${calls.length}`);
    console.log(`read_file built in                           ${ms(median(local))} median of ${local.length}`);
  } finally {
    await rm(workspace, { recursive: true, force: true });
  }
}
