/** The mcpServers format: what is accepted, and errors that name the server and the field. */
import { describe, expect, it } from 'vitest';
import {
  mcpToolName,
  parseMcpConfig,
  parseMcpConfigText,
  MCP_CALL_TIMEOUT_MS,
  MCP_STARTUP_TIMEOUT_MS,
} from '../../shared/mcp-config.js';

const parse = (servers: unknown) => parseMcpConfig({ mcpServers: servers }, 'mcp.json');
const problem = (servers: unknown): string => {
  try {
    parse(servers);
  } catch (error) {
    return (error as Error).message;
  }
  throw new Error('expected an error');
};

describe('parseMcpConfig', () => {
  it('reads stdio and streamable HTTP servers in file order, with the defaults filled in', () => {
    expect(
      parse({
        files: { command: 'npx', args: ['-y', '@modelcontextprotocol/server-filesystem', '.'], env: { TOKEN: 'x' } },
        remote: {
          type: 'http',
          url: 'https://example.com/mcp',
          headers: { Authorization: 'Bearer y' },
          callTimeoutMs: 5000,
        },
        off: { command: 'never', disabled: true },
      }),
    ).toEqual([
      {
        name: 'files',
        transport: 'stdio',
        command: 'npx',
        args: ['-y', '@modelcontextprotocol/server-filesystem', '.'],
        env: { TOKEN: 'x' },
        startupTimeoutMs: MCP_STARTUP_TIMEOUT_MS,
        callTimeoutMs: MCP_CALL_TIMEOUT_MS,
      },
      {
        name: 'remote',
        transport: 'http',
        url: 'https://example.com/mcp',
        headers: { Authorization: 'Bearer y' },
        startupTimeoutMs: MCP_STARTUP_TIMEOUT_MS,
        callTimeoutMs: 5000,
      },
    ]);
  });

  it('names the server and the field that is wrong, and says what to write', () => {
    expect(problem({ files: { command: 'npx', args: '-y server' } })).toBe(
      'mcp.json: MCP server "files": field "args": must be a list of strings, e.g. ["-y", "some-server"].',
    );
    expect(problem({ files: { command: '' } })).toMatch(
      /^mcp\.json: MCP server "files": field "command": must be the program to start/,
    );
    expect(problem({ web: { url: 'ftp://example.com' } })).toMatch(
      /^mcp\.json: MCP server "web": field "url": must be an http\(s\) URL/,
    );
    expect(problem({ files: { command: 'x', env: { A: 1 } } })).toMatch(
      /MCP server "files": field "env\.A": must be an object of string values/,
    );
    expect(problem({ files: { command: 'x', startupTimeoutMs: 5 } })).toMatch(
      /field "startupTimeoutMs": must be a whole number of milliseconds/,
    );
    expect(problem({ files: { command: 'x', cmd: 'y' } })).toMatch(
      /MCP server "files": unknown field "cmd"\. A stdio server takes command, args, env, cwd/,
    );
    expect(problem({ files: { args: [] } })).toMatch(/MCP server "files": needs "command" .* or "url"/);
    expect(problem({ old: { type: 'sse', url: 'http://x/sse' } })).toMatch(
      /MCP server "old": "type": "sse" .* is not supported/,
    );
    expect(problem({ 'my server': { command: 'x' } })).toMatch(
      /MCP server "my server": the name must start with a letter/,
    );
    expect(problem([{ command: 'x' }])).toMatch(/"mcpServers" must be an object of named servers, not a list/);
  });

  it('says when the file is not JSON or has no mcpServers', () => {
    expect(() => parseMcpConfigText('{"mcpServers": {', 'servers.json')).toThrow(
      /^servers\.json: not valid JSON \(.+\)\. Fix the file/,
    );
    expect(() => parseMcpConfig({ servers: {} }, 'servers.json')).toThrow(/^servers\.json: no "mcpServers" object/);
    expect(() => parseMcpConfig([], 'servers.json')).toThrow(/^servers\.json: expected a JSON object/);
  });

  it('makes tool names the model and Code Mode can use: <server>_<tool>, identifiers only', () => {
    expect(mcpToolName('files', 'read_text_file')).toBe('files_read_text_file');
    expect(mcpToolName('my-db', 'run.query')).toBe('my_db_run_query');
    expect(mcpToolName('s', 'x'.repeat(100))).toHaveLength(64);
  });
});

describe('servers carried by a request', () => {
  const stdio = {
    name: 'files',
    transport: 'stdio',
    command: 'npx',
    args: ['a b', "it's"],
    env: { K: 'v' },
    cwd: '/srv',
    startupTimeoutMs: 1000,
    callTimeoutMs: 2000,
  };
  it('are checked again by the same parser, so a crafted entry fails with the same words', async () => {
    const { mcpServersOfRequest } = await import('../../shared/mcp-config.js');
    expect(mcpServersOfRequest(undefined)).toEqual([]);
    expect(mcpServersOfRequest([stdio])).toEqual([stdio]);
    expect(() => mcpServersOfRequest([{ ...stdio, shell: true }])).toThrow(/MCP server "files": unknown field "shell"/);
    expect(() => mcpServersOfRequest([{ ...stdio, cwd: 'rel' }])).toThrow(/field "cwd": must be a full path/);
    expect(() => mcpServersOfRequest([stdio, stdio])).toThrow(/named twice/);
    expect(() => mcpServersOfRequest([{ ...stdio, transport: 'sse' }])).toThrow(/transport must be "stdio" or "http"/);
    expect(() => mcpServersOfRequest('x')).toThrow(/expected a list of servers/);
  });

  it('show their command line quoted as a shell would need it, and a summary without values', async () => {
    const { mcpCommandLine, mcpSummary } = await import('../../shared/mcp-config.js');
    expect(mcpCommandLine({ command: 'npx', args: ['a b', "it's", '-y'] })).toBe(`npx 'a b' 'it'\\''s' -y`);
    expect(mcpSummary([])).toBe('No MCP servers.');
    expect(
      mcpSummary([
        {
          name: 'r',
          transport: 'http',
          url: 'http://127.0.0.1:1/mcp',
          headers: { A: 'secret' },
          startupTimeoutMs: 1,
          callTimeoutMs: 1,
        },
      ]),
    ).toBe('1 server: r (http: http://127.0.0.1:1/mcp)');
  });
});
