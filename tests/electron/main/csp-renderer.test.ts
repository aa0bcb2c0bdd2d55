/**
 * The production CSP against the real renderer bundle: dist/renderer is served through the app:// handler
 * (behind a loopback HTTP server, since Chromium here has no app:// scheme) to Debian Chromium, with a stub
 * of the preload API, and the page must boot without a single CSP violation.
 */
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { CONTENT_SECURITY_POLICY, createAppProtocolHandler } from '../../../electron/main/app-protocol.js';
import { CHROMIUM_PATH } from '../../helpers/chromium-args.js';
import { newBrowserContext } from '../../helpers/browser-context.js';

const built = fileURLToPath(new URL('../../../dist/renderer/', import.meta.url));
const ready = existsSync(path.join(built, 'index.html')) && existsSync(CHROMIUM_PATH);

// Answers like the desktop host would for a first start; events never arrive.
const FAKE_PRELOAD = `
  const answers = {
    'app:info': { host: 'electron', version: '0.0.0-test', dataDir: '/data' },
    'tasks:list': [{ id: 'calc', title: 'Arithmetic', text: 'What is 123 * 456 + 789?', about: 'One calculation.' }],
    'history:list': [],
    'history:page': { items: [], total: 0, stored: 0, nextOffset: null, damagedCount: 0 },
    'history:damaged': [],
    'keys:status': {},
    'provider:models': { ok: true, models: ['sim'], detail: 'simulated' },
  };
  window.parallax = new Proxy({}, {
    get: (_t, key) => key === 'on' ? () => () => {} : async () => answers[key],
  });
`;

interface Violation {
  directive: string;
  blocked: string;
  file: string;
  line: number;
  column: number;
}

/**
 * zod 4 probes whether it may compile validators with `Function('')` inside a try/catch and falls back when
 * the CSP says no. That refusal is reported as a violation but changes nothing; any other eval is a failure.
 */
async function isEvalProbe(v: Violation): Promise<boolean> {
  if (v.directive !== 'script-src' || v.blocked !== 'eval') return false;
  const rel = new URL(v.file).pathname.replace(/^\/+/, '');
  const lines = (await readFile(path.join(built, rel), 'utf8')).split('\n');
  const around = (lines[v.line - 1] ?? '').slice(Math.max(0, v.column - 40), v.column + 40);
  return /try\{return Function\(``\),!0\}catch\{return!1\}/.test(around);
}

describe('renderer under the production CSP', () => {
  it.skipIf(!ready)('boots with no CSP violation and no page error', async () => {
    const handler = createAppProtocolHandler({ rootDir: built });
    const server = http.createServer(async (req, res) => {
      const r = await handler(new Request(`app://parallax${req.url ?? '/'}`));
      res.writeHead(r.status, Object.fromEntries(r.headers));
      res.end(Buffer.from(await r.arrayBuffer()));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const context = await newBrowserContext();
    try {
      const page = await context.newPage();
      const errors: string[] = [];
      page.on('pageerror', (e) => errors.push(e.message));
      await page.addInitScript({
        content: `${FAKE_PRELOAD}
          window.__cspViolations = [];
          document.addEventListener('securitypolicyviolation', (e) => window.__cspViolations.push({
            directive: e.violatedDirective, blocked: e.blockedURI, file: e.sourceFile, line: e.lineNumber, column: e.columnNumber,
          }));`,
      });
      const response = await page.goto(`http://127.0.0.1:${(server.address() as AddressInfo).port}/index.html`);
      expect(response?.headers()['content-security-policy']).toBe(CONTENT_SECURITY_POLICY);
      await page.waitForFunction(() => (document.getElementById('root')?.children.length ?? 0) > 0, undefined, {
        timeout: 60_000,
      });
      // Everything the first screen loads after it renders (lazy chunks, fonts) has been asked for: a load the
      // policy blocks is reported by then.
      await page.waitForLoadState('networkidle');
      const violations = await page.evaluate(
        () => (window as unknown as { __cspViolations: Violation[] }).__cspViolations,
      );
      const unexpected = [];
      for (const v of violations) if (!(await isEvalProbe(v))) unexpected.push(v);
      expect(unexpected).toEqual([]);
      expect(errors).toEqual([]);
      // The policy really is enforced: an inline script is refused.
      const inlineRan = await page.evaluate(() => {
        const s = document.createElement('script');
        s.textContent = 'window.__inline = true';
        document.body.append(s);
        return (window as unknown as { __inline?: boolean }).__inline === true;
      });
      expect(inlineRan).toBe(false);
    } finally {
      await context.close();
      server.close();
    }
  });
});
