/** Which MCP servers a request may name: the CLI's as given, the desktop after its dialog, the web host by its flags. */
import { describe, expect, it, vi } from 'vitest';
import {
  cliMcp,
  confirmedMcp,
  mcpConfirmText,
  noPageMcp,
  webMcp,
  type ConfirmMcp,
} from '../../../electron/host/mcp-access.js';

const stdio = (name: string, extra: Record<string, unknown> = {}) => ({
  name,
  transport: 'stdio',
  command: 'node',
  args: ['server.js', '--root', '/a b'],
  env: { API_TOKEN: 'tok-secret' },
  startupTimeoutMs: 1000,
  callTimeoutMs: 1000,
  ...extra,
});
const http = {
  name: 'remote',
  transport: 'http',
  url: 'http://127.0.0.1:9/mcp',
  headers: {},
  startupTimeoutMs: 1000,
  callTimeoutMs: 1000,
};

describe('MCP access', () => {
  it('CLI: every server as given; a page without a policy: none', async () => {
    expect(await cliMcp().check([stdio('a', { env: { PATH: '/x' } })])).toHaveLength(1);
    await expect(noPageMcp('Use the CLI.').check([http])).rejects.toThrow(
      'This host does not take MCP servers from the page. Use the CLI.',
    );
    expect(await noPageMcp('Use the CLI.').check(undefined)).toEqual([]);
  });

  it('web host: nothing without --allow-mcp; with it, HTTP servers and only the stdio programs allowed', async () => {
    await expect(webMcp({ allow: false }).check([http])).rejects.toThrow(
      /does not take MCP servers from the page\. Start it with parallax serve --allow-mcp/,
    );
    expect(await webMcp({ allow: true }).check([http])).toHaveLength(1);
    await expect(webMcp({ allow: true }).check([stdio('a')])).rejects.toThrow(
      'MCP server "a": this web host does not start the program node. The operator can allow it with parallax serve --allow-mcp-command node.',
    );
    expect(await webMcp({ allow: true, commands: ['node'] }).check([stdio('a'), http])).toHaveLength(2);
    await expect(
      webMcp({ allow: true, commands: ['node'] }).check([stdio('a', { env: { NODE_OPTIONS: '--require /tmp/x.js' } })]),
    ).rejects.toThrow(
      /env NODE_OPTIONS is read by Node\.js and its package managers, so it could make the allowed program run other code/,
    );
    // Package managers' settings would make `npx -y <package>` fetch another registry's package.
    for (const name of ['npm_config_registry', 'PIP_INDEX_URL', 'UV_INDEX_URL', 'GIT_SSH_COMMAND', 'HOME']) {
      await expect(
        webMcp({ allow: true, commands: ['node'] }).check([stdio('a', { env: { [name]: 'x' } })]),
        name,
      ).rejects.toThrow(new RegExp(`env ${name} is read by .+, so it could make the allowed program run other code`));
    }
    await expect(
      webMcp({ allow: true, commands: ['node'] }).check([stdio('a', { env: { GITHUB_TOKEN: 'x' } })]),
    ).resolves.toBeDefined();
  });

  it('desktop: asks before stdio servers, refuses when refused, remembers only when asked to and only the identical set', async () => {
    const confirm = vi.fn<ConfirmMcp>(async () => ({ allowed: false, remember: false }));
    const access = confirmedMcp(confirm);
    expect(await access.check([http])).toHaveLength(1); // no command: nothing to ask
    expect(confirm).not.toHaveBeenCalled();
    await expect(access.check([stdio('a'), http])).rejects.toThrow(/^Not allowed: the MCP server command was refused/);
    expect(confirm.mock.calls[0]![0].map((s) => s.name)).toEqual(['a']);
    expect(confirm.mock.calls[0]![1].map((s) => s.name)).toEqual(['remote']);
    confirm.mockResolvedValueOnce({ allowed: true, remember: false });
    expect(await access.check([stdio('a')])).toHaveLength(1);
    confirm.mockResolvedValueOnce({ allowed: true, remember: true });
    expect(await access.check([stdio('a')])).toHaveLength(1);
    expect(confirm).toHaveBeenCalledTimes(3);
    expect(await access.check([stdio('a')])).toHaveLength(1); // remembered
    expect(confirm).toHaveBeenCalledTimes(3);
    // Another argument or another env value is another set: asked again (and refused here).
    await expect(access.check([stdio('a', { args: ['evil.js'] })])).rejects.toThrow(/Not allowed/);
    await expect(access.check([stdio('a', { env: { API_TOKEN: 'other' } })])).rejects.toThrow(/Not allowed/);
    expect(confirm).toHaveBeenCalledTimes(5);
    await expect(access.check([stdio('a', { env: { LD_PRELOAD: '/tmp/x.so' } })])).rejects.toThrow(/env LD_PRELOAD/);
    expect(confirm).toHaveBeenCalledTimes(5);
  });

  it("the dialog lists each exact command line, its folder and env, never a key's value", () => {
    const [a] = [stdio('a')] as never[];
    const text = mcpConfirmText([a, stdio('b', { cwd: '/srv/b', env: {} }) as never], [http as never]);
    expect(text.message).toBe('Start these 2 MCP server commands for every run of the comparison?');
    expect(text.detail).toContain(
      "a: node server.js --root '/a b'\n    in each run's own copy of the workspace\n    env API_TOKEN (a key: value not shown)",
    );
    expect(text.detail).toContain("b: node server.js --root '/a b'\n    in /srv/b");
    expect(text.detail).toContain('Also connects to: remote (http://127.0.0.1:9/mcp).');
    expect(JSON.stringify(text)).not.toContain('tok-secret');
  });
});
