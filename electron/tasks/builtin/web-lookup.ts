/**
 * web-lookup: a small offline web served by the fixture server. A handful of pages about the lighthouses of a
 * made-up bay, their years drawn at each server start, and a search endpoint speaking SearXNG's JSON API over
 * them (so web_search's SearXNG client is what reads it). No snippet carries a year: the answer can only come
 * from opening the right page, and the list page names another lighthouse's year as a trap for hasty readers.
 */
import { randomInt } from 'node:crypto';
import MiniSearch from 'minisearch';
import type { Validation } from '../../../shared/step-event.js';
import { webSearch } from '../../engine/tools/web-search.js';
import { codeWebLookup, reactWebLookup, searchWebLookup } from '../../sim/policies/web-lookup.js';
import { defineTask } from '../task.js';

export const webLookup = defineTask({
  id: 'web-lookup',
  tools: () => WEB_LOOKUP_TOOLS,
  validate: (answer, ctx) => validateWebLookup(answer, ctx.fixtureUrl),
  sim: {
    detect: (text) => {
      const lit = /\b(?:search|look)\b[\s\S]*?\byear (?:the )?(.+?) was first lit\b/i.exec(text);
      return lit ? { subject: lit[1].trim() } : null;
    },
    react: reactWebLookup,
    code: codeWebLookup,
    modes: { 'react-search': searchWebLookup },
  },
});

export interface WebPage {
  readonly slug: string;
  readonly title: string;
  /** The first sentence: what a search result shows. */
  readonly summary: string;
  readonly paragraphs: readonly string[];
}

export interface FixtureWeb {
  readonly pages: readonly WebPage[];
  /** The year the task asks for, as the page states it. */
  readonly answerYear: number;
  search(query: string, count: number): { title: string; url: string; content: string; score: number }[];
}

/** The page that answers the task, under the fixture server's /web/. */
export const ANSWER_SLUG = 'marrow-point-lighthouse';
export const WEB_PATH = '/web/';

/** Four distinct years from 1850 to 1912, drawn by `draw(n)` (0 ≤ result < n). */
function years(draw: (n: number) => number): number[] {
  const out: number[] = [];
  while (out.length < 4) {
    const y = 1850 + draw(63);
    if (!out.includes(y)) out.push(y);
  }
  return out;
}

/** One array, so the run's tool profile with it is built once (modes/toolsets.ts caches by it). */
const WEB_LOOKUP_TOOLS = [webSearch];

export function createFixtureWeb(origin: string, draw: (n: number) => number = randomInt): FixtureWeb {
  const [marrow, harrow, gannet, guild] = years(draw);
  const pages: WebPage[] = [
    {
      slug: ANSWER_SLUG,
      title: 'Marrow Point Lighthouse',
      summary: 'The Marrow Point Lighthouse stands on the granite headland north of Kessel Bay.',
      paragraphs: [
        `Built of local granite over three winters, its lamp was first lit in ${marrow} and has warned ships off the Marrow shoals ever since.`,
        'The tower is 31 metres tall; its white light flashes twice every ten seconds and is seen 18 nautical miles out.',
        'Keepers lived in the cottage at its foot until the light was automated.',
      ],
    },
    {
      slug: 'marrow-point-village',
      title: 'Marrow Point (village)',
      summary: 'Marrow Point is a fishing village of some four hundred people on the north shore of Kessel Bay.',
      paragraphs: [
        'The village grew around its harbour; the lighthouse on the headland above it is the best-known sight of the bay.',
        'A ferry runs to Gannet Island twice a day in summer.',
      ],
    },
    {
      slug: 'lights-of-kessel-bay',
      title: 'Lights of Kessel Bay',
      summary: 'Three lighthouses guard the approaches to Kessel Bay, each with its own page.',
      paragraphs: [
        'Marrow Point Lighthouse, on the northern headland: see its own page for its history.',
        `Harrow Reef Light, on the reef at the bay's mouth, first lit in ${harrow}.`,
        `Gannet Island Lighthouse, on the island's western cliff, first lit in ${gannet}.`,
      ],
    },
    {
      slug: 'harrow-reef-light',
      title: 'Harrow Reef Light',
      summary: 'Harrow Reef Light is an iron screw-pile lighthouse on the reef at the mouth of Kessel Bay.',
      paragraphs: [`It was first lit in ${harrow}, after two earlier towers on the reef were lost to storms.`],
    },
    {
      slug: 'gannet-island-lighthouse',
      title: 'Gannet Island Lighthouse',
      summary: 'Gannet Island Lighthouse crowns the western cliff of Gannet Island in Kessel Bay.',
      paragraphs: [`The light was first lit in ${gannet}; its keepers kept the island's only garden.`],
    },
    {
      slug: 'kessel-bay-keepers-guild',
      title: 'Kessel Bay Keepers Guild',
      summary: 'The Keepers Guild kept the records of every lighthouse keeper who served on Kessel Bay.',
      paragraphs: [
        `Founded in ${guild}, the guild still holds the logbooks of Marrow Point, Harrow Reef and Gannet Island.`,
      ],
    },
    {
      slug: 'kessel-bay-ferry',
      title: 'Kessel Bay ferry timetable',
      summary: 'Ferries cross Kessel Bay from Marrow Point harbour to Gannet Island.',
      paragraphs: ['Summer: 09:15 and 16:40 from Marrow Point; 11:00 and 18:20 from Gannet Island.'],
    },
  ];
  const index = new MiniSearch<WebPage & { id: string; text: string }>({
    fields: ['title', 'text'],
    storeFields: ['slug'],
    searchOptions: { boost: { title: 3 }, prefix: true, fuzzy: 0.2, combineWith: 'OR' },
  });
  index.addAll(pages.map((p) => ({ ...p, id: p.slug, text: [p.summary, ...p.paragraphs].join(' ') })));
  return {
    pages,
    answerYear: marrow,
    search(query, count) {
      return index
        .search(query)
        .slice(0, count)
        .map((hit) => {
          const page = pages.find((p) => p.slug === hit.id)!;
          return {
            title: page.title,
            url: `${origin}${WEB_PATH}${page.slug}`,
            content: page.summary,
            score: Math.round(hit.score * 1000) / 1000,
          };
        });
    },
  };
}

