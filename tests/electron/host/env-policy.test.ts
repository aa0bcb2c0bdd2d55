/**
 * The env allowlist for commands a page or a suite file names (MCP stdio servers, agent columns): the names that
 * make an interpreter run code are refused on the desktop, on `parallax serve` and from suite files alike, each
 * refusal naming the variable and why; key and token variables pass; any other name passes only when named
 * (--allow-env) or, on the desktop, in the dialog that shows its value.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import {
  agentConfirmText,
  checkSuiteAgentEnv,
  confirmedAgents,
  webAgents,
  type ConfirmAgents,
} from '../../../electron/host/agent-access.js';
import { confirmedMcp, mcpConfirmText, webMcp, type ConfirmMcp } from '../../../electron/host/mcp-access.js';

/** The names the attack used or the issue found missing from the old denylist. */
const INTERPRETER_ENV: Record<string, string> = {
  PYTHONWARNINGS: 'ignore::antigravity.x',
  BROWSER: "sh -c 'id' #%s",
  PERLLIB: '/tmp/evil',
  JDK_JAVA_OPTIONS: '-javaagent:/tmp/evil.jar',
  SHELLOPTS: 'xtrace',
  PS4: '$(id)',
  'BASH_FUNC_ls%%': '() { id; }',
  GCONV_PATH: '/tmp/evil',
  OPENSSL_CONF: '/tmp/evil.cnf',
  NODE_OPTIONS: '--require /tmp/x.js',
  LD_PRELOAD: '/tmp/x.so',
};

const stdio = (env: Record<string, string>) => ({
  name: 'files',
  transport: 'stdio',
  command: 'python3',
  args: ['server.py'],
  env,
});
const agentColumn = (env: Record<string, string>) => [
  { mode: 'react' },
  { mode: 'agent', label: 'Mine', agent: { command: ['python3', '/srv/a.py'], env } },
];
const yes = async () => ({ allowed: true, remember: false });

describe('env names from a page or a suite file', () => {
  it('the attack is real: PYTHONWARNINGS + BROWSER make a plain python3 run a shell command', () => {
    const dir = mkdtempSync(join(tmpdir(), 'parallax-envattack-'));
    try {
      const mark = join(dir, 'ran');
      spawnSync('/usr/bin/python3', ['-c', 'pass'], {
        env: { PATH: '/usr/bin:/bin', PYTHONWARNINGS: 'ignore::antigravity.x', BROWSER: `sh -c 'touch ${mark}' #%s` },
        timeout: 20_000,
        stdio: 'ignore',
      });
      expect(existsSync(mark)).toBe(true);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  for (const [name, value] of Object.entries(INTERPRETER_ENV)) {
    it(`${name}: refused on serve, on the desktop (before any dialog) and from a suite file, saying which and why`, async () => {
      const why = new RegExp(
        `env ${name.replace(/[%$]/g, '\\$&')} is read by .+, so it could make the allowed program run other code`,
      );
      // serve, even when the operator named the name: a loader's or interpreter's name is never taken from a page.
      await expect(
        webMcp({ allow: true, commands: ['python3'], env: [name] }).check([stdio({ [name]: value })]),
      ).rejects.toThrow(why);
      // An agent column's env names are checked as variable names first: BASH_FUNC_ls%% is none.
      const agentWhy = name.includes('%') ? /"BASH_FUNC_ls%%" is not a variable name/ : why;
      await expect(webAgents(['python3'], [name]).check(agentColumn({ [name]: value }))).rejects.toThrow(agentWhy);
      const confirmMcp = vi.fn<ConfirmMcp>(yes);
      const confirmAgents = vi.fn<ConfirmAgents>(yes);
      await expect(confirmedMcp(confirmMcp).check([stdio({ [name]: value })])).rejects.toThrow(why);
      await expect(confirmedAgents(confirmAgents).check(agentColumn({ [name]: value }))).rejects.toThrow(agentWhy);
      expect(confirmMcp).not.toHaveBeenCalled();
      expect(confirmAgents).not.toHaveBeenCalled();
      expect(() =>
        checkSuiteAgentEnv(
          [{ mode: 'agent', label: 'Mine', agent: { command: ['python3', 'a.py'], env: { [name]: value } } }],
          [name],
          'suite.yaml',
        ),
      ).toThrow(why);
    });
  }

  it('key and token variables pass everywhere; their values are never shown', async () => {
    const env = { GITHUB_TOKEN: 'ghp-secret-1', BRAVE_API_KEY: 'brave-secret-2', MY_SERVICE_SECRET: 'svc-secret-3' };
    expect(await webMcp({ allow: true, commands: ['python3'] }).check([stdio(env)])).toHaveLength(1);
    await expect(webAgents(['python3']).check(agentColumn(env))).resolves.toBeUndefined();
    expect(() =>
      checkSuiteAgentEnv([{ mode: 'agent', agent: { command: ['python3', 'a.py'], env } }], [], 'suite.yaml'),
    ).not.toThrow();
    const dialog = JSON.stringify([
      mcpConfirmText([stdio(env) as never], []),
      agentConfirmText([{ label: 'Mine', agent: { command: ['python3', 'a.py'], env } }]),
    ]);
    for (const value of Object.values(env)) expect(dialog).not.toContain(value);
    expect(dialog).toContain('GITHUB_TOKEN (a key: value not shown)');
  });

  it('any other name: serve and suite files only when named with --allow-env; the desktop dialog shows its value', async () => {
    const env = { AGENT_STYLE: 'terse' };
    await expect(webMcp({ allow: true, commands: ['python3'] }).check([stdio(env)])).rejects.toThrow(
      /MCP server "files": env AGENT_STYLE is not a key or token variable .*To pass it, the operator can start parallax serve with --allow-env AGENT_STYLE\./,
    );
    await expect(webAgents(['python3']).check(agentColumn(env))).rejects.toThrow(
      /Agent column "Mine": env AGENT_STYLE is not a key or token variable/,
    );
    expect(() =>
      checkSuiteAgentEnv([{ mode: 'agent', agent: { command: ['python3', 'a.py'], env } }], [], 'suite.yaml'),
    ).toThrow(/run it with parallax suite run --allow-env AGENT_STYLE suite\.yaml/);
    expect(await webMcp({ allow: true, commands: ['python3'], env: ['AGENT_STYLE'] }).check([stdio(env)])).toHaveLength(
      1,
    );
    await expect(webAgents(['python3'], ['AGENT_STYLE']).check(agentColumn(env))).resolves.toBeUndefined();
    expect(() =>
      checkSuiteAgentEnv(
        [{ mode: 'agent', agent: { command: ['python3', 'a.py'], env } }],
        ['AGENT_STYLE'],
        'suite.yaml',
      ),
    ).not.toThrow();
    // The desktop asks, showing name and value, so what the user allows is what runs.
    const confirm = vi.fn<ConfirmAgents>(yes);
    await confirmedAgents(confirm).check(agentColumn({ AGENT_STYLE: "sh -c 'x' #%s" }));
    expect(confirm).toHaveBeenCalledTimes(1);
    expect(
      agentConfirmText([
        { label: 'Mine', agent: { command: ['python3', 'a.py'], env: { AGENT_STYLE: "sh -c 'x' #%s" } } },
      ]).detail,
    ).toContain(`env AGENT_STYLE="sh -c 'x' #%s"`);
    expect(mcpConfirmText([stdio({ AGENT_STYLE: 'terse' }) as never], []).detail).toContain('env AGENT_STYLE="terse"');
  });
});
