/**
 * time-and-title. ReAct: current_time and fetch_url as two parallel calls, then the answer. Code Mode: a
 * program that finds both hidden tools with search_tools and prints the time and the title. With return types
 * hidden it first guesses that fetch_url returns the HTML string (as real models do), reads the error,
 * then inspects the object and uses `.title`. That is trial 1; later trials with types hidden guess wrong 2 times
 * in 3 and otherwise print fetch_url's describe() first, then read `.title`.
 */
import { callTools, type SimReply } from '../types.js';
import { finalAnswer, missingTools, programOutput, returnTypesShown, searchMissed, trialDraws } from './common.js';
import type { SimModelId } from '../../../shared/sim-models.js';
import { lines, programsFor, type Programs } from './programs.js';
import { firstLine, lastCall, objectResult, textResult, type CallRecord, type Conversation } from './conversation.js';

export interface TimeTitleParams {
  readonly url: string | null;
  readonly timezone: string;
}

function clock(time: Record<string, unknown>): string | null {
  for (const field of [time.local, time.iso]) {
    const m = typeof field === 'string' ? /(\d{1,2}):(\d{2})/.exec(field) : null;
    if (m) return `${m[1].padStart(2, '0')}:${m[2]}`;
  }
  return null;
}

/** A time as plain text ("2026-12-01 18:04:05 …"): read as the local wall-clock time. */
function plainTime(result: string | undefined): Record<string, unknown> | undefined {
  const text = textResult(result);
  const m = text === undefined ? null : /\d{4}-\d{2}-\d{2}[ T]\d{1,2}:\d{2}(:\d{2})?/.exec(text);
  return m ? { local: m[0].replace('T', ' ') } : undefined;
}

/** A page as plain text: its <title>, a "Title:" line, or else its first line. */
function plainPage(result: string | undefined): Record<string, unknown> | undefined {
  const text = textResult(result);
  if (text === undefined || text.trim() === '') return undefined;
  const title =
    /<title[^>]*>([^<]*)<\/title>/i.exec(text)?.[1] ?? /^\s*title:\s*(.+)$/im.exec(text)?.[1] ?? firstLine(text, 200);
  return { title: title.trim() };
}

function finalFor(params: TimeTitleParams, time: Record<string, unknown>, title: string): SimReply {
  const hhmm = clock(time);
  const day = typeof time.weekday === 'string' ? `${time.weekday}, ` : '';
  const date = typeof time.local === 'string' ? time.local.slice(0, 10) : '';
  return finalAnswer([
    hhmm ? `It is ${hhmm} in ${params.timezone} (${day}${date}).` : `The time in ${params.timezone} could not be read.`,
    title ? `The page at ${params.url} is titled "${title}".` : `The page at ${params.url} has no title.`,
  ]);
}

function noUrl(): SimReply {
  return finalAnswer([
    'The task names no page URL to fetch, so I can only tell the time. Please give the full http:// URL.',
  ]);
}

export function reactTimeAndTitle(conv: Conversation, params: TimeTitleParams): SimReply {
  const missing = missingTools(conv, ['current_time', 'fetch_url']);
  if (missing) return missing;
  if (!params.url) return noUrl();
  const url = params.url;
  const time = lastCall(conv, 'current_time');
  const page = lastCall(conv, 'fetch_url', (a) => a.url === url);
  if (!time || !page) {
    return callTools([
      ...(time ? [] : [{ name: 'current_time', args: { timezone: params.timezone } }]),
      ...(page ? [] : [{ name: 'fetch_url', args: { url } }]),
    ]);
  }
  const t = objectResult(time.result) ?? plainTime(time.result);
  const p = objectResult(page.result) ?? plainPage(page.result);
  if (!t || !p) {
    const failures = [
      !t && `current_time failed: ${firstLine(time.result ?? 'no result')}`,
      !p && `fetch_url failed: ${firstLine(page.result ?? 'no result')}`,
    ];
    return finalAnswer(['I could not finish the task.', ...failures.filter((f): f is string => typeof f === 'string')]);
  }
  return finalFor(params, t, typeof p.title === 'string' ? p.title : '');
}

const TIME_QUERY = 'current time in a timezone';
const PAGE_QUERY = 'download web page';
/** After a search found nothing fitting (vague descriptions), the model searches by the names it expects. */
const PAGE_NAME_QUERY = 'fetch url';

const findClock = (p: Programs) => p.find('clock', TIME_QUERY);
const findPage = (p: Programs, query = PAGE_QUERY) => p.find('fetchPage', query);

