import type { Session, WebContents } from 'electron';
import { describe, expect, it, vi } from 'vitest';
import { CONTENT_SECURITY_POLICY } from '../../../electron/main/app-protocol.js';
import {
  hardenWebContents,
  isPermissionAllowed,
  isSafeExternalUrl,
  mainWindowOptions,
  restrictPermissions,
  secureWebPreferences,
  withContentSecurityPolicy,
} from '../../../electron/main/security.js';

type Listener = (...args: any[]) => void;

/** Records what hardenWebContents installs, so each rule can be fired by hand. */
function fakeContents() {
  const listeners = new Map<string, Listener[]>();
  let openHandler: ((d: { url: string }) => { action: string }) | null = null;
  const contents = {
    setWindowOpenHandler: (h: typeof openHandler) => void (openHandler = h),
    on: (event: string, fn: Listener) => {
      listeners.set(event, [...(listeners.get(event) ?? []), fn]);
      return contents;
    },
  };
  const fire = (event: string, url: string) => {
    const e = { url, preventDefault: vi.fn() };
    for (const fn of listeners.get(event) ?? []) fn(e, url);
    return e;
  };
  return { contents: contents as unknown as WebContents, fire, open: (url: string) => openHandler!({ url }) };
}

describe('window preferences', () => {
  it('follow the security checklist', () => {
    const prefs = secureWebPreferences('/app/preload.cjs');
    expect(prefs).toMatchObject({
      preload: '/app/preload.cjs',
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      nodeIntegrationInWorker: false,
      nodeIntegrationInSubFrames: false,
      webSecurity: true,
      allowRunningInsecureContent: false,
      webviewTag: false,
      experimentalFeatures: false,
    });
  });

  it('are the ones the main window is created with', () => {
    const options = mainWindowOptions({ preloadPath: '/p.cjs', bounds: { x: 10, y: 20, width: 1000, height: 700 } });
    expect(options.webPreferences).toEqual(secureWebPreferences('/p.cjs'));
    expect(options).toMatchObject({ x: 10, y: 20, width: 1000, height: 700, show: false, title: 'Parallax' });
    expect(options.icon).toBeUndefined();
    expect(
      mainWindowOptions({ preloadPath: '/p.cjs', bounds: { width: 900, height: 600 }, iconPath: '/i.png' }).icon,
    ).toBe('/i.png');
  });
});

describe('isSafeExternalUrl', () => {
  it('accepts plain http(s) links only', () => {
    expect(isSafeExternalUrl('https://platform.openai.com/api-keys')).toBe(true);
    expect(isSafeExternalUrl('http://example.com/')).toBe(true);
    for (const url of [
      'file:///etc/passwd',
      'javascript:alert(1)',
      'smb://host/share',
      'app://parallax/x',
      'https://user:pw@example.com/',
      'nonsense',
    ]) {
      expect(isSafeExternalUrl(url), url).toBe(false);
    }
  });
});

describe('hardenWebContents', () => {
  const origins = ['app://parallax'];

  it('denies every new window and sends only safe links to the system browser', () => {
    const openExternal = vi.fn();
    const f = fakeContents();
    hardenWebContents(f.contents, { origins, openExternal, log: () => undefined });
    expect(f.open('https://example.com/docs')).toEqual({ action: 'deny' });
    expect(f.open('app://parallax/index.html')).toEqual({ action: 'deny' });
    expect(f.open('file:///etc/passwd')).toEqual({ action: 'deny' });
    expect(openExternal.mock.calls).toEqual([['https://example.com/docs']]);
  });

  it('keeps navigation on the app origin', () => {
    const openExternal = vi.fn();
    const f = fakeContents();
    hardenWebContents(f.contents, { origins, openExternal, log: () => undefined });
    expect(f.fire('will-navigate', 'app://parallax/index.html').preventDefault).not.toHaveBeenCalled();
    expect(f.fire('will-navigate', 'https://evil.example/').preventDefault).toHaveBeenCalled();
    expect(f.fire('will-navigate', 'file:///etc/passwd').preventDefault).toHaveBeenCalled();
    expect(f.fire('will-redirect', 'https://evil.example/').preventDefault).toHaveBeenCalled();
    expect(f.fire('will-redirect', 'app://parallax/other.html').preventDefault).not.toHaveBeenCalled();
    expect(f.fire('will-attach-webview', 'app://parallax/').preventDefault).toHaveBeenCalled();
    expect(openExternal.mock.calls).toEqual([['https://evil.example/']]);
  });
});

describe('permissions', () => {
  it('allow only clipboard writes, and only for the app', () => {
    expect(isPermissionAllowed('clipboard-sanitized-write', 'app://parallax/index.html', ['app://parallax'])).toBe(
      true,
    );
    expect(isPermissionAllowed('clipboard-sanitized-write', 'https://evil.example/', ['app://parallax'])).toBe(false);
    for (const p of ['media', 'notifications', 'geolocation', 'clipboard-read', 'openExternal', 'fullscreen']) {
      expect(isPermissionAllowed(p, 'app://parallax/index.html', ['app://parallax']), p).toBe(false);
    }
  });

  it('are installed on the session as request, check and device handlers', () => {
    const calls: Record<string, any> = {};
    const session = {
      setPermissionRequestHandler: (h: unknown) => (calls.request = h),
      setPermissionCheckHandler: (h: unknown) => (calls.check = h),
      setDevicePermissionHandler: (h: unknown) => (calls.device = h),
    } as unknown as Session;
    restrictPermissions(session, ['app://parallax']);
    const cb = vi.fn();
    calls.request({}, 'media', cb, { requestingUrl: 'app://parallax/index.html' });
    calls.request({}, 'clipboard-sanitized-write', cb, { requestingUrl: 'app://parallax/index.html' });
    expect(cb.mock.calls).toEqual([[false], [true]]);
    expect(calls.check({}, 'geolocation', 'app://parallax')).toBe(false);
    expect(calls.check({}, 'clipboard-sanitized-write', 'app://parallax')).toBe(true);
    expect(calls.device({})).toBe(false);
  });
});

describe('withContentSecurityPolicy', () => {
  it('replaces whatever CSP a response carried', () => {
    const out = withContentSecurityPolicy(
      'https://x.example/',
      { 'content-security-policy': ['default-src *'], 'X-Other': ['1'] },
      null,
    );
    expect(out['Content-Security-Policy']).toEqual([CONTENT_SECURITY_POLICY]);
    expect(out['content-security-policy']).toBeUndefined();
    expect(out['X-Other']).toEqual(['1']);
  });

  it('gives the dev policy to the dev origin only', () => {
    const dev = withContentSecurityPolicy('http://localhost:5173/', {}, 'http://localhost:5173');
    expect(dev['Content-Security-Policy'][0]).toContain("'unsafe-inline'");
    const other = withContentSecurityPolicy('http://localhost:9999/', undefined, 'http://localhost:5173');
    expect(other['Content-Security-Policy']).toEqual([CONTENT_SECURITY_POLICY]);
  });
});
