/**
 * safeStorage's keyring on Linux desktops Chromium does not recognise (password-store.ts): decided from the
 * desktop's name and from a real, private D-Bus session bus that has, or lacks, a Secret Service.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import {
  chromiumPicksKeyring,
  passwordStoreSwitch,
  secretServiceAnswers,
} from '../../../electron/main/password-store.js';

const hasDbus =
  spawnSync('sh', ['-c', 'command -v dbus-daemon && command -v dbus-send'], { stdio: 'ignore' }).status === 0;
const buses: ChildProcess[] = [];
const dirs: string[] = [];
afterAll(async () => {
  for (const b of buses) b.kill();
  for (const d of dirs) await rm(d, { recursive: true, force: true });
});

/** A private session bus; with `secrets`, org.freedesktop.secrets is activatable on it (as GNOME Keyring installs it). */
async function privateBus(secrets: boolean): Promise<string> {
  const dir = await mkdtemp(path.join(tmpdir(), 'parallax-dbus-'));
  dirs.push(dir);
  const services = path.join(dir, 'services');
  await mkdir(services);
  if (secrets)
    await writeFile(
      path.join(services, 'org.freedesktop.secrets.service'),
      '[D-BUS Service]\nName=org.freedesktop.secrets\nExec=/bin/false\n',
    );
  const config = path.join(dir, 'bus.conf');
  await writeFile(
    config,
    `<!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN" "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
<busconfig><type>session</type><listen>unix:path=${dir}/bus</listen><servicedir>${services}</servicedir>
<policy context="default"><allow send_destination="*" eavesdrop="true"/><allow eavesdrop="true"/><allow own="*"/></policy></busconfig>`,
  );
  const bus = spawn('dbus-daemon', ['--config-file', config, '--nofork', '--print-address'], {
    stdio: ['ignore', 'pipe', 'ignore'],
  });
  buses.push(bus);
  return await new Promise<string>((resolve, reject) => {
    bus.stdout!.once('data', (c: Buffer) => resolve(c.toString().trim()));
    bus.once('exit', (code) => reject(new Error(`dbus-daemon exited ${code}`)));
  });
}

describe('the Linux password store', () => {
  it("leaves desktops Chromium recognises, other platforms and a user's own --password-store alone", () => {
    expect(chromiumPicksKeyring('ubuntu:GNOME')).toBe(true);
    expect(chromiumPicksKeyring('KDE')).toBe(true);
    expect(chromiumPicksKeyring('sway')).toBe(false);
    expect(chromiumPicksKeyring(undefined)).toBe(false);
    const probe = () => true;
    expect(
      passwordStoreSwitch({ platform: 'linux', env: { XDG_CURRENT_DESKTOP: 'GNOME' }, userChose: false, probe }),
    ).toBeNull();
    expect(passwordStoreSwitch({ platform: 'darwin', env: {}, userChose: false, probe })).toBeNull();
    expect(
      passwordStoreSwitch({ platform: 'linux', env: { XDG_CURRENT_DESKTOP: 'i3' }, userChose: true, probe }),
    ).toBeNull();
    expect(
      passwordStoreSwitch({ platform: 'linux', env: { XDG_CURRENT_DESKTOP: 'Hyprland' }, userChose: false, probe }),
    ).toBe('gnome-libsecret');
  });

  it.runIf(hasDbus)(
    'on sway, uses libsecret when a Secret Service answers on the session bus, and not when none does',
    async () => {
      const withSecrets = await privateBus(true);
      const without = await privateBus(false);
      expect(secretServiceAnswers({ DBUS_SESSION_BUS_ADDRESS: withSecrets })).toBe(true);
      expect(secretServiceAnswers({ DBUS_SESSION_BUS_ADDRESS: without })).toBe(false);
      expect(
        passwordStoreSwitch({
          platform: 'linux',
          env: { XDG_CURRENT_DESKTOP: 'sway', DBUS_SESSION_BUS_ADDRESS: withSecrets },
          userChose: false,
        }),
      ).toBe('gnome-libsecret');
      expect(
        passwordStoreSwitch({
          platform: 'linux',
          env: { XDG_CURRENT_DESKTOP: 'sway', DBUS_SESSION_BUS_ADDRESS: without },
          userChose: false,
        }),
      ).toBeNull();
      // No session bus at all: no answer, no switch.
      expect(secretServiceAnswers({})).toBe(false);
    },
  );
});
