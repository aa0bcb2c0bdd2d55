/**
 * Which keyring safeStorage uses on Linux. Chromium picks one from the desktop's name (XDG_CURRENT_DESKTOP):
 * libsecret on GNOME, Xfce, Cinnamon and a few more, KWallet on KDE, and on any other desktop (i3, sway,
 * Hyprland, …) `basic_text`, a hard-coded key, even when a Secret Service keyring is running. So on those
 * desktops Parallax asks the session D-Bus whether a Secret Service (org.freedesktop.secrets: GNOME Keyring,
 * KeePassXC, KWallet 6) is running or can be started, and if so passes --password-store=gnome-libsecret
 * before Electron is ready. A --password-store the user gave is kept.
 */
import { spawnSync } from 'node:child_process';

/** Desktops for which Chromium already chooses a real keyring (components/os_crypt, base/nix). */
const KNOWN_DESKTOPS = [
  'GNOME',
  'UNITY',
  'PANTHEON',
  'XFCE',
  'X-CINNAMON',
  'CINNAMON',
  'DEEPIN',
  'UKUI',
  'KDE',
  'LXQT',
];

export function chromiumPicksKeyring(xdgCurrentDesktop: string | undefined): boolean {
  return (xdgCurrentDesktop ?? '').split(':').some((d) => KNOWN_DESKTOPS.includes(d.trim().toUpperCase()));
}

/** Asks the session bus (dbus-send, from the dbus package) whether org.freedesktop.secrets runs or is activatable. */
export function secretServiceAnswers(
  env: Readonly<Record<string, string | undefined>> = process.env,
  timeoutMs = 1500,
): boolean {
  if (!env.DBUS_SESSION_BUS_ADDRESS && !env.XDG_RUNTIME_DIR) return false;
  const ask = (method: string, ...args: string[]): string => {
    const r = spawnSync(
      'dbus-send',
      [
        '--session',
        '--print-reply',
        '--dest=org.freedesktop.DBus',
        '/org/freedesktop/DBus',
        `org.freedesktop.DBus.${method}`,
        ...args,
      ],
      {
        env: env as NodeJS.ProcessEnv,
        encoding: 'utf8',
        timeout: timeoutMs,
      },
    );
    return r.status === 0 ? r.stdout : '';
  };
  if (/boolean true/.test(ask('NameHasOwner', 'string:org.freedesktop.secrets'))) return true;
  return ask('ListActivatableNames').includes('"org.freedesktop.secrets"');
}

export interface PasswordStoreOptions {
  readonly platform: NodeJS.Platform;
  readonly env: Readonly<Record<string, string | undefined>>;
  /** Whether the command line already names a store (app.commandLine.hasSwitch('password-store')). */
  readonly userChose: boolean;
  readonly probe?: () => boolean;
}

/** The --password-store value to add, or null to leave Chromium's choice. */
export function passwordStoreSwitch(options: PasswordStoreOptions): string | null {
  if (options.platform !== 'linux' || options.userChose || chromiumPicksKeyring(options.env.XDG_CURRENT_DESKTOP))
    return null;
  return (options.probe ?? (() => secretServiceAnswers(options.env)))() ? 'gnome-libsecret' : null;
}
