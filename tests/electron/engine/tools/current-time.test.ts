import { describe, expect, it } from 'vitest';
import { cachedFormatterCount, timeIn, type CurrentTime } from '../../../../electron/engine/tools/current-time.js';
import { findTool, invokeTool } from '../../../../electron/engine/tools/index.js';
import { ToolError } from '../../../../electron/engine/tools/tool.js';
import { contextFor } from './helpers.js';

const now = (args: unknown) =>
  invokeTool(findTool('current_time')!, args, contextFor(process.cwd())) as Promise<CurrentTime>;

describe('current_time', () => {
  it('gives the current time in the zone, with an ISO string that parses back to now', async () => {
    const before = Date.now();
    const result = await now({ timezone: 'Asia/Shanghai' });
    expect(result.timezone).toBe('Asia/Shanghai');
    expect(result.iso).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\+08:00$/);
    expect(result.iso.slice(0, 19)).toBe(result.local.replace(' ', 'T'));
    const parsed = Date.parse(result.iso);
    expect(parsed).toBeGreaterThanOrEqual(Math.floor(before / 1000) * 1000);
    expect(parsed).toBeLessThanOrEqual(Date.now());
    expect(new Date(parsed).toLocaleDateString('en-US', { weekday: 'long', timeZone: 'Asia/Shanghai' })).toBe(
      result.weekday,
    );
  });

  it('defaults to UTC', async () => {
    const result = await now({});
    expect(result.timezone).toBe('UTC');
    expect(result.iso.endsWith('+00:00')).toBe(true);
  });

  it('reads a fixed instant correctly across offsets and date lines', () => {
    const at = new Date('2026-03-05T01:02:03Z');
    expect(timeIn('America/New_York', at)).toEqual({
      timezone: 'America/New_York',
      iso: '2026-03-04T20:02:03-05:00',
      local: '2026-03-04 20:02:03',
      weekday: 'Wednesday',
    });
    expect(timeIn('Asia/Kolkata', at).iso).toBe('2026-03-05T06:32:03+05:30');
    expect(timeIn('Asia/Kolkata', at).timezone).toBe('Asia/Kolkata');
    expect(timeIn('asia/shanghai', at).timezone).toBe('Asia/Shanghai');
    expect(timeIn('Asia/Shanghai', new Date('2026-03-05T16:30:00Z')).local).toBe('2026-03-06 00:30:00');
  });

  it('names a valid example for an unknown zone', async () => {
    const error = await now({ timezone: 'Beijing' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ToolError);
    expect((error as Error).message).toMatch(/Unknown time zone "Beijing".*"Asia\/Shanghai"/);
  });

  it('keeps one formatter per zone, never for a name that is not a zone, and a bounded number of them', () => {
    const at = new Date('2026-03-05T01:02:03Z');
    timeIn('Europe/Paris', at);
    const afterOne = cachedFormatterCount();
    for (let i = 0; i < 20; i++) expect(timeIn(' Europe/Paris ', at).local).toBe('2026-03-05 02:02:03');
    expect(cachedFormatterCount()).toBe(afterOne);
    for (let i = 0; i < 20; i++) expect(() => timeIn(`Mars/Crater${i}`, at)).toThrow(ToolError);
    expect(cachedFormatterCount()).toBe(afterOne);
    // A model cycling through every zone there is cannot grow the cache without bound; the answers stay right.
    for (const zone of Intl.supportedValuesOf('timeZone').slice(0, 200)) timeIn(zone, at);
    expect(cachedFormatterCount()).toBeLessThanOrEqual(64);
    expect(timeIn('Asia/Tokyo', at).iso).toBe('2026-03-05T10:02:03+09:00');
  });
});
