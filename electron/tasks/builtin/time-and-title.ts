/**
 * time-and-title: two independent calls, the time in a zone and a page's title (the fixture server's page,
 * whose title changes at each start), judged against the clock and the page fetched again.
 */
import type { Validation } from '../../../shared/step-event.js';
import { codeTimeAndTitle, reactTimeAndTitle } from '../../sim/policies/time-and-title.js';
import { searchTimeAndTitle } from '../../sim/policies/react-search.js';
import { timeIn } from '../../engine/tools/current-time.js';
import { defineTask } from '../task.js';

/** How far the reported time may be from the real time in Asia/Shanghai. */
export const TIME_TOLERANCE_MIN = 5;

export const timeAndTitle = defineTask({
  id: 'time-and-title',
  validate: (answer, ctx) => validateTimeAndTitle(ctx.taskText, answer, ctx.now ?? new Date()),
  sim: {
    detect: (text) => {
      const zone = /\b([A-Z][A-Za-z_]+\/[A-Z][A-Za-z_]+)\b/.exec(text)?.[1];
      if (!(zone || /\bwhat time\b/i.test(text)) || !/\btitle\b/i.test(text)) return null;
      const url = /https?:\/\/[^\s"'<>]+/.exec(text)?.[0].replace(/[.,;:!?)]+$/, '') ?? null;
      return { url, timezone: zone ?? 'Asia/Shanghai' };
    },
    react: reactTimeAndTitle,
    code: codeTimeAndTitle,
    modes: { 'react-search': searchTimeAndTitle },
  },
});

function normalize(text: string): string {
  return text
    .replace(/[\u2012-\u2015\u2212]/g, '-')
    .replace(/\s+/g, ' ')
    .trim()
    .toLowerCase();
}

async function validateTimeAndTitle(taskText: string, answer: string, now: Date): Promise<Validation> {
  const url = /https?:\/\/[^\s"'<>]+/.exec(taskText)?.[0].replace(/[.,;:!?)]+$/, '');
  if (!url) return { ok: false, detail: 'The task text holds no page URL, so the title cannot be checked.' };
  let title: string;
  try {
    const res = await fetch(url, { signal: AbortSignal.timeout(10_000) });
    const { htmlTitle } = await import('../../engine/tools/html-convert.js'); // only when a page is validated
    title = htmlTitle(await res.text());
  } catch (error) {
    return {
      ok: false,
      detail: `Could not fetch ${url} to check the title (${(error as Error).message}); keep the test page running while validating.`,
    };
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