export function pageHtml(page: WebPage, all: readonly WebPage[]): string {
  const esc = (s: string): string => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
  const links = all
    .filter((p) => p.slug !== page.slug)
    .map((p) => `<li><a href="${WEB_PATH}${p.slug}">${esc(p.title)}</a></li>`);
  return `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><title>${esc(page.title)}</title></head>
<body>
<h1>${esc(page.title)}</h1>
<p>${esc(page.summary)}</p>
${page.paragraphs.map((p) => `<p>${esc(p)}</p>`).join('\n')}
<nav><h2>Other pages</h2><ul>${links.join('')}</ul></nav>
<footer>Served by Parallax on your own machine for the web-lookup task; the years change every time the server starts.</footer>
</body>
</html>
`;
}

/** The SearXNG-shaped JSON body of a search over the fixture web. */
export function searchBody(web: FixtureWeb, query: string): string {
  const results = web
    .search(query, 10)
    .map((r) => ({ ...r, engine: 'parallax-fixture', engines: ['parallax-fixture'], category: 'general' }));
  return JSON.stringify({
    query,
    number_of_results: results.length,
    results,
    answers: [],
    corrections: [],
    infoboxes: [],
    suggestions: [],
    unresponsive_engines: [],
  });
}

/**
 * Right when the answer gives the year the answer page states (fetched live, like time-and-title's title) and
 * names that page's URL as its source.
 */
export async function validateWebLookup(answer: string, fixtureUrl: string | null | undefined): Promise<Validation> {
  if (!fixtureUrl)
    return { ok: false, detail: 'The run has no fixture server address, so the page cannot be checked.' };
  const url = new URL(`${WEB_PATH}${ANSWER_SLUG}`, fixtureUrl).href;
  let text: string;
  try {
    const res = await fetch(url, { signal: AbortSignal.timeout(10_000) });
    const { htmlToText } = await import('../../engine/tools/html-convert.js'); // only when a page is validated
    text = htmlToText(await res.text());
  } catch (error) {
    return {
      ok: false,
      detail: `Could not fetch ${url} to check the year (${(error as Error).message}); keep the test server running while validating.`,
    };
  }
  const year = /first lit in (\d{4})/.exec(text)?.[1];
  if (!year) return { ok: false, detail: `${url} states no year; the fixture page is not the one this build serves.` };
  const yearOk = new RegExp(`\\b${year}\\b`).test(answer);
  const sourceOk = answer.includes(`${WEB_PATH}${ANSWER_SLUG}`);
  const found = [...new Set(answer.match(/\b1[89]\d\d\b/g) ?? [])].join(', ') || 'no year';
  return {
    ok: yearOk && sourceOk,
    detail: `Expected ${year} and the source ${url}; found ${found}${sourceOk ? ' and the source' : ' and no link to that page'}.`,
  };
}
