import { describe, expect, it } from 'vitest';
import { timeIn, type CurrentTime } from '../../../../electron/engine/tools/current-time.js';
import { findTool, invokeTool } from '../../../../electron/engine/tools/index.js';
import { ToolError } from '../../../../electron/engine/tools/tool.js';
import { contextFor } from './helpers.js';

const now = (args: unknown) => invokeTool(findTool('current_time')!, args, contextFor(process.cwd())) as Promise<CurrentTime>;

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
    expect(new Date(parsed).toLocaleDateString('en-US', { weekday: 'long', timeZone: 'Asia/Shanghai' })).toBe(result.weekday);
  });

  it('defaults to UTC', async () => {
    const result = await now({});
    expect(result.timezone).toBe('UTC');
    expect(result.iso.endsWith('+00:00')).toBe(true);
  });

  it('reads a fixed instant correctly across offsets and date lines', () => {
    const at = new Date('2026-03-05T01:02:03Z');
    expect(timeIn('America/New_York', at)).toEqual({ timezone: 'America/New_York', iso: '2026-03-04T20:02:03-05:00', local: '2026-03-04 20:02:03', weekday: 'Wednesday' });
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
});
