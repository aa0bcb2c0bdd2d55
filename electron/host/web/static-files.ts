/**
 * Serves the built renderer (dist/renderer) read-only: no directory listings, nothing outside the folder,
 * index.html for unknown paths without an extension (the app routes on the client).
 */
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import type { IncomingMessage, ServerResponse } from 'node:http';
import path, { extname, join, normalize, sep } from 'node:path';
import { appLayout } from '../../engine/app-layout.js';

const TYPES: Record<string, string> = {
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
  '.txt': 'text/plain; charset=utf-8',
  '.wasm': 'application/wasm',
};

/** dist/renderer of this checkout or install. */
export function defaultRendererDir(): string {
  return path.join(appLayout().appRoot, 'dist', 'renderer');
}

export function missingRendererMessage(dir: string): string {
  return `The app's web page is not built (no ${join(dir, 'index.html')}). Run \`npm run build\` in the Parallax folder, then start \`parallax serve\` again.`;
}

export async function rendererAvailable(dir: string): Promise<boolean> {
  return (await stat(join(dir, 'index.html')).catch(() => null))?.isFile() ?? false;
}

const SECURITY_HEADERS = {
  'x-content-type-options': 'nosniff',
  // The page URL carries the access token: never send it on as a referrer.
  'referrer-policy': 'no-referrer',
  'x-frame-options': 'DENY',
};

export async function serveStatic(dir: string, req: IncomingMessage, res: ServerResponse): Promise<void> {
  if (req.method !== 'GET' && req.method !== 'HEAD') {
    res
      .writeHead(405, { allow: 'GET, HEAD', 'content-type': 'text/plain; charset=utf-8', ...SECURITY_HEADERS })
      .end('Only GET and HEAD are served.\n');
    return;
  }
  let pathname: string;
  try {
    pathname = decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname);
  } catch {
    res.writeHead(400, { 'content-type': 'text/plain; charset=utf-8', ...SECURITY_HEADERS }).end('Bad path.\n');
    return;
  }
  const rel = normalize(pathname).replace(/^([/\\])+/, '');
  let file = join(dir, rel);
  if (file !== dir && !file.startsWith(dir.endsWith(sep) ? dir : dir + sep)) {
    res.writeHead(404, { 'content-type': 'text/plain; charset=utf-8', ...SECURITY_HEADERS }).end('Not found.\n');
    return;
  }
  let info = await stat(file).catch(() => null);
  if (!info?.isFile()) {
    if (extname(rel) !== '' && rel !== '') {
      res.writeHead(404, { 'content-type': 'text/plain; charset=utf-8', ...SECURITY_HEADERS }).end('Not found.\n');
      return;
    }
    file = join(dir, 'index.html');
    info = await stat(file).catch(() => null);
    if (!info?.isFile()) {
      res
        .writeHead(503, { 'content-type': 'text/plain; charset=utf-8', ...SECURITY_HEADERS })
        .end(missingRendererMessage(dir) + '\n');
      return;
    }
  }
  const isHtml = extname(file) === '.html';
  res.writeHead(200, {
    'content-type': TYPES[extname(file)] ?? 'application/octet-stream',
    'content-length': info.size,
    'cache-control': isHtml ? 'no-store' : 'no-cache',
    ...SECURITY_HEADERS,
  });
  if (req.method === 'HEAD') {
    res.end();
    return;
  }
  createReadStream(file).pipe(res);
}
