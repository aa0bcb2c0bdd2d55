/**
 * Where the app's own pages live. Production pages are served from the custom `app://parallax/` origin;
 * a dev server URL is trusted only when PARALLAX_DEV_URL is set explicitly.
 */
/** Matches appId in electron-builder.yml (Windows groups taskbar entries and notifications by it). */
export const APP_ID = 'dev.parallax.app';
export const APP_SCHEME = 'app';
export const APP_HOST = 'parallax';
export const APP_ORIGIN = `${APP_SCHEME}://${APP_HOST}`;
export const APP_ENTRY_URL = `${APP_ORIGIN}/index.html`;
export const DEV_URL_ENV = 'PARALLAX_DEV_URL';

/**
 * scheme://host[:port] of a URL, or null when it cannot be parsed. Computed by hand because WHATWG `URL.origin`
 * is the string "null" for non-special schemes such as app://.
 */
export function originOf(url: string): string | null {
  try {
    const u = new URL(url);
    if (!u.host) return null;
    return `${u.protocol}//${u.host}`;
  } catch {
    return null;
  }
}

/**
 * Reads and checks the dev URL: only http(s) on a loopback host, so a stray variable cannot point the app
 * elsewhere, and never in an installed build (`packaged`: Electron's app.isPackaged), where a page on a local
 * port would get the app's IPC and DevTools.
 */
export function readDevUrl(env: Readonly<Record<string, string | undefined>>, packaged: boolean): string | null {
  const raw = env[DEV_URL_ENV];
  if (!raw || packaged) return null;
  let u: URL;
  try {
    u = new URL(raw);
  } catch {
    throw new Error(
      `${DEV_URL_ENV}="${raw}" is not a URL. Set it to the Vite dev server, e.g. http://localhost:5173/, or unset it.`,
    );
  }
  const loopback = ['localhost', '127.0.0.1', '[::1]'].includes(u.hostname);
  if (!/^https?:$/.test(u.protocol) || !loopback) {
    throw new Error(
      `${DEV_URL_ENV}="${raw}" must be an http(s) URL on localhost/127.0.0.1/[::1]. Point it at the local dev server or unset it.`,
    );
  }
  return u.toString();
}

/** The origins whose pages may talk to the main process. */
export function trustedOrigins(devUrl: string | null): readonly string[] {
  const dev = devUrl ? originOf(devUrl) : null;
  return dev ? [APP_ORIGIN, dev] : [APP_ORIGIN];
}

export function isTrustedUrl(url: string | undefined | null, origins: readonly string[]): boolean {
  if (!url) return false;
  const origin = originOf(url);
  return origin !== null && origins.includes(origin);
}
