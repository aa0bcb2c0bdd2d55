import { afterAll, describe, expect, it } from 'vitest';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { countLog } from '../../../electron/tasks/builtin/rules.js';
import { prepareFixture } from '../../../electron/tasks/fixtures.js';
import { resolveTask } from '../../../electron/tasks/resolve.js';
import { startFixtureServer } from '../../../electron/tasks/fixture-server.js';

const dirs: string[] = [];
async function fresh(): Promise<string> {
  const dir = await mkdtemp(path.join(tmpdir(), 'parallax-fixture-'));
  dirs.push(dir);
  return dir;
}
afterAll(async () => {
  await Promise.all(dirs.map((d) => rm(d, { recursive: true, force: true })));
});

async function snapshot(dir: string): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  for (const name of (await readdir(dir)).sort()) out[name] = await readFile(path.join(dir, name), 'utf8');
  return out;
}

describe('prepareFixture', () => {
  it('log-stats: five .txt logs of a few hundred lines, one clear ERROR leader, and a decoy .log with more ERRORs', async () => {
    const dir = await fresh();
    await prepareFixture('log-stats', dir, 1234);
    const files = await snapshot(dir);
    const txt = Object.keys(files).filter((n) => n.endsWith('.txt'));
    expect(txt).toHaveLength(5);
    const counts = txt.map((n) => ({ n, ...countLog(files[n]) }));
    for (const c of counts) {
      expect(c.total).toBeGreaterThanOrEqual(100);
      expect(c.total).toBeLessThan(400);
      expect(c.errors).toBeGreaterThan(0);
      // Big enough that a ReAct read is a large tool result.
      expect(files[c.n].length).toBeGreaterThan(4000);
    }
    expect(new Set(counts.map((c) => c.total)).size).toBe(5);
    const sorted = counts.map((c) => c.errors).sort((a, b) => b - a);
    expect(sorted[0]).toBeGreaterThan(sorted[1] + 2);
    expect(countLog(files['archive.log']).errors).toBeGreaterThan(sorted[0]);
    for (const n of txt)
      for (const line of files[n].trimEnd().split('\n'))
        expect(line).toMatch(/^\S+Z (INFO |WARN |ERROR) \[[a-z-]+\] .+/);
  });

  it('same seed gives the same bytes; another seed gives other counts', async () => {
    const [a, b, c] = [await fresh(), await fresh(), await fresh()];
    await prepareFixture('log-stats', a, 99);
    await prepareFixture('log-stats', b, 99);
    await prepareFixture('log-stats', c, 100);
    expect(await snapshot(a)).toEqual(await snapshot(b));
    expect(await snapshot(a)).not.toEqual(await snapshot(c));
  });

  it('other tasks get a README only; unknown ids and bad seeds are refused with what to do', async () => {
    const dir = await fresh();
    await prepareFixture('calc', path.join(dir, 'nested'));
    expect(await readdir(path.join(dir, 'nested'))).toEqual(['README.md']);
    await expect(prepareFixture('poetry', dir)).rejects.toThrow(
      /built-in tasks are log-stats, time-and-title, weather-f, calc/,
    );
    await expect(prepareFixture('log-stats', dir, -1)).rejects.toThrow(/whole number/);
  });
});

describe('countLog', () => {
  it('counts lines as wc -l does for newline-terminated files, and a final unterminated line too', () => {
    expect(countLog('')).toEqual({ total: 0, errors: 0 });
    expect(countLog('a ERROR\nb\n')).toEqual({ total: 2, errors: 1 });
    expect(countLog('a\nb ERROR')).toEqual({ total: 2, errors: 1 });
    expect(countLog('error lower\n')).toEqual({ total: 1, errors: 0 });
  });
});

describe('startFixtureServer', () => {
  it('serves a page on 127.0.0.1 whose <title> carries a random word per start', async () => {
    const a = await startFixtureServer();
    try {
      expect(a.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/$/);
      const res = await fetch(a.url);
      expect(res.headers.get('content-type')).toContain('text/html');
      const html = await res.text();
      expect(html).toContain(`<title>${a.title}</title>`);
      expect(html.length).toBeGreaterThan(500);
      expect((await fetch(new URL('/other', a.url))).status).toBe(404);
      const titles = new Set([a.title]);
      for (let i = 0; i < 6; i++) {
        const b = await startFixtureServer();
        titles.add(b.title);
        await b.close();
      }
      expect(titles.size).toBeGreaterThan(1);
    } finally {
      await a.close();
    }
    await expect(fetch(a.url)).rejects.toThrow();
  });
});

describe('resolveTask', () => {
  it('fills the fixture URL into built-in tasks and passes free text through', () => {
    expect(resolveTask('calc', { fixtureUrl: null })).toEqual({ id: 'calc', text: 'What is 123 * 456 + 789?' });
    const t = resolveTask(' time-and-title ', { fixtureUrl: 'http://127.0.0.1:5/' });
    expect(t.id).toBe('time-and-title');
    expect(t.text).toContain('fetch the page at http://127.0.0.1:5/ and');
    expect(t.text).not.toContain('{{');
    expect(resolveTask('Summarise README.md', { fixtureUrl: null })).toEqual({ id: null, text: 'Summarise README.md' });
    expect(resolveTask('What is 123 * 456 + 789?', { fixtureUrl: null }).id).toBe('calc');
  });

  it('refuses a task that needs the page without a URL, and an empty task', () => {
    expect(() => resolveTask('time-and-title', { fixtureUrl: null })).toThrow(
      /no page URL was given. Start the fixture server/,
    );
    expect(() => resolveTask('   ', { fixtureUrl: null })).toThrow(/task is empty/);
  });
});
