/** Which agent columns a request may carry: the CLI's as given, the desktop after its dialog, the web host by its flag. */
import { describe, expect, it, vi } from 'vitest';
import {
  agentConfirmText,
  cliAgents,
  confirmedAgents,
  noPageAgents,
  webAgents,
  type ConfirmAgents,
} from '../../../electron/host/agent-access.js';

const column = (command: string[], env: Record<string, string> = { AGENT_SECRET: 'tok-secret' }) => ({
  mode: 'agent',
  label: 'Mine',
  agent: { command, env },
});
const variants = (...cols: object[]) => [{ mode: 'react' }, ...cols];

describe('agent column access', () => {
  it('CLI: as given; a page without a policy: no agent column, other variants pass', async () => {
    await expect(cliAgents().check(variants(column(['sh', '-c', 'x'], { LD_PRELOAD: 'x' })))).resolves.toBeUndefined();
    await expect(noPageAgents('Use the CLI.').check(variants(column(['python3', 'a.py'])))).rejects.toThrow(
      'This host does not run agent columns from the page. Use the CLI.',
    );
    await expect(noPageAgents('Use the CLI.').check(variants())).resolves.toBeUndefined();
    await expect(noPageAgents('Use the CLI.').check(undefined)).resolves.toBeUndefined();
  });

  it('web host: only programs the operator named, exactly; loader env refused', async () => {
    await expect(webAgents([]).check(variants(column(['python3', 'a.py'])))).rejects.toThrow(
      /does not start the program python3\. The operator can allow it with parallax serve --allow-agent-command python3/,
    );
    await expect(webAgents(['python3']).check(variants(column(['python3', 'a.py'])))).resolves.toBeUndefined();
    await expect(webAgents(['python3']).check(variants(column(['/usr/bin/python3', 'a.py'])))).rejects.toThrow(
      /does not start the program \/usr\/bin\/python3/,
    );
    // Extra read-only paths from a page would show more of the operator's files to the allowed program.
    const withPaths = { mode: 'agent', label: 'Mine', agent: { command: ['python3', 'a.py'], paths: ['/srv/data'] } };
    await expect(webAgents(['python3']).check(variants(withPaths))).rejects.toThrow(
      /agent\.paths is not taken from a page on this web host/,
    );
    for (const name of ['PATH', 'PYTHONPATH', 'LD_PRELOAD', 'NODE_OPTIONS', 'HOME']) {
      await expect(
        webAgents(['python3']).check(variants(column(['python3', 'a.py'], { [name]: 'x' }))),
        name,
      ).rejects.toThrow(new RegExp(`env ${name} is read by .+, so it could make the allowed program run other code`));
    }
  });

  it('desktop: asks before agent columns, refuses when refused, remembers only the identical set when asked to', async () => {
    const confirm = vi.fn<ConfirmAgents>(async () => ({ allowed: false, remember: false }));
    const access = confirmedAgents(confirm);
    await access.check(variants());
    expect(confirm).not.toHaveBeenCalled();
    await expect(access.check(variants(column(['python3', 'a.py'])))).rejects.toThrow(
      /^Not allowed: the agent command was refused/,
    );
    confirm.mockResolvedValueOnce({ allowed: true, remember: true });
    await access.check(variants(column(['python3', 'a.py'])));
    await access.check(variants(column(['python3', 'a.py'])));
    expect(confirm).toHaveBeenCalledTimes(2);
    // Another argument or another env value is another set: asked again (and refused here).
    await expect(access.check(variants(column(['python3', 'b.py'])))).rejects.toThrow(/Not allowed/);
    await expect(access.check(variants(column(['python3', 'a.py'], { AGENT_SECRET: 'other' })))).rejects.toThrow(
      /Not allowed/,
    );
    expect(confirm).toHaveBeenCalledTimes(4);
  });

  it("the dialog shows each exact command line and its env, never a key's value", () => {
    const text = agentConfirmText([
      { label: 'Mine', agent: { command: ['python3', '/srv/my agent.py'], env: { AGENT_SECRET: 'tok-secret' } } },
    ]);
    expect(text.message).toBe('Run this agent command for every run of its column?');
    expect(text.detail).toContain(
      "Mine: python3 '/srv/my agent.py'\n    in each run's own copy of the workspace\n    env AGENT_SECRET (a key: value not shown)",
    );
    expect(JSON.stringify(text)).not.toContain('tok-secret');
    const listed = agentConfirmText([
      { label: 'Mine', agent: { command: ['python3', '/srv/agent.py'], paths: ['/srv/data', '/srv/cases.json'] } },
    ]);
    expect(listed.detail).toContain(
      "Mine: python3 /srv/agent.py\n    in each run's own copy of the workspace\n    also shown read-only: /srv/data, /srv/cases.json",
    );
  });

  it('the dialog says what the agents can reach in each configuration, never "never with your key" where /proc or files hold it', () => {
    const columns = [{ label: 'Mine', agent: { command: ['python3', 'a.py'] } }];
    const bwrap = agentConfirmText(columns, { kind: 'bubblewrap', reason: '', unshare: null }).detail;
    expect(bwrap).toMatch(
      /no key: they reach the model through its recording proxy.*bubblewrap sandbox: no network but that proxy, no other process visible/,
    );
    const netns = agentConfirmText(columns, { kind: 'none', reason: '', unshare: '/usr/bin/unshare' }).detail;
    expect(netns).toMatch(
      /no OS sandbox here, so they run as you: they can read and write your files \(a key stored in a file included\) and reach any network; a user namespace of their own keeps the environment and memory of your other processes from them/,
    );
    const bare = agentConfirmText(columns, { kind: 'none', reason: '', unshare: null }).detail;
    expect(bare).toMatch(/they can also read the environment and memory of your other processes, where a key may be/);
    for (const text of [bwrap, netns, bare]) expect(text).not.toMatch(/never with your key/);
  });
});
