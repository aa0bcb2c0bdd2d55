import { describe, expect, it } from 'vitest';
import { APP_ORIGIN, isTrustedUrl, originOf, readDevUrl, trustedOrigins } from '../../../electron/main/app-origin.js';

describe('originOf', () => {
  it('computes scheme://host for the custom scheme, where URL.origin would say "null"', () => {
    expect(new URL('app://parallax/index.html').origin).toBe('null');
    expect(originOf('app://parallax/assets/x.js?y=1#z')).toBe('app://parallax');
    expect(originOf('http://localhost:5173/src/main.tsx')).toBe('http://localhost:5173');
  });

  it('is null for unparsable or host-less URLs', () => {
    expect(originOf('not a url')).toBeNull();
    expect(originOf('about:blank')).toBeNull();
    expect(originOf('file:///etc/passwd')).toBeNull();
  });
});

describe('readDevUrl', () => {
  it('is null when the variable is not set', () => {
    expect(readDevUrl({}, false)).toBeNull();
    expect(readDevUrl({ PARALLAX_DEV_URL: '' }, false)).toBeNull();
  });

  it('accepts a loopback http URL', () => {
    expect(readDevUrl({ PARALLAX_DEV_URL: 'http://localhost:5173' }, false)).toBe('http://localhost:5173/');
    expect(readDevUrl({ PARALLAX_DEV_URL: 'http://127.0.0.1:4000/' }, false)).toBe('http://127.0.0.1:4000/');
  });

  it('is ignored in an installed build, even for a loopback URL (its page would get IPC and DevTools)', () => {
    expect(readDevUrl({ PARALLAX_DEV_URL: 'http://localhost:5173' }, true)).toBeNull();
    expect(readDevUrl({ PARALLAX_DEV_URL: 'https://example.com/' }, true)).toBeNull();
  });

  it('refuses remote hosts and other schemes with a message saying what to set', () => {
    expect(() => readDevUrl({ PARALLAX_DEV_URL: 'https://example.com/' }, false)).toThrow(/localhost.*unset it/);
    expect(() => readDevUrl({ PARALLAX_DEV_URL: 'file:///tmp/index.html' }, false)).toThrow(/http\(s\)/);
    expect(() => readDevUrl({ PARALLAX_DEV_URL: 'localhost:5173' }, false)).toThrow(/PARALLAX_DEV_URL/);
    expect(() => readDevUrl({ PARALLAX_DEV_URL: '::nope' }, false)).toThrow(/not a URL/);
  });
});

describe('isTrustedUrl', () => {
  it('trusts only the app origin in production', () => {
    const origins = trustedOrigins(null);
    expect(origins).toEqual([APP_ORIGIN]);
    expect(isTrustedUrl('app://parallax/index.html', origins)).toBe(true);
    expect(isTrustedUrl('app://evil/index.html', origins)).toBe(false);
    expect(isTrustedUrl('app://parallax.evil/index.html', origins)).toBe(false);
    expect(isTrustedUrl('http://localhost:5173/', origins)).toBe(false);
    expect(isTrustedUrl('', origins)).toBe(false);
    expect(isTrustedUrl(undefined, origins)).toBe(false);
  });

  it('adds the dev server origin (exact port) when one is configured', () => {
    const origins = trustedOrigins('http://localhost:5173/');
    expect(isTrustedUrl('http://localhost:5173/index.html', origins)).toBe(true);
    expect(isTrustedUrl('http://localhost:5174/index.html', origins)).toBe(false);
    expect(isTrustedUrl('https://localhost:5173/', origins)).toBe(false);
  });
});