function guessProgram(p: Programs, params: TimeTitleParams, url: string): string {
  return lines(findClock(p), findPage(p), p.printCall('clock', params.timezone), p.guessTitle(url));
}

function inspectProgram(p: Programs, url: string, query = PAGE_QUERY): string {
  return lines(findPage(p, query), p.inspectPage(url));
}

/** The careful way with types hidden: read fetch_url's own description (signature with its return type) first. */
function describeProgram(p: Programs, params: TimeTitleParams): string {
  return lines(findClock(p), findPage(p), p.describe('fetchPage'), p.printCall('clock', params.timezone));
}

function titleProgram(p: Programs, url: string, query = PAGE_QUERY): string {
  return lines(findPage(p, query), p.printTitle(url));
}

/**
 * With return types hidden, whether this trial guesses fetch_url's result is an HTML string (trial 1: yes).
 * sim-careful never guesses (it prints describe() first); sim-hasty always does.
 */
export function guessesReturnType(trial: number, model: SimModelId = 'sim'): boolean {
  if (model !== 'sim') return model === 'sim-hasty';
  return trial <= 1 || trialDraws(trial, 'time-and-title')() < 2 / 3;
}

function directProgram(p: Programs, params: TimeTitleParams, url: string): string {
  return lines(findClock(p), findPage(p), p.printCall('clock', params.timezone), p.printTitle(url));
}

/** The latest printed time object and title across the programs run so far. */
function readings(programs: readonly CallRecord[]): { time: Record<string, unknown> | null; title: string | null } {
  let time: Record<string, unknown> | null = null;
  let title: string | null = null;
  for (const p of [...programs].reverse()) {
    for (const line of programOutput(p.result).printed.split('\n').reverse()) {
      if (!time && line.startsWith('{')) {
        const obj = objectResult(line);
        if (obj && ('local' in obj || 'iso' in obj)) time = obj;
      }
      const m = /^title: (.*)$/.exec(line);
      if (title === null && m && m[1] !== 'undefined' && m[1] !== 'None') title = m[1];
    }
  }
  return { time, title };
}

export function codeTimeAndTitle(conv: Conversation, params: TimeTitleParams): SimReply {
  if (!params.url) return noUrl();
  const programs = conv.calls.filter((c) => c.name === 'run_code');
  const p = programsFor(conv);
  const missed = searchMissed(conv);
  const query = missed ? PAGE_NAME_QUERY : PAGE_QUERY;
  if (programs.length === 0) {
    if (returnTypesShown(conv))
      return callTools([{ name: 'run_code', args: { code: directProgram(p, params, params.url) } }]);
    const code = guessesReturnType(conv.trial, conv.model)
      ? guessProgram(p, params, params.url)
      : describeProgram(p, params);
    return callTools([{ name: 'run_code', args: { code } }]);
  }
  const { time, title } = readings(programs);
  if (time && title !== null) return finalFor(params, time, title);
  const last = programOutput(programs[programs.length - 1].result);
  const codeOf = (c: CallRecord) => (typeof c.args.code === 'string' ? c.args.code : '');
  const described = programs.some((c) => codeOf(c) === describeProgram(p, params));
  const titled = programs.some((c) => codeOf(c).includes(p.printTitle(params.url!)));
  if (described && !titled && /\btitle\b/.test(last.printed)) {
    return callTools(
      [{ name: 'run_code', args: { code: titleProgram(p, params.url, query) } }],
      'fetch_url returns an object with a title field; reading it.',
    );
  }
  const inspected = programs.some((c) => codeOf(c).includes(p.inspectPage(params.url!)));
  // A TypeError from treating the result as a string: look at what fetch_url really returns.
  if (last.error && /TypeError|not a function|undefined/i.test(last.error) && !inspected && programs.length < 3) {
    return callTools(
      [
        {
          name: 'run_code',
          args: {
            code: time
              ? inspectProgram(p, params.url, query)
              : lines(inspectProgram(p, params.url, query), findClock(p), p.printCall('clock', params.timezone)),
          },
        },
      ],
      missed
        ? `search_tools(${JSON.stringify(PAGE_QUERY)}) found no page tool (${firstLine(last.error, 100)}); searching by the name it likely has.`
        : `fetch_url did not return a string (${firstLine(last.error, 100)}). Let me look at what it returns.`,
    );
  }
  const why = last.error ? firstLine(last.error) : 'the program did not print both the time and the title';
  return finalAnswer([
    `I could not finish the task: ${why}.`,
    ...(time ? [`The time in ${params.timezone} is ${clock(time) ?? 'unknown'}.`] : []),
  ]);
}
