/**
 * The Electron main process: one window, one host. Pages come from app://parallax/ (or an explicit dev URL),
 * every IPC call is checked against the window's origin, runs go to utility processes, API keys stay here.
 */
import {
  app,
  BrowserWindow,
  dialog,
  ipcMain,
  Menu,
  nativeTheme,
  protocol,
  safeStorage,
  screen,
  session,
  shell,
  utilityProcess,
} from 'electron';
import path from 'node:path';
import { createHost, type Host } from '../host/host.js';
import { suiteHandlers } from '../suite/suite-handlers.js';
import { dialogFolders } from '../host/workspace-access.js';
import { confirmedMcp, mcpConfirmText } from '../host/mcp-access.js';
import { agentConfirmText, confirmedAgents } from '../host/agent-access.js';
import { shellSandbox } from '../engine/sandbox/shell-sandbox.js';
import { workerEntry } from '../host/launcher.js';
import { appLayout } from '../engine/app-layout.js';
import { APP_ENTRY_URL, APP_ID, APP_SCHEME, DEV_URL_ENV, originOf, readDevUrl, trustedOrigins } from './app-origin.js';
import { APP_SCHEME_PRIVILEGES, createAppProtocolHandler } from './app-protocol.js';
import { createPageGate } from '../host/page-gate.js';
import { registerInvokeHandlers, send, senderFrom } from './ipc.js';
import { createKeyStore } from './key-store.js';
import { resolveLoginPath } from './login-path.js';
import { passwordStoreSwitch } from './password-store.js';
import { openMainWindow } from './main-window.js';
import { buildMenuTemplate } from './menu.js';
import { createReportSaver } from './report-saver.js';
import { hardenWebContents, installContentSecurityPolicy, restrictPermissions } from './security.js';
import { shellHandlers } from './shell-handlers.js';
import { utilityLauncher } from './utility-launcher.js';

// Read by this process only (Electron reads them inside app.asar): the pages, the preload, the window icon.
const layout = appLayout();
const RENDERER_DIR = path.join(layout.appRoot, 'dist', 'renderer');
const PRELOAD_PATH = path.join(layout.appRoot, 'dist', 'electron', 'preload', 'preload.cjs');
const ICON_PATH = path.join(layout.appRoot, 'build', 'icon.png');

const log = (message: string): void => void process.stderr.write(`parallax: ${message}\n`);

// Both must happen before 'ready': every renderer is sandboxed whatever its options say, and app:// behaves
// like https (secure context, fetch, relative URLs).
app.enableSandbox();
protocol.registerSchemesAsPrivileged([APP_SCHEME_PRIVILEGES]);
// Linux: a running Secret Service keyring is used even on desktops Chromium does not recognise (password-store.ts).
const passwordStore = passwordStoreSwitch({
  platform: process.platform,
  env: process.env,
  userChose: app.commandLine.hasSwitch('password-store'),
});
if (passwordStore) app.commandLine.appendSwitch('password-store', passwordStore);

if (!app.requestSingleInstanceLock()) {
  app.quit();
} else {
  void start();
}

