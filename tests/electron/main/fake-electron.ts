/**
 * A stand-in for the 'electron' module (there is no Electron binary here): records what the main process
 * asks of it and lets tests play the page, the user and the OS. utilityProcess.fork runs the real worker
 * under Node's child_process, translating its IPC to the utilityProcess API.
 */
import { fork } from 'node:child_process';
import { EventEmitter } from 'node:events';
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import { vi } from 'vitest';

type Fn = (...args: any[]) => any;

export function createFakeElectron(opts: { userData: string; lock?: boolean; packaged?: boolean }) {
  let resolveReady!: () => void;
  const ready = new Promise<void>((r) => (resolveReady = r));
  const order: string[] = [];
  const appEvents = new EventEmitter();
  const handlers = new Map<string, Fn>();
  const windows: FakeWindow[] = [];
  const forks: { modulePath: string; serviceName?: string; env?: NodeJS.ProcessEnv }[] = [];
  let quitRequests = 0;

  class FakeWebContents extends EventEmitter {
    sent: [string, unknown][] = [];
    url = '';
    getURL() {
      return this.url;
    }
    windowOpenHandler: Fn | null = null;
    setWindowOpenHandler(h: Fn) {
      this.windowOpenHandler = h;
    }
    send(channel: string, payload: unknown) {
      this.sent.push([channel, payload]);
    }
    isDestroyed() {
      return false;
    }
    reload = vi.fn();
  }

  class FakeWindow extends EventEmitter {
    webContents = new FakeWebContents();
    constructor(readonly options: Record<string, any>) {
      super();
      windows.push(this);
      order.push('window');
      appEvents.emit('web-contents-created', {}, this.webContents);
    }
    async loadURL(url: string) {
      this.webContents.url = url;
    }
    maximize() {}
    isMaximized() {
      return false;
    }
    isMinimized() {
      return false;
    }
    restore() {}
    focus() {}
    show() {}
    isDestroyed() {
      return false;
    }
    getNormalBounds() {
      return { x: this.options.x ?? 0, y: this.options.y ?? 0, width: this.options.width, height: this.options.height };
    }
  }

  const session = {
    permissionRequest: null as Fn | null,
    headers: null as Fn | null,
    setPermissionRequestHandler(h: Fn) {
      this.permissionRequest = h;
    },
    setPermissionCheckHandler: vi.fn(),
    setDevicePermissionHandler: vi.fn(),
    webRequest: { onHeadersReceived: (h: Fn) => void (session.headers = h) },
  };

  const electron = {
    app: {
      name: 'Parallax',
      isPackaged: opts.packaged ?? false,
      commandLine: {
        switches: new Map<string, string>(),
        appendSwitch(name: string, value = '') {
          this.switches.set(name, value);
        },
        hasSwitch(name: string) {
          return this.switches.has(name);
        },
        getSwitchValue(name: string) {
          return this.switches.get(name) ?? '';
        },
      },
      requestSingleInstanceLock: () => opts.lock ?? true,
      quit: vi.fn(() => {
        quitRequests++;
        const event = {
          defaultPrevented: false,
          preventDefault() {
            this.defaultPrevented = true;
          },
        };
        appEvents.emit('before-quit', event);
      }),
      exit: vi.fn(),
      whenReady: () => ready,
      on: (event: string, fn: Fn) => void appEvents.on(event, fn),
      setAppUserModelId: vi.fn(),
      enableSandbox: vi.fn(() => void order.push('enable-sandbox')),
      getPath: (name: string) => (name === 'userData' ? opts.userData : `/fake/${name}`),
      getVersion: () => '9.8.7',
    },
    BrowserWindow: FakeWindow,
    dialog: {
      showErrorBox: vi.fn(),
      showSaveDialog: vi.fn(async () => ({ canceled: true, filePath: '' })),
      // Cancelled unless a test says what the user picks or answers.
      showOpenDialog: vi.fn(
        async (..._args: unknown[]): Promise<{ canceled: boolean; filePaths: string[] }> => ({
          canceled: true,
          filePaths: [],
        }),
      ),
      showMessageBox: vi.fn(async (..._args: unknown[]): Promise<{ response: number }> => ({ response: 1 })),
    },
    ipcMain: {
      handle: (channel: string, fn: Fn) => void handlers.set(channel, fn),
      removeHandler: (channel: string) => void handlers.delete(channel),
    },
    Menu: { buildFromTemplate: (t: unknown) => ({ template: t }), setApplicationMenu: vi.fn() },
    nativeTheme: { shouldUseDarkColors: false },
    protocol: {
      registerSchemesAsPrivileged: vi.fn(
        (_schemes: { scheme: string; privileges: Record<string, boolean> }[]) => void order.push('register-scheme'),
      ),
      handle: vi.fn((_scheme: string, _handler: Fn) => void order.push('protocol-handle')),
    },
    safeStorage: {
      isEncryptionAvailable: () => true,
      encryptString: (s: string) => Buffer.from(`enc:${s}`),
      decryptString: (b: Buffer) => b.toString().slice(4),
      getSelectedStorageBackend: () => 'gnome_libsecret',
    },
    screen: {
      getPrimaryDisplay: () => ({ id: 1, workArea: { x: 0, y: 0, width: 1920, height: 1080 } }),
      getAllDisplays: () => [{ id: 1, workArea: { x: 0, y: 0, width: 1920, height: 1080 } }],
    },
    session: { defaultSession: session },
    shell: { openExternal: vi.fn(async () => undefined), openPath: vi.fn(async () => '') },
    utilityProcess: {
      fork: (modulePath: string, args: string[], options: { env?: NodeJS.ProcessEnv; serviceName?: string }) => {
        forks.push({ modulePath, serviceName: options.serviceName, env: options.env });
        const tsx = pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href;
        const child = fork(modulePath, args, {
          env: options.env,
          execArgv: modulePath.endsWith('.ts') ? ['--import', tsx] : [],
          stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
          serialization: 'json',
        });
        const proc = Object.assign(new EventEmitter(), {
          get pid() {
            return child.pid;
          },
          stdout: null,
          stderr: child.stderr,
          postMessage: (m: unknown) => void (child.connected && child.send(m as object)),
          kill: () => child.kill('SIGKILL'),
        });
        child.on('message', (m) => proc.emit('message', m));
        child.on('exit', (code) => proc.emit('exit', code ?? 1));
        return proc;
      },
    },
  };

  /** Calls an invoke channel the way a page at `url` would. */
  const invoke = (channel: string, url: string, ...args: unknown[]) => {
    const fn = handlers.get(channel);
    if (!fn) throw new Error(`no handler for ${channel}`);
    return fn({ senderFrame: { url } }, ...args);
  };

  return {
    electron,
    order,
    handlers,
    windows,
    forks,
    session,
    invoke,
    appEvents,
    ready: () => (order.push('ready'), resolveReady()),
    quitRequests: () => quitRequests,
  };
}

export type FakeElectron = ReturnType<typeof createFakeElectron>;
