/**
 * Electron's security checklist in one place: window preferences, navigation and new-window rules,
 * permission denial and the CSP for dev-server pages. Every rule is a plain function so it can be tested
 * against fake webContents/session objects.
 */
import type { BrowserWindowConstructorOptions, Session, WebContents, WebPreferences } from 'electron';
import { CONTENT_SECURITY_POLICY, devContentSecurityPolicy } from './app-protocol.js';
import { isTrustedUrl, originOf } from './app-origin.js';

export function secureWebPreferences(preloadPath: string): WebPreferences {
  return {
    preload: preloadPath,
    contextIsolation: true,
    sandbox: true,
    nodeIntegration: false,
    nodeIntegrationInWorker: false,
    nodeIntegrationInSubFrames: false,
    webSecurity: true,
    allowRunningInsecureContent: false,
    experimentalFeatures: false,
    webviewTag: false,
    navigateOnDragDrop: false,
    safeDialogs: true,
  };
}

export interface MainWindowOptionsInput {
  readonly preloadPath: string;
  readonly bounds: { readonly x?: number; readonly y?: number; readonly width: number; readonly height: number };
  readonly iconPath?: string;
  readonly darkBackground?: boolean;
}

export function mainWindowOptions(input: MainWindowOptionsInput): BrowserWindowConstructorOptions {
  return {
    ...input.bounds,
    minWidth: 880,
    minHeight: 560,
    title: 'Parallax',
    // Shown on 'ready-to-show' so the first paint is not a white flash.
    show: false,
    backgroundColor: input.darkBackground ? '#0f1420' : '#f6f7fb',
    ...(input.iconPath ? { icon: input.iconPath } : {}),
    webPreferences: secureWebPreferences(input.preloadPath),
  };
}

/** Links the app may hand to the system browser: http(s) only, no embedded credentials. */
export function isSafeExternalUrl(url: string): boolean {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return false;
  }
  return (
    (u.protocol === 'https:' || u.protocol === 'http:') && u.username === '' && u.password === '' && u.hostname !== ''
  );
}

export interface HardenOptions {
  /** Origins of the app's own pages (app://parallax, plus the dev server when enabled). */
  readonly origins: readonly string[];
  readonly openExternal: (url: string) => Promise<void> | void;
  readonly log?: (message: string) => void;
}

/** New windows are never created; app navigation stays on the app's origin; safe links go to the browser. */
export function hardenWebContents(contents: WebContents, options: HardenOptions): void {
  const log = options.log ?? (() => undefined);
  const toBrowser = (url: string): void => {
    if (isSafeExternalUrl(url))
      void Promise.resolve(options.openExternal(url)).catch((err: unknown) =>
        log(`openExternal failed: ${String(err)}`),
      );
    else log(`blocked a link to ${url}: only http(s) links open outside the app`);
  };

  contents.setWindowOpenHandler(({ url }) => {
    toBrowser(url);
    return { action: 'deny' };
  });

  const guardNavigation = (event: { preventDefault(): void; url: string }): void => {
    if (isTrustedUrl(event.url, options.origins)) return;
    event.preventDefault();
    toBrowser(event.url);
  };
  contents.on('will-navigate', (event) => guardNavigation(event));
  contents.on('will-redirect', (event) => {
    if (!isTrustedUrl(event.url, options.origins)) {
      event.preventDefault();
      log(`blocked a redirect to ${event.url}`);
    }
  });
  contents.on('will-attach-webview', (event) => {
    event.preventDefault();
    log('blocked a <webview>: the app does not embed other pages');
  });
}

/**
 * The one permission the app's own pages keep: writing plain text to the clipboard (copy buttons).
 * Everything else (camera, notifications, geolocation, devices…) is denied, and so is every other origin.
 */
export const ALLOWED_PERMISSIONS: readonly string[] = ['clipboard-sanitized-write'];

export function isPermissionAllowed(
  permission: string,
  requestingUrl: string | undefined,
  origins: readonly string[],
): boolean {
  return ALLOWED_PERMISSIONS.includes(permission) && isTrustedUrl(requestingUrl, origins);
}

export function restrictPermissions(session: Session, origins: readonly string[]): void {
  session.setPermissionRequestHandler((_contents, permission, callback, details) =>
    callback(isPermissionAllowed(permission, details.requestingUrl, origins)),
  );
  session.setPermissionCheckHandler((_contents, permission, requestingOrigin) =>
    isPermissionAllowed(permission, requestingOrigin, origins),
  );
  session.setDevicePermissionHandler(() => false);
}

type Headers = Record<string, string[]>;

/** Replaces any CSP header a response carries with ours; dev-server pages get the dev policy. */
export function withContentSecurityPolicy(
  url: string,
  headers: Headers | undefined,
  devOrigin: string | null,
): Headers {
  const out: Headers = {};
  for (const [name, value] of Object.entries(headers ?? {})) {
    if (name.toLowerCase() !== 'content-security-policy') out[name] = value;
  }
  const policy =
    devOrigin !== null && originOf(url) === devOrigin ? devContentSecurityPolicy(devOrigin) : CONTENT_SECURITY_POLICY;
  out['Content-Security-Policy'] = [policy];
  return out;
}

/** Applies the CSP to everything the session loads over the network (the dev server; app:// sets its own). */
export function installContentSecurityPolicy(session: Session, devOrigin: string | null): void {
  session.webRequest.onHeadersReceived((details, callback) => {
    callback({ responseHeaders: withContentSecurityPolicy(details.url, details.responseHeaders, devOrigin) });
  });
}