async function start(): Promise<void> {
  // An installed app opened from Finder or a desktop menu has the system's bare PATH: ask the login shell once
  // (PATH only) while Electron gets ready. Workers, MCP stdio servers and outside agents then find what a
  // terminal would. The Python child needs none: it runs this app's own binary by its full path.
  const loginPath = resolveLoginPath({
    env: process.env,
    platform: process.platform,
    fromTerminal: !app.isPackaged || process.stdout.isTTY === true,
  });
  let devUrl: string | null;
  try {
    devUrl = readDevUrl(process.env, app.isPackaged);
    if (app.isPackaged && process.env[DEV_URL_ENV])
      log(`${DEV_URL_ENV} is ignored: this is an installed build, which loads only its own pages.`);
  } catch (err) {
    await app.whenReady();
    dialog.showErrorBox('Parallax cannot start', err instanceof Error ? err.message : String(err));
    app.exit(1);
    return;
  }
  const origins = trustedOrigins(devUrl);
  app.setAppUserModelId(APP_ID);

  // Every webContents ever created gets the navigation and new-window rules, not just the main window.
  app.on('web-contents-created', (_event, contents) =>
    hardenWebContents(contents, { origins, openExternal: (url) => shell.openExternal(url), log }),
  );

  await app.whenReady();

  protocol.handle(APP_SCHEME, createAppProtocolHandler({ rootDir: RENDERER_DIR }));
  restrictPermissions(session.defaultSession, origins);
  installContentSecurityPolicy(session.defaultSession, devUrl ? originOf(devUrl) : null);

  const shellPath = await loginPath;
  if (shellPath) process.env.PATH = shellPath;

  const userData = app.getPath('userData');
  let win: BrowserWindow | null = null;

  const gate = createPageGate({
    send: (batch) => {
      if (win && !win.isDestroyed()) send(win.webContents, 'run:events', batch);
    },
    reloads: true,
  });
  const keys = createKeyStore({ file: path.join(userData, 'keys.json'), safeStorage });
  const saveReport = createReportSaver({
    showSaveDialog: (options) =>
      win && !win.isDestroyed() ? dialog.showSaveDialog(win, options) : dialog.showSaveDialog(options),
    defaultDir: app.getPath('documents'),
  });
  const host: Host = createHost({
    dataDir: userData,
    appHost: 'electron',
    // Warm workers load while the user writes the task, so Run starts every mode at once.
    pool: { keepWarm: true },
    launcher: utilityLauncher({
      fork: (modulePath, args, options) => utilityProcess.fork(modulePath, args, options),
      entry: workerEntry('worker-main'),
      echoStderr: devUrl ? (line) => process.stderr.write(line) : undefined,
    }),
    getApiKey: (provider, apiKeyEnv) => keys.getApiKey(provider, apiKeyEnv),
    keys,
    caller: 'page',
    // The page names a folder only by the handle of one the user picked in this native dialog.
    workspaces: dialogFolders(async () => {
      const options = {
        title: 'Choose the workspace folder',
        buttonLabel: 'Use this folder',
        properties: ['openDirectory' as const],
      };
      const result =
        win && !win.isDestroyed() ? await dialog.showOpenDialog(win, options) : await dialog.showOpenDialog(options);
      return result.canceled ? null : (result.filePaths[0] ?? null);
    }),
    // A key variable named by the page is read only after the user says so in a native dialog.
    confirmKeyEnv: async (name, baseUrl) => {
      const options = {
        type: 'question' as const,
        buttons: ['Allow', 'Cancel'],
        defaultId: 1,
        cancelId: 1,
        message: `Read the API key from the environment variable ${name}?`,
        detail: `Parallax will send its value as the API key to ${baseUrl}, and nowhere else. Allow this only if you typed this name yourself.`,
      };
      const { response } =
        win && !win.isDestroyed() ? await dialog.showMessageBox(win, options) : await dialog.showMessageBox(options);
      return response === 0;
    },
    // MCP server commands the page names run only after the user allowed them here, in the main process.
    mcp: confirmedMcp(async (stdio, http) => {
      const options = {
        type: 'warning' as const,
        buttons: ['Start them', 'Cancel'],
        defaultId: 1,
        cancelId: 1,
        ...mcpConfirmText(stdio, http),
        checkboxLabel: 'Do not ask again for these exact commands until Parallax quits',
        checkboxChecked: false,
      };
      const { response, checkboxChecked } =
        win && !win.isDestroyed() ? await dialog.showMessageBox(win, options) : await dialog.showMessageBox(options);
      return { allowed: response === 0, remember: response === 0 && checkboxChecked === true };
    }),
    // Agent columns' commands the page names run only after the user allowed them here, as MCP commands are.
    agents: confirmedAgents(async (columns) => {
      const options = {
        type: 'warning' as const,
        buttons: ['Run them', 'Cancel'],
        defaultId: 1,
        cancelId: 1,
        ...agentConfirmText(columns),
        checkboxLabel: 'Do not ask again for these exact commands until Parallax quits',
        checkboxChecked: false,
      };
      const { response, checkboxChecked } =
        win && !win.isDestroyed() ? await dialog.showMessageBox(win, options) : await dialog.showMessageBox(options);
      return { allowed: response === 0, remember: response === 0 && checkboxChecked === true };
    }),
    onEvents: (events) => gate.push(events),
    onWarning: log,
    exportReport: saveReport,
  });

  registerInvokeHandlers(
    ipcMain,
    shellHandlers({
      // The suite channels are built on the host, beside it (electron/suite/suite-handlers.ts).
      host: {
        ...host,
        ...suiteHandlers({
          dataDir: userData,
          openComparison: (id) => host['history:open'](id),
          warn: log,
          exportReport: saveReport,
        }),
      },
      gate,
      info: () => ({
        host: 'electron',
        version: app.getVersion(),
        dataDir: userData,
        workspaceFolders: { picker: 'dialog', allowedDirs: [] },
        shellSandbox: shellSandbox().kind,
      }),
    }),
    senderFrom(origins),
  );

  Menu.setApplicationMenu(
    Menu.buildFromTemplate(
      buildMenuTemplate({
        platform: process.platform,
        appName: app.name,
        dev: devUrl !== null,
        sendCommand: (command) => {
          if (win && !win.isDestroyed()) send(win.webContents, 'menu:command', command);
        },
        openDataFolder: () => void shell.openPath(userData),
      }),
    ),
  );

  const openWindow = async (): Promise<void> => {
    win = await openMainWindow({
      createWindow: (options) => new BrowserWindow(options),
      workAreas: () => {
        const primary = screen.getPrimaryDisplay();
        return [primary, ...screen.getAllDisplays().filter((d) => d.id !== primary.id)].map((d) => d.workArea);
      },
      stateFile: path.join(userData, 'window-state.json'),
      preloadPath: PRELOAD_PATH,
      iconPath: process.platform === 'linux' ? ICON_PATH : undefined,
      darkBackground: nativeTheme.shouldUseDarkColors,
      url: devUrl ?? APP_ENTRY_URL,
      gate,
      log,
    });
    win.on('closed', () => {
      win = null;
    });
  };

  app.on('second-instance', () => {
    if (!win) return void openWindow();
    if (win.isMinimized()) win.restore();
    win.focus();
  });
  app.on('activate', () => {
    if (!win) void openWindow();
  });
  app.on('window-all-closed', () => {
    if (process.platform !== 'darwin') app.quit();
  });

  // Quit waits for the host: running workers are cancelled and their last events written to history.
  let hostClosed = false;
  app.on('before-quit', (event) => {
    if (hostClosed) return;
    event.preventDefault();
    void host
      .close()
      .catch((err: unknown) => log(`closing the host failed: ${String(err)}`))
      .finally(() => {
        hostClosed = true;
        gate.dispose();
        app.quit();
      });
  });

  // Started from a terminal: Ctrl+C or a kill still goes through the graceful quit above.
  for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => app.quit());

  await openWindow();
}
