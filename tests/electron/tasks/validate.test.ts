import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { countLog } from '../../../electron/tasks/builtin/rules.js';
import { prepareFixture } from '../../../electron/tasks/fixtures.js';
import { resolveTask } from '../../../electron/tasks/resolve.js';
import { startFixtureServer, type FixtureServer } from '../../../electron/tasks/fixture-server.js';
import { validateAnswer } from '../../../electron/tasks/index.js';
import { timeIn } from '../../../electron/engine/tools/current-time.js';
import { weatherFor } from '../../../electron/engine/tools/get-weather.js';

let workspace: string;
let page: FixtureServer;
let rows: { name: string; total: number; errors: number }[];
beforeAll(async () => {
  workspace = await mkdtemp(path.join(tmpdir(), 'parallax-validate-'));
  await prepareFixture('log-stats', workspace, 21);
  rows = [];
  for (const name of (await readdir(workspace)).filter((n) => n.endsWith('.txt')).sort()) {
    rows.push({ name, ...countLog(await readFile(path.join(workspace, name), 'utf8')) });
  }
  page = await startFixtureServer();
});
afterAll(async () => {
  await page.close();
  await rm(workspace, { recursive: true, force: true });
});

const LOGS = { id: 'log-stats', text: '' };
const leader = () => [...rows].sort((a, b) => b.errors - a.errors)[0];

describe('log-stats', () => {
  it('accepts counts written in prose or a table, naming the leader', async () => {
    const prose =
      rows.map((r) => `- ${r.name}: ${r.total} lines, ${r.errors} contain ERROR`).join('\n') +
      `\nMost ERROR lines: ${leader().name}.`;
    expect(await validateAnswer(LOGS, prose, { workspace })).toMatchObject({ ok: true });
    const table = [
      '| File | Total | ERROR |',
      '|---|---|---|',
      ...rows.map((r) => `| \`${r.name}\` | ${r.total.toLocaleString('en-US')} | ${r.errors} |`),
      `**${leader().name}** has the highest ERROR count.`,
    ].join('\n');
    const v = await validateAnswer(LOGS, table, { workspace });
    expect(v?.ok, v?.detail).toBe(true);
  });

  it('rejects one wrong ERROR count, saying which file and what was expected', async () => {
    const [first, ...rest] = rows;
    const answer = [
      `${first.name}: ${first.total} lines, ${first.errors + 1} ERROR`,
      ...rest.map((r) => `${r.name}: ${r.total} lines, ${r.errors} ERROR`),
      `The most: ${leader().name}`,
    ].join('\n');
    const v = await validateAnswer(LOGS, answer, { workspace });
    expect(v?.ok).toBe(false);
    expect(v?.detail).toContain(
      `${first.name} should show ${first.total} lines and ${first.errors} ERROR lines, found ${first.total}/${first.errors + 1}`,
    );
  });

  it('rejects a missing file, the wrong leader, and a missing leader', async () => {
    const lines = rows.map((r) => `${r.name}: ${r.total} lines, ${r.errors} ERROR`);
    const other = rows.find((r) => r.name !== leader().name)!;
    const noFile = await validateAnswer(LOGS, [...lines.slice(1), `Most: ${leader().name}`].join('\n'), { workspace });
    expect(noFile?.detail).toContain(`${rows[0].name} is not mentioned`);
    const wrong = await validateAnswer(LOGS, [...lines, `Most ERROR lines: ${other.name}`].join('\n'), { workspace });
    expect(wrong?.ok).toBe(false);
    expect(wrong?.detail).toContain(`named ${other.name} as having the most ERROR lines, expected ${leader().name}`);
    const none = await validateAnswer(LOGS, lines.join('\n'), { workspace });
    expect(none?.detail).toContain('no line names the file with the most ERROR lines');
  });

  it('recounts the workspace as it is now', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'parallax-validate-edit-'));
    try {
      await writeFile(path.join(dir, 'a.txt'), 'x ERROR\ny\n');
      await writeFile(path.join(dir, 'b.txt'), 'ERROR\nERROR\nok\n');
      expect(await validateAnswer(LOGS, 'a.txt 2 1\nb.txt 3 2\nmost: b.txt', { workspace: dir })).toMatchObject({
        ok: true,
      });
      await writeFile(path.join(dir, 'a.txt'), 'x ERROR\ny\nERROR\nERROR\n');
      expect(await validateAnswer(LOGS, 'a.txt 2 1\nb.txt 3 2\nmost: b.txt', { workspace: dir })).toMatchObject({
        ok: false,
      });
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});

