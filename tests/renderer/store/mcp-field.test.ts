/** The composer's MCP servers field: checked as typed, a summary line, and what the request carries. */
import { describe, expect, it } from 'vitest';
import { INITIAL_FORM } from '../../../renderer/store/composer-slice.js';
import { buildRequest, savedForm } from '../../../renderer/store/composer-model.js';
import { checkMcpField } from '../../../renderer/store/mcp-field.js';

const CONFIG = JSON.stringify(
  {
    mcpServers: {
      files: {
        command: 'npx',
        args: ['-y', '@modelcontextprotocol/server-filesystem', '/home/me/notes'],
        env: { FS_TOKEN: 'secret-42' },
      },
      search: { type: 'http', url: 'https://mcp.example.com/search/v1/mcp', headers: { Authorization: 'Bearer t0k' } },
    },
  },
  null,
  2,
);

describe('MCP servers field', () => {
  it('is empty by default: no servers, no error, nothing in the request', () => {
    expect(checkMcpField(undefined)).toEqual({ servers: [], error: null, summary: null });
    expect(checkMcpField('   ')).toEqual({ servers: [], error: null, summary: null });
    expect(buildRequest(INITIAL_FORM).request).not.toHaveProperty('mcpServers');
  });

  it('summarizes the servers in one line, without env or header values', () => {
    const check = checkMcpField(CONFIG);
    expect(check.error).toBeNull();
    expect(check.summary).toBe(
      '2 servers: files (stdio: npx -y @modelcontextprotocol/server-fil…), search (http: https://mcp.example.com/search/v1/mcp)',
    );
    expect(check.summary).not.toMatch(/secret-42|t0k|FS_TOKEN/);
  });

  it("shows the parser's error naming the server and the field, and blocks the run", () => {
    const bad = (servers: unknown) => checkMcpField(JSON.stringify({ mcpServers: servers })).error;
    expect(bad({ files: { command: 'npx', args: '-y x' } })).toBe(
      'MCP server "files": field "args": must be a list of strings, e.g. ["-y", "some-server"].',
    );
    expect(bad({ web: { url: 'ftp://x' } })).toMatch(/^MCP server "web": field "url": must be an http\(s\) URL/);
    expect(bad({ files: { command: 'x', cwd: 'notes' } })).toMatch(
      /^MCP server "files": field "cwd": must be a full path/,
    );
    expect(checkMcpField('{"mcpServers": {').error).toMatch(/^Not valid JSON/);
    const { request, errors } = buildRequest({ ...INITIAL_FORM, mcpConfig: '{"servers": {}}' });
    expect(request).toBeNull();
    expect(errors.mcp).toMatch(/^No "mcpServers" object/);
  });

  it('sends the parsed servers and the mcp approval only while servers are configured', () => {
    const settings = { ...INITIAL_FORM.settings, approvals: { mcp: 'ask' as const } };
    const { request } = buildRequest({ ...INITIAL_FORM, settings, mcpConfig: CONFIG });
    expect(request?.mcpServers?.map((s) => [s.name, s.transport])).toEqual([
      ['files', 'stdio'],
      ['search', 'http'],
    ]);
    expect(request?.mcpServers?.[0]).toMatchObject({ command: 'npx', env: { FS_TOKEN: 'secret-42' } });
    expect(request?.settings?.approvals).toEqual({ mcp: 'ask' });
    const without = buildRequest({ ...INITIAL_FORM, settings, mcpConfig: '' }).request;
    expect(without).not.toHaveProperty('mcpServers');
    expect(without?.settings?.approvals).toEqual({});
  });

  it("is saved with the composer's other settings, its env and header values blanked (they may be tokens)", () => {
    const saved = savedForm({ ...INITIAL_FORM, mcpConfig: CONFIG }).mcpConfig!;
    expect(saved).not.toContain('secret-42');
    expect(saved).not.toContain('t0k');
    const servers = (
      JSON.parse(saved) as {
        mcpServers: Record<string, { env?: object; headers?: object; command?: string; url?: string }>;
      }
    ).mcpServers;
    expect(servers.files).toMatchObject({ command: 'npx', env: { FS_TOKEN: '' } });
    expect(servers.search).toMatchObject({
      url: 'https://mcp.example.com/search/v1/mcp',
      headers: { Authorization: '' },
    });
    // Text that does not parse is not saved: it may hold a token.
    expect(savedForm({ ...INITIAL_FORM, mcpConfig: '{"mcpServers": {"x": {"env": {"T": "sk-live' })).not.toHaveProperty(
      'mcpConfig',
    );
  });
});
