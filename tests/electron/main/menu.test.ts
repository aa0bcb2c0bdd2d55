import type { MenuItemConstructorOptions } from 'electron';
import { describe, expect, it, vi } from 'vitest';
import type { MenuCommand } from '../../../shared/ipc-contract.js';
import { buildMenuTemplate, collectAccelerators } from '../../../electron/main/menu.js';

const COMMANDS: MenuCommand[] = ['new-comparison', 'run', 'cancel', 'open-history', 'export', 'toggle-theme'];

function flatten(items: readonly MenuItemConstructorOptions[]): MenuItemConstructorOptions[] {
  return items.flatMap((i) => [i, ...(Array.isArray(i.submenu) ? flatten(i.submenu) : [])]);
}

function build(platform: NodeJS.Platform, dev = false) {
  const sendCommand = vi.fn();
  const openDataFolder = vi.fn();
  const template = buildMenuTemplate({ platform, appName: 'Parallax', dev, sendCommand, openDataFolder });
  return { template, items: flatten(template), sendCommand, openDataFolder };
}

describe('application menu', () => {
  it.each(['linux', 'win32'] as const)('binds the app commands on %s', (platform) => {
    const { items } = build(platform);
    const byId = Object.fromEntries(items.filter((i) => i.id).map((i) => [i.id, i.accelerator]));
    expect(byId).toEqual({
      'new-comparison': 'CmdOrCtrl+N',
      run: 'CmdOrCtrl+Enter',
      cancel: 'CmdOrCtrl+.',
      'open-history': 'CmdOrCtrl+H',
      export: 'CmdOrCtrl+E',
      'toggle-theme': 'CmdOrCtrl+Shift+L',
    });
  });

  it('moves Open History off Cmd+H on macOS, where it means Hide', () => {
    const { items } = build('darwin');
    expect(items.find((i) => i.id === 'open-history')?.accelerator).toBe('CmdOrCtrl+Shift+H');
    expect(items.some((i) => i.role === 'hide')).toBe(true);
  });

  it("shows Run's shortcut but leaves the key to the page, which binds it already", () => {
    const { items } = build('linux');
    expect(items.find((i) => i.id === 'run')?.registerAccelerator).toBe(false);
    for (const id of COMMANDS.filter((c) => c !== 'run'))
      expect(items.find((i) => i.id === id)?.registerAccelerator, id).toBe(true);
  });

  it('sends each command as a menu:command payload', () => {
    const { items, sendCommand } = build('linux');
    for (const id of COMMANDS) {
      const item = items.find((i) => i.id === id)!;
      (item.click as () => void)();
    }
    expect(sendCommand.mock.calls.map((c) => c[0])).toEqual(COMMANDS);
  });

  it.each(['linux', 'darwin', 'win32'] as const)(
    'has no accelerator twice on %s and leaves Escape to the page',
    (platform) => {
      const accelerators = collectAccelerators(build(platform).template).map((a) => a.accelerator);
      expect(new Set(accelerators).size).toBe(accelerators.length);
      expect(accelerators).not.toContain('Escape');
    },
  );

  it('includes the standard Edit, View, Window and Help menus', () => {
    const { template, items } = build('linux');
    expect(template.some((i) => i.role === 'editMenu')).toBe(true);
    expect(template.some((i) => i.role === 'windowMenu')).toBe(true);
    expect(template.some((i) => i.role === 'help')).toBe(true);
    for (const role of ['resetZoom', 'zoomIn', 'zoomOut', 'togglefullscreen', 'quit', 'about'] as const) {
      expect(
        items.some((i) => i.role === role),
        role,
      ).toBe(true);
    }
    expect(template.some((i) => i.label === 'Parallax')).toBe(false);
  });

  it('offers reload and DevTools only in development', () => {
    expect(build('linux').items.some((i) => i.role === 'toggleDevTools')).toBe(false);
    expect(build('linux', true).items.some((i) => i.role === 'toggleDevTools')).toBe(true);
  });

  it('opens the data folder from Help', () => {
    const { items, openDataFolder } = build('linux');
    (items.find((i) => i.label === 'Open Data Folder')!.click as () => void)();
    expect(openDataFolder).toHaveBeenCalledOnce();
  });
});
