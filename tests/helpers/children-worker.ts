/**
 * A worker (the real worker runtime, no model) whose run starts the children a real run can have and then
 * waits: a run_shell command as a plain process group (`sleep`, no OS sandbox: nothing but the worker ends
 * it), the Pyodide child, and an MCP stdio server that ignores its closed stdin. Once all three are up it
 * writes their pids to the file named by argv[2], so a test can kill the host and watch them.
 */
import { mkdtempSync, renameSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { serveWorker, type RunIo } from '../../electron/worker/worker-runtime.js';
import { runShellCommand } from '../../electron/engine/sandbox/shell-runner.js';
import { PySandbox } from '../../electron/engine/sandbox/python/py-sandbox.js';
import { openMcpServers } from '../../electron/engine/mcp/mcp-servers.js';
import { serverScript, stdioServer, tsx } from './mcp-test-server.js';
import type { RunSpec } from '../../shared/run-spec.js';

const readyFile = process.argv[2];

async function run(_spec: RunSpec, io: RunIo): Promise<void> {
  const workspace = mkdtempSync(join(tmpdir(), 'parallax-children-'));
  const limits = {
    timeoutMs: 600_000,
    outputBytes: 1000,
    maxProcesses: 64,
    fileBytes: 1 << 20,
    writeBudgetBytes: 1 << 20,
    tmpBytes: 1 << 20,
  };
  const shell = runShellCommand('sleep 600 & sleep 601', {
    workspace,
    env: { PATH: process.env.PATH ?? '/usr/bin:/bin' },
    limits,
    signal: new AbortController().signal,
    sandbox: { kind: 'none', reason: 'test: a plain process group', prlimit: null },
  });
  const py = new PySandbox();
  await py.warmUp();
  const mcp = await openMcpServers(
    [stdioServer('stay', { args: ['--import', tsx, serverScript, '--stay'] })],
    workspace,
  );
  if (mcp.problems.length > 0) throw new Error(mcp.problems[0].message);
  // Written whole, then renamed: the test polls for the file and must never read it half-written.
  writeFileSync(`${readyFile}.tmp`, JSON.stringify({ worker: process.pid }));
  renameSync(`${readyFile}.tmp`, readyFile);
  await shell;
  await new Promise<void>((resolve) => io.signal.addEventListener('abort', () => resolve()));
}

serveWorker(async () => run);