describe('time-and-title', () => {
  const now = new Date('2026-11-30T06:04:00Z'); // 14:04 in Asia/Shanghai
  const task = () => resolveTask('time-and-title', { fixtureUrl: page.url });

  it('accepts the live title and a time within a few minutes, in 24- or 12-hour form', async () => {
    for (const time of ['14:04', '14:07:10', '2:01 PM']) {
      const v = await validateAnswer(task(), `It is ${time} in Shanghai. The title is "${page.title}".`, {
        workspace,
        now,
      });
      expect(v?.ok, `${time}: ${v?.detail}`).toBe(true);
    }
    expect(timeIn('Asia/Shanghai', now).local).toContain('14:04');
  });

  it('rejects a wrong title, a wrong time, and a UTC time', async () => {
    const wrongTitle = await validateAnswer(task(), 'It is 14:04. The title is "Example Domain".', { workspace, now });
    expect(wrongTitle).toMatchObject({ ok: false });
    expect(wrongTitle?.detail).toContain(`Expected the title "${page.title}"`);
    expect(await validateAnswer(task(), `It is 14:30. Title: ${page.title}`, { workspace, now })).toMatchObject({
      ok: false,
    });
    expect(await validateAnswer(task(), `It is 06:04. Title: ${page.title}`, { workspace, now })).toMatchObject({
      ok: false,
    });
  });

  it('says when the page cannot be fetched to check', async () => {
    const gone = await startFixtureServer();
    await gone.close();
    const v = await validateAnswer(resolveTask('time-and-title', { fixtureUrl: gone.url }), 'anything 14:04', {
      workspace,
      now,
    });
    expect(v?.ok).toBe(false);
    expect(v?.detail).toMatch(/Could not fetch .* keep the test page running/);
  });
});

describe('weather-f and calc', () => {
  const f = (weatherFor('Beijing').tempC * 9) / 5 + 32;

  it('weather-f accepts the Fahrenheit value at the precision written, and rejects others', async () => {
    const W = { id: 'weather-f', text: '' };
    expect(await validateAnswer(W, `About ${Math.round(f)}°F.`, { workspace })).toMatchObject({ ok: true });
    expect(
      await validateAnswer(W, `${weatherFor('Beijing').tempC} °C is ${f.toFixed(1)} degrees Fahrenheit.`, {
        workspace,
      }),
    ).toMatchObject({ ok: true });
    expect(await validateAnswer(W, `It is ${f.toFixed(1)} F.`, { workspace })).toMatchObject({ ok: true });
    const wrong = await validateAnswer(
      W,
      `It is ${(f + 1.5).toFixed(1)} °F (${weatherFor('Beijing').tempC} °C, ${f.toFixed(1)} in my head).`,
      { workspace },
    );
    expect(wrong?.ok).toBe(false);
    expect(wrong?.detail).toContain(`Expected ${f.toFixed(1)} °F`);
  });

  it('calc needs 56877, with or without a thousands separator', async () => {
    const C = { id: 'calc', text: '' };
    expect(await validateAnswer(C, '123 × 456 + 789 = 56,877', { workspace })).toMatchObject({ ok: true });
    expect(await validateAnswer(C, 'It is 56877.', { workspace })).toMatchObject({ ok: true });
    const v = await validateAnswer(C, 'It is 56878.', { workspace });
    expect(v).toEqual({ ok: false, detail: 'Expected 56877; found 56878.' });
  });

  it('free-text tasks are not validated', async () => {
    expect(await validateAnswer({ id: null, text: 'Say hi' }, 'hi', { workspace })).toBeNull();
  });
});
