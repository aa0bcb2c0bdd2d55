/**
 * The `app://parallax/` protocol: serves the built renderer (dist/renderer) with a strict CSP on every
 * response. Anything that would resolve outside the root (`..`, encoded separators, other hosts) is refused.
 */
import path from 'node:path';
import { readFile as fsReadFile } from 'node:fs/promises';
import { APP_HOST, APP_SCHEME } from './app-origin.js';

/**
 * Registered before `app.ready` (protocol.registerSchemesAsPrivileged): a standard, secure origin, so Vite's
 * `<script type="module" crossorigin>` bundle, localStorage and relative URLs behave as they do over https.
 */
export const APP_SCHEME_PRIVILEGES = {
  scheme: APP_SCHEME,
  privileges: { standard: true, secure: true, supportFetchAPI: true, corsEnabled: true, stream: true, codeCache: true },
} as const;

/** The production Content-Security-Policy: only the app's own code; inline styles for chart/layout attributes. */
export const CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "font-src 'self' data:",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

/**
 * The dev-server policy: Vite's React plugin injects an inline preamble and talks HMR over a WebSocket,
 * so those two are allowed for the dev origin only. Never used for app:// pages.
 */
export function devContentSecurityPolicy(devOrigin: string): string {
  const ws = devOrigin.replace(/^http/, 'ws');
  return CONTENT_SECURITY_POLICY.replace("script-src 'self'", `script-src 'self' 'unsafe-inline'`).replace(
    "connect-src 'self'",
    `connect-src 'self' ${ws}`,
  );
}

const MIME_TYPES: Readonly<Record<string, string>> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
  '.woff': 'font/woff',
  '.ttf': 'font/ttf',
  '.wasm': 'application/wasm',
  '.txt': 'text/plain; charset=utf-8',
};

export function mimeTypeOf(file: string): string {
  return MIME_TYPES[path.extname(file).toLowerCase()] ?? 'application/octet-stream';
}

export type ResolvedAppPath =
  | { readonly ok: true; readonly file: string }
  | { readonly ok: false; readonly status: 400 | 403 | 404; readonly reason: string };

/** Maps an app:// URL to a file under `rootDir`, refusing anything that leaves it. */
export function resolveAppPath(rootDir: string, requestUrl: string): ResolvedAppPath {
  let url: URL;
  try {
    url = new URL(requestUrl);
  } catch {
    return { ok: false, status: 400, reason: `not a URL: ${requestUrl}` };
  }
  if (url.protocol !== `${APP_SCHEME}:` || url.host !== APP_HOST) {
    return { ok: false, status: 404, reason: `unknown host in ${requestUrl}` };
  }
  let pathname: string;
  try {
    pathname = decodeURIComponent(url.pathname);
  } catch {
    return { ok: false, status: 400, reason: `malformed escape in ${url.pathname}` };
  }
  if (pathname.includes('\0') || pathname.includes('\\')) {
    return { ok: false, status: 400, reason: `illegal character in ${url.pathname}` };
  }
  const relative = pathname === '/' || pathname === '' ? 'index.html' : pathname.replace(/^\/+/, '');
  const root = path.resolve(rootDir);
  const file = path.resolve(root, relative);
  const inside = path.relative(root, file);
  if (inside === '' || inside.startsWith('..') || path.isAbsolute(inside)) {
    return { ok: false, status: 403, reason: `outside the app folder: ${url.pathname}` };
  }
  return { ok: true, file };
}

export interface AppProtocolOptions {
  readonly rootDir: string;
  readonly readFile?: (file: string) => Promise<Uint8Array>;
}

/** The handler given to `protocol.handle(APP_SCHEME, …)`. Uses the standard Fetch Request/Response. */
export function createAppProtocolHandler(options: AppProtocolOptions): (request: Request) => Promise<Response> {
  const readFile = options.readFile ?? ((file: string) => fsReadFile(file));
  const baseHeaders = {
    'Content-Security-Policy': CONTENT_SECURITY_POLICY,
    'X-Content-Type-Options': 'nosniff',
    'Cross-Origin-Opener-Policy': 'same-origin',
  };
  const refuse = (status: number, reason: string): Response =>
    new Response(reason, { status, headers: { ...baseHeaders, 'Content-Type': 'text/plain; charset=utf-8' } });

  return async (request) => {
    if (request.method !== 'GET' && request.method !== 'HEAD') return refuse(405, `${request.method} is not allowed`);
    const resolved = resolveAppPath(options.rootDir, request.url);
    if (!resolved.ok) return refuse(resolved.status, resolved.reason);
    let body: Uint8Array;
    try {
      body = await readFile(resolved.file);
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      if (code === 'ENOENT' || code === 'EISDIR' || code === 'ENOTDIR')
        return refuse(404, `not found: ${new URL(request.url).pathname}`);
      throw err;
    }
    const headers = { ...baseHeaders, 'Content-Type': mimeTypeOf(resolved.file), 'Cache-Control': 'no-cache' };
    // A plain ArrayBuffer-backed view: what both Node's and the DOM's Response typings accept.
    return new Response(request.method === 'HEAD' ? null : new Uint8Array(body), { status: 200, headers });
  };
}
