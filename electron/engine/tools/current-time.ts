import { z } from 'zod';
import { defineTool, ToolError } from './tool.js';

export interface CurrentTime {
  /** Canonical IANA name of the zone. */
  readonly timezone: string;
  /** ISO 8601 with the zone's UTC offset, e.g. 2026-11-30T18:04:05+08:00. */
  readonly iso: string;
  /** Wall-clock date and time in the zone, e.g. 2026-11-30 18:04:05. */
  readonly local: string;
  readonly weekday: string;
}

export const currentTime = defineTool({
  name: 'current_time',
  description:
    'Get the current date and time (clock) in an IANA time zone such as "Asia/Shanghai" or "Europe/London". ' +
    'Returns {timezone, iso, local, weekday}: iso carries the UTC offset, local is "YYYY-MM-DD HH:MM:SS".',
  args: z.object({
    timezone: z
      .string()
      .default('UTC')
      .describe('IANA time zone name, e.g. "Asia/Shanghai" for Beijing; default "UTC".'),
  }),
  returns: '{timezone: string, iso: string, local: string, weekday: string}',
  async run({ timezone }): Promise<CurrentTime> {
    return timeIn(timezone, new Date());
  },
});

/**
 * Formatters by zone name: building one loads ICU zone data (~0.1–1 ms each); a run asks for the same few
 * zones again and again. Unknown names are not cached, and the cache is bounded so a model inventing names
 * cannot grow it.
 */
const formatters = new Map<string, Intl.DateTimeFormat>();
const MAX_FORMATTERS = 64;

function formatterFor(zone: string): Intl.DateTimeFormat | null {
  const cached = formatters.get(zone);
  if (cached) return cached;
  let format: Intl.DateTimeFormat;
  try {
    format = new Intl.DateTimeFormat('en-US', {
      timeZone: zone,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
      weekday: 'long',
      timeZoneName: 'longOffset',
    });
  } catch {
    return null;
  }
  if (formatters.size >= MAX_FORMATTERS) formatters.delete(formatters.keys().next().value!);
  formatters.set(zone, format);
  return format;
}

/** How many zone formatters are cached (for tests). */
export function cachedFormatterCount(): number {
  return formatters.size;
}

/** The wall-clock reading of `at` in `timezone`. */
export function timeIn(timezone: string, at: Date): CurrentTime {
  const format = formatterFor(timezone.trim());
  if (!format) {
    throw new ToolError(
      `Unknown time zone ${JSON.stringify(timezone)}. Use an IANA time zone name such as "Asia/Shanghai" ` +
        '(Beijing), "America/New_York" or "UTC".',
    );
  }
  const part: Record<string, string> = {};
  for (const p of format.formatToParts(at)) part[p.type] = p.value;
  const local = `${part.year}-${part.month}-${part.day} ${part.hour}:${part.minute}:${part.second}`;
  // "GMT+08:00" → "+08:00"; plain "GMT" means offset zero.
  const gmt = part.timeZoneName ?? 'GMT';
  const offset = gmt === 'GMT' || gmt === 'UTC' ? '+00:00' : gmt.replace(/^(GMT|UTC)/, '');
  return {
    timezone: canonicalName(timezone.trim(), format.resolvedOptions().timeZone),
    iso: `${local.replace(' ', 'T')}${offset}`,
    local,
    weekday: part.weekday,
  };
}

/** Keep the name the caller used: ICU would turn "Asia/Kolkata" into its old alias "Asia/Calcutta". */
function canonicalName(given: string, resolved: string): string {
  return resolved.toLowerCase() === given.toLowerCase() ? resolved : given;
}
