/**
 * web-lookup's offline web: the search ranks the answer page first for the ways a model words the query, no
 * snippet gives the year away, the list page's other year is a trap the validator catches, and the fixture
 * server speaks SearXNG's JSON API so the real web_search client reads it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFixtureServer, type FixtureServer } from '../../../electron/tasks/fixture-server.js';
import {
  ANSWER_SLUG,
  createFixtureWeb,
  validateWebLookup,
  WEB_PATH,
} from '../../../electron/tasks/builtin/web-lookup.js';
import { searchWith } from '../../../electron/engine/tools/search-backends.js';
import { webQuery } from '../../../electron/sim/policies/web-lookup.js';
import { seededRandom } from '../../../shared/seeded-random.js';

let server: FixtureServer;
beforeAll(async () => {
  server = await startFixtureServer();
});
afterAll(() => server.close());

const answerUrl = () => new URL(`${WEB_PATH}${ANSWER_SLUG}`, server.url).href;

describe('the offline web', () => {
  it('ranks the answer page first for natural queries, and no snippet holds a year', () => {
    const web = createFixtureWeb('http://x');
    for (const query of [
      'Marrow Point Lighthouse first lit',
      'when was the Marrow Point lighthouse built',
      'marrow point light history',
    ]) {
      const hits = web.search(query, 5);
      expect(hits[0].url, query).toBe(`http://x${WEB_PATH}${ANSWER_SLUG}`);
      for (const hit of hits) expect(hit.content).not.toMatch(/\b1[89]\d\d\b/);
    }
  });

  it('draws four different years, and the same draws give the same web', () => {
    for (let seed = 0; seed < 50; seed++) {
      const a = createFixtureWeb('http://x', drawFrom(seed));
      const b = createFixtureWeb('http://x', drawFrom(seed));
      expect(a.answerYear).toBe(b.answerYear);
      const years = a.pages.flatMap((p) => p.paragraphs.join(' ').match(/\b1[89]\d\d\b/g) ?? []);
      expect(new Set(years).size).toBe(4);
    }
  });

  it('serves SearXNG JSON at /search (json only) and every page under /web/', async () => {
    const hits = await searchWith(
      { backend: 'fixture', url: new URL(server.url).origin, key: null },
      'Marrow Point Lighthouse',
      3,
      {
        signal: new AbortController().signal,
        timeoutMs: 5000,
        maxBytes: 1 << 20,
      },
    );
    expect(hits[0]).toMatchObject({ title: 'Marrow Point Lighthouse', url: answerUrl() });
    expect((await fetch(new URL('/search?q=x', server.url))).status).toBe(403);
    const page = await (await fetch(answerUrl())).text();
    expect(page).toContain(`first lit in ${server.web.answerYear}`);
    expect((await fetch(new URL(`${WEB_PATH}nope`, server.url))).status).toBe(404);
  });
});

describe('validateWebLookup', () => {
  const trapYear = () =>
    Number(
      /Harrow Reef Light, on the reef at the bay's mouth, first lit in (\d{4})/.exec(
        server.web.pages.find((p) => p.slug === 'lights-of-kessel-bay')!.paragraphs.join(' '),
      )![1],
    );

  it('passes the year the page states with the page as source', async () => {
    const v = await validateWebLookup(
      `It was first lit in ${server.web.answerYear}. Source: ${answerUrl()}`,
      server.url,
    );
    expect(v).toMatchObject({ ok: true });
  });

  it('fails the trap year from the list page, and a right year without the source', async () => {
    expect((await validateWebLookup(`First lit in ${trapYear()}. Source: ${answerUrl()}`, server.url)).ok).toBe(false);
    const noSource = await validateWebLookup(`First lit in ${server.web.answerYear}.`, server.url);
    expect(noSource).toMatchObject({ ok: false });
    expect(noSource.detail).toMatch(/no link to that page/);
  });

  it('says what is missing when the server is not known or not running', async () => {
    expect((await validateWebLookup('1900', null)).detail).toMatch(/no fixture server/);
    expect((await validateWebLookup('1900', 'http://127.0.0.1:9/')).detail).toMatch(/Could not fetch/);
  });
});

it('the simulated model words its query differently across trials', () => {
  const queries = new Set(Array.from({ length: 12 }, (_, i) => webQuery('Marrow Point Lighthouse', i + 1)));
  expect(queries.size).toBeGreaterThan(1);
});

function drawFrom(seed: number): (n: number) => number {
  const next = seededRandom(seed);
  return (n) => Math.floor(next() * n);
}
