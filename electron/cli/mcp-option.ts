/** `--mcp FILE` for run, compare, tools and exec: MCP servers in the common `mcpServers` JSON format. */
import { readFile } from 'node:fs/promises';
import { dirname, isAbsolute, resolve } from 'node:path';
import type { Command } from 'commander';
import { parseMcpConfigText, type McpServerConfig } from '../../shared/mcp-config.js';

export const MCP_FLAG_HELP =
  'MCP servers whose tools every mode offers: a JSON file with {"mcpServers": {"<name>": {"command", "args", "env"} or {"url", "headers"}}}';

export function addMcpOption(cmd: Command): Command {
  return cmd.option('--mcp <file>', MCP_FLAG_HELP);
}

/** The file's servers; a relative `cwd` is taken from the file's folder. Errors name the file, the server and the field. */
export async function readMcpFile(file: string | undefined): Promise<McpServerConfig[]> {
  if (file === undefined) return [];
  const path = resolve(file);
  const text = await readFile(path, 'utf8').catch((error: NodeJS.ErrnoException) => {
    throw new Error(
      error.code === 'ENOENT'
        ? `--mcp: no file at ${path}. Give the path of a JSON file with an "mcpServers" object.`
        : `--mcp: cannot read ${path}: ${error.message}`,
    );
  });
  const servers = parseMcpConfigText(text, `--mcp ${path}`);
  return servers.map((s) =>
    s.transport === 'stdio' && s.cwd && !isAbsolute(s.cwd) ? { ...s, cwd: resolve(dirname(path), s.cwd) } : s,
  );
}
