/**
 * Checks a final answer against the truth recomputed at validation time (workspace files, the live page, the
 * clock, the demo weather table), never against stored expectations. Free-text tasks are not validated.
 */
import { promises as fs } from 'node:fs';
import path from 'node:path';
import type { TaskRef } from '../../../shared/run-spec.js';
import type { Validation } from '../../../shared/step-event.js';
import { timeIn } from '../tools/current-time.js';
import { weatherFor } from '../tools/get-weather.js';
import { countLog } from './log-stats.js';
import { numbersIn } from './numbers-in.js';
import { validateConfigLookup } from './config-lookup.js';
import { validateWriteErrors } from './write-errors.js';
import { validateMissingFile } from './missing-file.js';
import { validateOwnerChain } from './owner-chain.js';
import { validateToolCatalog } from './tool-catalog.js';
import { validateWebLookup } from './web-lookup.js';
import { judgedFileDetail, listJudgedFolder, readJudgedFile } from './judged-file.js';

export interface ValidateContext {
  readonly workspace: string;
  /** The moment the answer is judged against (default: now). */
  readonly now?: Date;
  /** The run's fixture server (tasks that fetch its pages). */
  readonly fixtureUrl?: string | null;
}

/** How far the reported time may be from the real time in Asia/Shanghai. */
export const TIME_TOLERANCE_MIN = 5;
export const CALC_EXPECTED = 123 * 456 + 789;

export async function validateAnswer(task: TaskRef, answer: string, ctx: ValidateContext): Promise<Validation | null> {
  switch (task.id) {
    case 'log-stats':
      return validateLogStats(answer, ctx.workspace);
    case 'time-and-title':
      return validateTimeAndTitle(task.text, answer, ctx.now ?? new Date());
    case 'weather-f':
      return validateWeather(answer);
    case 'calc':
      return validateCalc(answer);
    case 'config-lookup':
      return validateConfigLookup(answer, ctx.workspace);
    case 'write-errors':
      return validateWriteErrors(answer, ctx.workspace);
    case 'missing-file':
      return validateMissingFile(answer, ctx.workspace);
    case 'owner-chain':
      return validateOwnerChain(answer, ctx.workspace);
    case 'tool-catalog':
      return validateToolCatalog(task.text, answer);
    case 'web-lookup':
      return validateWebLookup(answer, ctx.fixtureUrl);
    default:
      return null;
  }
}

