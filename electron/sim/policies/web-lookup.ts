/**
 * web-lookup: search, open the result that names the subject, read the year off the page, answer with the
 * page as the source. ReAct (and ReAct + tool search, after finding web_search and fetch_url) does it in three
 * round trips; Code Mode and Hybrid write one program that searches, fetches and prints what it found. The
 * query's wording varies by trial, as a real model's does.
 */
import { callTools, type SimReply } from '../types.js';
import { finalAnswer, missingTools, programOutput, trialDraws } from './common.js';
import { firstLine, jsonResult, lastCall, objectResult, textResult, type Conversation } from './conversation.js';
import { programsFor } from './programs.js';
import { findTools } from './react-search.js';

export interface WebLookupParams {
  /** What the task asks about, e.g. "Marrow Point Lighthouse". */
  readonly subject: string;
}

const QUERIES = ['{s} first lit', '{s} history year first lit', 'when was {s} first lit'];

export function webQuery(subject: string, trial: number): string {
  const pick = Math.floor(trialDraws(trial, 'web-lookup')() * QUERIES.length);
  return QUERIES[pick].replace('{s}', subject);
}

interface Hit {
  readonly title: string;
  readonly url: string;
}

/** The search results, JSON ([{title, url, snippet}]) or plain text lines with a URL each. */
function hitsOf(result: string | undefined): Hit[] {
  const value = jsonResult(result);
  if (Array.isArray(value)) {
    return value.flatMap((v) =>
      typeof v === 'object' && v && typeof v.url === 'string'
        ? [{ title: String(v.title ?? ''), url: v.url as string }]
        : [],
    );
  }
  const text = textResult(result) ?? '';
  return [...text.matchAll(/^(.*?)(https?:\/\/\S+)/gm)].map((m) => ({ title: m[1].trim(), url: m[2] }));
}

/** The hit whose title names the subject, else the first. */
export function pickHit(hits: readonly Hit[], subject: string): Hit | undefined {
  return hits.find((h) => h.title.toLowerCase().includes(subject.toLowerCase())) ?? hits[0];
}

export function yearIn(text: string): number | null {
  const m = /first lit in (\d{4})/i.exec(text);
  return m ? Number(m[1]) : null;
}

function answerWith(subject: string, year: number, url: string): SimReply {
  return finalAnswer([`The ${subject} was first lit in ${year}.`, `Source: ${url}`]);
}

export function reactWebLookup(conv: Conversation, params: WebLookupParams): SimReply {
  const missing = missingTools(conv, ['web_search', 'fetch_url']);
  if (missing) return missing;
  const search = lastCall(conv, 'web_search');
  if (!search) return callTools([{ name: 'web_search', args: { query: webQuery(params.subject, conv.trial) } }]);
  const hit = pickHit(hitsOf(search.result), params.subject);
  if (!hit) return finalAnswer([`The search found nothing I could open: ${firstLine(search.result ?? 'no result')}`]);
  const page = lastCall(conv, 'fetch_url', (a) => a.url === hit.url);
  if (!page)
    return callTools(
      [{ name: 'fetch_url', args: { url: hit.url } }],
      `"${hit.title}" looks like the page; opening it.`,
    );
  const text = objectResult(page.result)?.text ?? textResult(page.result) ?? '';
  const year = yearIn(String(text));
  if (year === null)
    return finalAnswer([
      `${hit.url} does not say when the ${params.subject} was first lit.`,
      firstLine(String(page.result ?? '')),
    ]);
  return answerWith(params.subject, year, hit.url);
}

export function searchWebLookup(conv: Conversation, params: WebLookupParams): SimReply {
  return findTools(conv, ['web_search', 'fetch_url']) ?? reactWebLookup(conv, params);
}

export function codeWebLookup(conv: Conversation, params: WebLookupParams): SimReply {
  const program = lastCall(conv, 'run_code');
  if (!program)
    return callTools([
      {
        name: 'run_code',
        args: { code: programsFor(conv).webLookup(webQuery(params.subject, conv.trial), params.subject) },
      },
    ]);
  const out = programOutput(program.result);
  const line = out.printed.split('\n').find((l) => l.startsWith('{'));
  const found = line === undefined ? undefined : objectResult(line);
  if (out.error || !found || typeof found.url !== 'string' || typeof found.year !== 'number') {
    return finalAnswer([
      `I could not find the year: ${firstLine(out.error ?? (out.printed || 'the program printed nothing'))}`,
    ]);
  }
  return answerWith(params.subject, found.year, found.url);
}
