/**
 * The pages the web tasks fetch, served on 127.0.0.1 (no internet needed): time-and-title's page, whose title
 * carries a random word per server start, so the right title can only come from fetching it; and web-lookup's
 * small web under /web/ with its search endpoint (/search?q=…&format=json, SearXNG's JSON API).
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { randomInt } from 'node:crypto';
import { createFixtureWeb, pageHtml, searchBody, WEB_PATH, type FixtureWeb } from './builtin/web-lookup.js';

const ADJECTIVES = [
  'Amber',
  'Brisk',
  'Cobalt',
  'Dappled',
  'Ember',
  'Fennel',
  'Gilded',
  'Hollow',
  'Indigo',
  'Juniper',
  'Kestrel',
  'Lunar',
  'Mossy',
  'Nimble',
  'Opal',
  'Pewter',
  'Quiet',
  'Russet',
  'Saffron',
  'Tidal',
  'Umber',
  'Velvet',
  'Willow',
  'Zephyr',
];
const NOUNS = [
  'Almanac',
  'Beacon',
  'Compass',
  'Ledger',
  'Harbor',
  'Lantern',
  'Meadow',
  'Orchard',
  'Quarry',
  'Summit',
  'Thicket',
  'Atlas',
  'Canyon',
  'Delta',
  'Garden',
  'Journal',
];

export interface FixtureServer {
  readonly url: string;
  readonly title: string;
  /** web-lookup's pages and index (its years are drawn at each start). */
  readonly web: FixtureWeb;
  close(): Promise<void>;
}

export async function startFixtureServer(): Promise<FixtureServer> {
  const word = `${ADJECTIVES[randomInt(ADJECTIVES.length)]} ${NOUNS[randomInt(NOUNS.length)]}`;
  const title = `The ${word} — Parallax test page`;
  const html = page(title, word);
  let web: FixtureWeb | null = null;
  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://localhost');
    const pathname = url.pathname;
    const send = (status: number, type: string, body: string): void => {
      res.writeHead(status, { 'content-type': `${type}; charset=utf-8`, 'cache-control': 'no-store' });
      res.end(req.method === 'HEAD' ? undefined : body);
    };
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      res
        .writeHead(405, { allow: 'GET, HEAD', 'content-type': 'text/plain; charset=utf-8' })
        .end('Only GET and HEAD are served here.\n');
      return;
    }
    if (pathname === '/' || pathname === '/index.html') return send(200, 'text/html', html);
    if (pathname === '/search') {
      if (url.searchParams.get('format') !== 'json')
        return send(
          403,
          'text/plain',
          'Only format=json is served here, as SearXNG does with the json format enabled.\n',
        );
      return send(200, 'application/json', searchBody(web!, url.searchParams.get('q') ?? ''));
    }
    const found = pathname.startsWith(WEB_PATH)
      ? web!.pages.find((p) => `${WEB_PATH}${p.slug}` === pathname)
      : undefined;
    if (found) return send(200, 'text/html', pageHtml(found, web!.pages));
    send(404, 'text/plain', `Not found: this test server serves "/", "/search" and the pages under ${WEB_PATH}.\n`);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  web = createFixtureWeb(`http://127.0.0.1:${port}`);
  return {
    url: `http://127.0.0.1:${port}/`,
    title,
    web,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

function page(title: string, word: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>${title}</title>
<style>body { font-family: sans-serif; max-width: 40em; margin: 2em auto; }</style>
</head>
<body>
<h1>${word}</h1>
<p>This page is served by Parallax on your own machine for the time-and-title task. Its title changes every
time the server starts, so an agent can only report it by actually fetching the page.</p>
<p>An agent that calls tools one at a time sends the whole conversation again for every step; an agent that
writes a program can fetch this page and read the clock in one go. Parallax runs both and counts the tokens.</p>
<ul>
<li>Served from 127.0.0.1 only; nothing leaves this computer.</li>
<li>The heading above repeats the random words of the title.</li>
</ul>
</body>
</html>
`;
}
