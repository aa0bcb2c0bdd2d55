/** The login shell's PATH for GUI launches (login-path.ts), with real shells as the user's $SHELL. */
import { chmod, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mergePaths, parseShellOutput, resolveLoginPath } from '../../../electron/main/login-path.js';
import { killAll, noneLeft, uniqueSleep } from '../engine/sandbox/shell-helpers.js';

let dir = '';
beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'parallax-login-path-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** A "login shell": sh that sources an rc file first, as bash -ilc or zsh -ilc would. */
async function shellWith(name: string, rc: string): Promise<string> {
  const rcFile = path.join(dir, `${name}.rc`);
  await writeFile(rcFile, rc);
  const file = path.join(dir, name);
  await writeFile(file, `#!/bin/sh\n[ "$1" = "-ilc" ] || exit 9\n. ${rcFile}\nexec /bin/sh -c "$2"\n`);
  await chmod(file, 0o755);
  return file;
}

const gui = { platform: 'darwin' as const, fromTerminal: false };

describe('the login shell PATH', () => {
  it("takes the PATH the user's shell sets up, first, keeping the launch's folders after it", async () => {
    const shell = await shellWith(
      'zsh',
      'echo "Last login: today"\nexport PATH="/opt/homebrew/bin:$HOME/.nvm/bin:$PATH"\nexport SECRET_TOKEN=x\n',
    );
    const result = await resolveLoginPath({
      ...gui,
      env: { SHELL: shell, PATH: '/usr/bin:/bin:/usr/sbin:/sbin', HOME: '/Users/u' },
    });
    expect(result).toBe('/opt/homebrew/bin:/Users/u/.nvm/bin:/usr/bin:/bin:/usr/sbin:/sbin');
  });

  it('a PATH with spaces and banners printed around it comes through whole', async () => {
    const shell = await shellWith(
      'bash',
      'export PATH="/Applications/My Tools/bin:$PATH"\necho "fortune of the day"\n',
    );
    const result = await resolveLoginPath({ ...gui, platform: 'linux', env: { SHELL: shell, PATH: '/usr/bin' } });
    expect(result).toBe('/Applications/My Tools/bin:/usr/bin');
  });

  it('keeps PATH as it was when the shell hangs, fails or prints nothing usable', async () => {
    const hang = path.join(dir, 'hang');
    const token = uniqueSleep(); // 300 s or more: only the 0.5 s limit can end the wait within the test's own timeout
    await writeFile(hang, `#!/bin/sh\necho banner\nexec sleep ${token}\n`);
    await chmod(hang, 0o755);
    expect(await resolveLoginPath({ ...gui, env: { SHELL: hang, PATH: '/usr/bin' }, timeoutMs: 500 })).toBeNull();
    const left = await noneLeft(token); // given up and killed, not left running
    killAll(left);
    expect(left).toEqual([]);
    const broken = await shellWith('broken', 'exit 3\n');
    expect(await resolveLoginPath({ ...gui, env: { SHELL: broken, PATH: '/usr/bin' } })).toBeNull();
    expect(
      await resolveLoginPath({ ...gui, env: { SHELL: path.join(dir, 'no-such-shell'), PATH: '/usr/bin' } }),
    ).toBeNull();
  });

  it('is not asked on Windows, from a terminal, or with a relative $SHELL', async () => {
    const shell = await shellWith('sh2', 'export PATH="/extra:$PATH"\n');
    expect(
      await resolveLoginPath({ platform: 'win32', fromTerminal: false, env: { SHELL: shell, PATH: 'C:\\x' } }),
    ).toBeNull();
    expect(
      await resolveLoginPath({ platform: 'darwin', fromTerminal: true, env: { SHELL: shell, PATH: '/usr/bin' } }),
    ).toBeNull();
    expect(await resolveLoginPath({ ...gui, platform: 'linux', env: { SHELL: 'zsh', PATH: '/usr/bin' } })).toBeNull();
  });

  it('merges without repeats and finds the value between its markers', () => {
    expect(mergePaths('/a:/b:/a', '/b:/c:')).toBe('/a:/b:/c');
    expect(parseShellOutput('motd\n__PARALLAX_PATH__/x:/y__PARALLAX_PATH__\nbye')).toBe('/x:/y');
    expect(parseShellOutput('no markers')).toBeNull();
  });
});