function escapeRe(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** The name as a whole token, not part of a longer file name. */
function nameRe(name: string): RegExp {
  return new RegExp(`(^|[^\\w.-])${escapeRe(name)}(?![\\w-]|\\.\\w)`);
}

async function validateLogStats(answer: string, workspace: string): Promise<Validation> {
  let entries: string[];
  try {
    entries = (await listJudgedFolder(workspace, '')).map((e) => e.name);
  } catch (error) {
    return { ok: false, detail: `Could not read the workspace ${workspace} to recount the logs: ${(error as Error).message}.` };
  }
  const files: { name: string; total: number; errors: number }[] = [];
  for (const name of entries.sort()) {
    if (!name.endsWith('.txt')) continue;
    // A .txt that is a folder is no log; one that is a link, a FIFO or a device ends the check, saying so.
    if ((await fs.lstat(path.join(workspace, name))).isDirectory()) continue;
    try {
      files.push({ name, ...countLog(await readJudgedFile(workspace, name)) });
    } catch (error) {
      return { ok: false, detail: judgedFileDetail(error) ?? `Could not read ${name} in the workspace to recount it: ${(error as Error).message}.` };
    }
  }
  if (files.length === 0) return { ok: false, detail: 'Expected .txt files in the workspace to recount, found none.' };

  const lines = answer.split('\n');
  const problems: string[] = [];
  for (const f of files) {
    const re = nameRe(f.name);
    // Numbers on a line that names the file, the name itself removed so digits in it do not count.
    const found = lines.filter((l) => re.test(l)).map((l) => numbersIn(l.split(f.name).join(' ')));
    if (found.length === 0) problems.push(`${f.name} is not mentioned`);
    else if (!found.some((nums) => nums.includes(f.total) && nums.includes(f.errors))) {
      problems.push(`${f.name} should show ${f.total} lines and ${f.errors} ERROR lines, found ${found.map((n) => n.join('/') || 'no numbers').join('; ')}`);
    }
  }
  const max = Math.max(...files.map((f) => f.errors));
  const leaders = files.filter((f) => f.errors === max).map((f) => f.name);
  const named = namedAsMost(lines, files.map((f) => f.name));
  if (named === null) problems.push(`no line names the file with the most ERROR lines (expected ${leaders.join(' or ')})`);
  else if (!leaders.includes(named)) problems.push(`named ${named} as having the most ERROR lines, expected ${leaders.join(' or ')} (${max})`);

  const expected = files.map((f) => `${f.name} ${f.total}/${f.errors}`).join(', ');
  if (problems.length > 0) return { ok: false, detail: `Expected ${expected}; max ${leaders.join(' or ')}; but ${problems.join('; ')}.` };
  return { ok: true, detail: `Expected and found ${expected}, and ${leaders.join(' or ')} named as having the most ERROR lines (${max}).` };
}

/** The first file named on a line that speaks of the most/highest/largest count. */
function namedAsMost(lines: readonly string[], names: readonly string[]): string | null {
  for (const line of lines) {
    if (!/\b(most|max(imum)?|highest|largest|greatest|top)\b/i.test(line)) continue;
    let first: { name: string; at: number } | null = null;
    for (const name of names) {
      const m = nameRe(name).exec(line);
      if (m && (first === null || m.index < first.at)) first = { name, at: m.index };
    }
    if (first) return first.name;
  }
  return null;
}

function normalize(text: string): string {
  return text.replace(/[\u2012-\u2015\u2212]/g, '-').replace(/\s+/g, ' ').trim().toLowerCase();
}

async function validateTimeAndTitle(taskText: string, answer: string, now: Date): Promise<Validation> {
  const url = /https?:\/\/[^\s"'<>]+/.exec(taskText)?.[0].replace(/[.,;:!?)]+$/, '');
  if (!url) return { ok: false, detail: 'The task text holds no page URL, so the title cannot be checked.' };
  let title: string;
  try {
    const res = await fetch(url, { signal: AbortSignal.timeout(10_000) });
    const { htmlTitle } = await import('../tools/html-convert.js'); // only when a page is validated
    title = htmlTitle(await res.text());
  } catch (error) {
    return { ok: false, detail: `Could not fetch ${url} to check the title (${(error as Error).message}); keep the test page running while validating.` };
  }
  const shanghai = timeIn('Asia/Shanghai', now).local.slice(11, 16);
  const times = clockTimesIn(answer);
  const nowMin = Number(shanghai.slice(0, 2)) * 60 + Number(shanghai.slice(3, 5));
  const closeTime = times.find((t) => circularDistance(t.minutes, nowMin) <= TIME_TOLERANCE_MIN);
  const titleOk = title !== '' && normalize(answer).includes(normalize(title));
  const foundTimes = times.map((t) => t.text).join(', ') || 'none';
  const detail =
    `Expected the title "${title}" and a time within ${TIME_TOLERANCE_MIN} min of ${shanghai} (Asia/Shanghai); ` +
    `found ${titleOk ? 'the title' : 'no such title'} and times ${foundTimes}.`;
  return { ok: titleOk && closeTime !== undefined, detail };
}

/** Clock readings such as 14:05, 14:05:09, 2:05 pm. */
export function clockTimesIn(text: string): { text: string; minutes: number }[] {
  const out: { text: string; minutes: number }[] = [];
  for (const m of text.matchAll(/\b(\d{1,2}):(\d{2})(?::\d{2})?(?:\s*([ap])\.?m\.?\b)?/gi)) {
    let hour = Number(m[1]);
    const minute = Number(m[2]);
    const half = m[3]?.toLowerCase();
    if (minute > 59 || hour > 23 || (half && (hour < 1 || hour > 12))) continue;
    if (half === 'p' && hour < 12) hour += 12;
    if (half === 'a' && hour === 12) hour = 0;
    out.push({ text: m[0], minutes: hour * 60 + minute });
  }
  return out;
}

function circularDistance(a: number, b: number): number {
  const d = Math.abs(a - b) % 1440;
  return Math.min(d, 1440 - d);
}

function decimalsOf(n: string): number {
  return n.includes('.') ? n.split('.')[1].length : 0;
}

/** True when `written` is `value` rounded to the precision it was written with (69.8 → "70" or "69.8"). */
function matchesRounded(written: string, value: number): boolean {
  const d = decimalsOf(written);
  return Math.abs(Number(written) - Number(value.toFixed(d))) < 1e-9;
}

function validateWeather(answer: string): Validation {
  const w = weatherFor('Beijing');
  const f = (w.tempC * 9) / 5 + 32;
  // Prefer numbers marked as Fahrenheit; fall back to every number when none is marked.
  const marked = [...answer.matchAll(/(-?\d+(?:\.\d+)?)\s*(?:°|º|degrees?\s*)?\s*(?:F\b|Fahrenheit)/gi)].map((m) => m[1]);
  const candidates = marked.length > 0 ? marked : [...answer.matchAll(/-?\d+(?:\.\d+)?/g)].map((m) => m[0]);
  const ok = candidates.some((c) => matchesRounded(c, f));
  const expected = `${Number(f.toFixed(2))} °F (Beijing ${w.tempC} °C, demo data)`;
  return { ok, detail: `Expected ${expected}; found ${candidates.length ? candidates.join(', ') : 'no number'}${marked.length ? ' marked °F' : ''}.` };
}

function validateCalc(answer: string): Validation {
  const found = numbersIn(answer);
  const ok = found.includes(CALC_EXPECTED);
  return { ok, detail: `Expected ${CALC_EXPECTED}; found ${found.length ? found.join(', ') : 'no number'}.` };
}
