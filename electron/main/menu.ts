/**
 * The application menu. App commands go to the page as 'menu:command' events; the rest are Electron roles.
 * Escape is left to the page (a global Escape accelerator would steal it from inputs and dialogs), so Cancel
 * is CmdOrCtrl+. in the menu. macOS binds Cmd+H to Hide, so Open history is Cmd+Shift+H there.
 */
import type { MenuItemConstructorOptions } from 'electron';
import type { MenuCommand } from '../../shared/ipc-contract.js';

export interface MenuOptions {
  readonly platform: NodeJS.Platform;
  readonly appName: string;
  readonly dev: boolean;
  readonly sendCommand: (command: MenuCommand) => void;
  readonly openDataFolder: () => void;
}

export const MENU_ACCELERATORS = (platform: NodeJS.Platform): Readonly<Record<MenuCommand, string>> => ({
  'new-comparison': 'CmdOrCtrl+N',
  run: 'CmdOrCtrl+Enter',
  cancel: 'CmdOrCtrl+.',
  'open-history': platform === 'darwin' ? 'CmdOrCtrl+Shift+H' : 'CmdOrCtrl+H',
  export: 'CmdOrCtrl+E',
  'toggle-theme': 'CmdOrCtrl+Shift+L',
});

/**
 * Keys the page binds itself (renderer/app/bootstrap.ts handles Ctrl/Cmd+Enter). Their menu items show the
 * shortcut without registering it, so one key press cannot start two comparisons.
 */
export const PAGE_HANDLED_COMMANDS: readonly MenuCommand[] = ['run'];

export function buildMenuTemplate(options: MenuOptions): MenuItemConstructorOptions[] {
  const mac = options.platform === 'darwin';
  const keys = MENU_ACCELERATORS(options.platform);
  const command = (id: MenuCommand, label: string): MenuItemConstructorOptions => ({
    id,
    label,
    accelerator: keys[id],
    registerAccelerator: !PAGE_HANDLED_COMMANDS.includes(id),
    click: () => options.sendCommand(id),
  });

  const template: MenuItemConstructorOptions[] = [];
  if (mac) {
    template.push({
      label: options.appName,
      submenu: [
        { role: 'about' },
        { type: 'separator' },
        { role: 'services' },
        { type: 'separator' },
        { role: 'hide' },
        { role: 'hideOthers' },
        { role: 'unhide' },
        { type: 'separator' },
        { role: 'quit' },
      ],
    });
  }
  template.push(
    {
      label: '&File',
      submenu: [
        command('new-comparison', 'New Comparison'),
        command('open-history', 'Open History'),
        { type: 'separator' },
        command('export', 'Export Report…'),
        { type: 'separator' },
        mac ? { role: 'close' } : { role: 'quit' },
      ],
    },
    { role: 'editMenu' },
    {
      label: '&Run',
      submenu: [command('run', 'Run'), command('cancel', 'Cancel')],
    },
    {
      label: '&View',
      submenu: [
        command('toggle-theme', 'Toggle Theme'),
        { type: 'separator' },
        ...(options.dev
          ? ([{ role: 'reload' }, { role: 'toggleDevTools' }, { type: 'separator' }] as MenuItemConstructorOptions[])
          : []),
        { role: 'resetZoom' },
        { role: 'zoomIn' },
        { role: 'zoomOut' },
        { type: 'separator' },
        { role: 'togglefullscreen' },
      ],
    },
    { role: 'windowMenu' },
    {
      role: 'help',
      submenu: [
        { label: 'Open Data Folder', click: () => options.openDataFolder() },
        ...(mac ? [] : ([{ type: 'separator' }, { role: 'about' }] as MenuItemConstructorOptions[])),
      ],
    },
  );
  return template;
}

/** Every accelerator in a template, with the label that owns it (to catch duplicates). */
export function collectAccelerators(
  template: readonly MenuItemConstructorOptions[],
): { label: string; accelerator: string }[] {
  const out: { label: string; accelerator: string }[] = [];
  const walk = (items: readonly MenuItemConstructorOptions[]): void => {
    for (const item of items) {
      if (typeof item.accelerator === 'string')
        out.push({ label: item.label ?? item.role ?? '?', accelerator: item.accelerator });
      if (Array.isArray(item.submenu)) walk(item.submenu);
    }
  };
  walk(template);
  return out;
}
