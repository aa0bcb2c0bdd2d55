import { existsSync, mkdtempSync, mkdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import {
  APP_SCHEME_PRIVILEGES,
  CONTENT_SECURITY_POLICY,
  createAppProtocolHandler,
  devContentSecurityPolicy,
  mimeTypeOf,
  resolveAppPath,
} from '../../../electron/main/app-protocol.js';

const root = mkdtempSync(path.join(tmpdir(), 'parallax-protocol-'));
mkdirSync(path.join(root, 'assets'));
writeFileSync(path.join(root, 'index.html'), '<!doctype html><title>Parallax</title>');
writeFileSync(path.join(root, 'assets', 'app.js'), 'console.log(1)');
// A secret beside the served folder: nothing under app:// may reach it.
writeFileSync(path.join(path.dirname(root), `${path.basename(root)}-secret.txt`), 'secret');

describe('resolveAppPath', () => {
  it('maps / and plain paths under the root', () => {
    expect(resolveAppPath(root, 'app://parallax/')).toEqual({ ok: true, file: path.join(root, 'index.html') });
    expect(resolveAppPath(root, 'app://parallax/assets/app.js?v=2#x')).toEqual({
      ok: true,
      file: path.join(root, 'assets', 'app.js'),
    });
  });

  it.each([
    ['app://parallax/%2e%2e/secret.txt'],
    ['app://parallax/assets/%2e%2e%2f%2e%2e%2fsecret.txt'],
    ['app://parallax/..%2f..%2fetc%2fpasswd'],
    [`app://parallax/${encodeURIComponent(path.resolve('/etc/passwd'))}`],
    ['app://parallax/assets/..%2f..%2f..%2f'],
  ])('never resolves outside the root: %s', (url) => {
    const r = resolveAppPath(root, url);
    if (r.ok) {
      // The URL parser already folded the dots, or the leading slashes were dropped: still inside the root.
      expect(path.relative(root, r.file).startsWith('..')).toBe(false);
      expect(path.isAbsolute(path.relative(root, r.file))).toBe(false);
    } else {
      expect([400, 403]).toContain(r.status);
    }
  });

  it('refuses encoded parent segments with 403', () => {
    expect(resolveAppPath(root, 'app://parallax/..%2fsecret.txt')).toMatchObject({ ok: false, status: 403 });
    expect(resolveAppPath(root, 'app://parallax/assets/..%2f..%2fsecret.txt')).toMatchObject({
      ok: false,
      status: 403,
    });
    expect(resolveAppPath(root, 'app://parallax/..%2f')).toMatchObject({ ok: false, status: 403 });
  });

  it('refuses other hosts, schemes, NUL bytes, backslashes and bad escapes', () => {
    expect(resolveAppPath(root, 'app://other/index.html')).toMatchObject({ ok: false, status: 404 });
    expect(resolveAppPath(root, 'https://parallax/index.html')).toMatchObject({ ok: false, status: 404 });
    expect(resolveAppPath(root, 'app://parallax/a%00.js')).toMatchObject({ ok: false, status: 400 });
    expect(resolveAppPath(root, 'app://parallax/..%5c..%5csecret.txt')).toMatchObject({ ok: false, status: 400 });
    expect(resolveAppPath(root, 'app://parallax/%E0%A4%A')).toMatchObject({ ok: false, status: 400 });
  });
});

describe('createAppProtocolHandler', () => {
  const handler = createAppProtocolHandler({ rootDir: root });

  it('serves files with their MIME type and the strict CSP', async () => {
    const res = await handler(new Request('app://parallax/index.html'));
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(res.headers.get('content-security-policy')).toBe(CONTENT_SECURITY_POLICY);
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(await res.text()).toContain('<title>Parallax</title>');
    const js = await handler(new Request('app://parallax/assets/app.js'));
    expect(js.headers.get('content-type')).toMatch(/^text\/javascript/);
  });

  it('answers 404 for missing files and 403 for traversal, never the file beside the root', async () => {
    expect((await handler(new Request('app://parallax/nope.js'))).status).toBe(404);
    expect((await handler(new Request('app://parallax/assets'))).status).toBe(404);
    const escaped = await handler(new Request(`app://parallax/..%2f${path.basename(root)}-secret.txt`));
    expect(escaped.status).toBe(403);
    expect(await escaped.text()).not.toContain('secret\n');
    expect(escaped.headers.get('content-security-policy')).toBe(CONTENT_SECURITY_POLICY);
  });

  it('refuses methods other than GET and HEAD', async () => {
    expect((await handler(new Request('app://parallax/index.html', { method: 'POST', body: 'x' }))).status).toBe(405);
    const head = await handler(new Request('app://parallax/index.html', { method: 'HEAD' }));
    expect(head.status).toBe(200);
  });
});

describe('content security policy', () => {
  const directives = new Map(
    CONTENT_SECURITY_POLICY.split('; ').map((d) => [d.split(' ')[0], d.split(' ').slice(1).join(' ')]),
  );

  it('allows only the app itself', () => {
    expect(directives.get('default-src')).toBe("'self'");
    expect(directives.get('script-src')).toBe("'self'");
    expect(directives.get('connect-src')).toBe("'self'");
    expect(directives.get('img-src')).toBe("'self' data:");
    expect(directives.get('object-src')).toBe("'none'");
    expect(directives.get('base-uri')).toBe("'none'");
    expect(directives.get('frame-ancestors')).toBe("'none'");
    expect(CONTENT_SECURITY_POLICY).not.toMatch(/unsafe-eval/);
    expect(directives.get('script-src')).not.toMatch(/unsafe-inline/);
  });

  it('relaxes only script inlining and the HMR socket for the dev origin', () => {
    const dev = devContentSecurityPolicy('http://localhost:5173');
    expect(dev).toContain("script-src 'self' 'unsafe-inline'");
    expect(dev).toContain("connect-src 'self' ws://localhost:5173");
    expect(dev).toContain("object-src 'none'");
    expect(dev).not.toMatch(/unsafe-eval/);
  });

  it('registers app:// as a standard, secure scheme', () => {
    expect(APP_SCHEME_PRIVILEGES).toMatchObject({ scheme: 'app', privileges: { standard: true, secure: true } });
  });

  it('knows the renderer asset types', () => {
    expect(mimeTypeOf('a/b.CSS')).toBe('text/css; charset=utf-8');
    expect(mimeTypeOf('x.wasm')).toBe('application/wasm');
    expect(mimeTypeOf('x.unknown')).toBe('application/octet-stream');
  });
});

describe('the built renderer over app://', () => {
  const built = fileURLToPath(new URL('../../../dist/renderer/', import.meta.url));
  // `npm test` builds the renderer before running the tests; a bare `vitest run` may not have it.
  it.skipIf(!existsSync(path.join(built, 'index.html')))(
    'serves index.html and every asset it references',
    async () => {
      const handler = createAppProtocolHandler({ rootDir: built });
      const index = await handler(new Request('app://parallax/'));
      expect(index.status).toBe(200);
      const html = await index.text();
      const refs = [...html.matchAll(/(?:src|href)="\.\/([^"]+)"/g)].map((m) => m[1]);
      expect(refs.length).toBeGreaterThan(0);
      for (const ref of refs) {
        const res = await handler(new Request(`app://parallax/${ref}`));
        expect(res.status, ref).toBe(200);
        expect(res.headers.get('content-type'), ref).not.toBe('application/octet-stream');
      }
    },
  );
});
