/** Fixtures and validators of the one-file tasks: config-lookup, write-errors, missing-file. */
import { afterAll, describe, expect, it } from 'vitest';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { prepareFixture } from '../../../electron/tasks/fixtures.js';
import { validateAnswer } from '../../../electron/tasks/index.js';
import { generateConfig } from '../../../electron/tasks/builtin/config-lookup.js';
import { errorLines, versionsIn } from '../../../electron/tasks/builtin/rules.js';
import { generateServiceLog } from '../../../electron/tasks/builtin/write-errors.js';
import { generateReleaseNotes } from '../../../electron/tasks/builtin/missing-file.js';
import { DEFAULT_SETTINGS } from '../../../shared/run-spec.js';

const dirs: string[] = [];
async function fixture(taskId: string, seed: number): Promise<string> {
  const dir = await mkdtemp(path.join(tmpdir(), `parallax-${taskId}-`));
  dirs.push(dir);
  await prepareFixture(taskId, dir, seed);
  return dir;
}
afterAll(async () => {
  await Promise.all(dirs.map((d) => rm(d, { recursive: true, force: true })));
});

const SEEDS = Array.from({ length: 200 }, (_, i) => i);
const task = (id: string) => ({ id, text: '' });

describe('fixtures', () => {
  it('are the same bytes for the same seed and differ between seeds', () => {
    for (const generate of [generateConfig, generateServiceLog, generateReleaseNotes]) {
      expect(generate(3)).toEqual(generate(3));
      expect(generate(3)).not.toEqual(generate(4));
    }
  });

  it('config.json: the server port is a number no other port in the file repeats', () => {
    for (const seed of SEEDS) {
      const config = JSON.parse(generateConfig(seed)[0].content) as {
        server: { port: number };
        database: { port: number };
        metrics: { port: number };
      };
      expect(new Set([config.server.port, config.database.port, config.metrics.port]).size).toBe(3);
    }
  });

  it('service.log: read whole under the default truncation, a few ERROR lines, and a lower-case "error" that is not one', () => {
    for (const seed of SEEDS) {
      const log = generateServiceLog(seed)[0].content;
      expect(log.length).toBeLessThan(DEFAULT_SETTINGS.truncateChars);
      expect(errorLines(log).length).toBeGreaterThanOrEqual(3);
      expect(log.split('\n').some((l) => /\berror\b/.test(l) && !l.includes('ERROR'))).toBe(true);
    }
  });

  it('release notes: under docs/, not at the name the task gives, versions newest first', async () => {
    const dir = await fixture('missing-file', 9);
    await expect(readFile(path.join(dir, 'release-notes.txt'), 'utf8')).rejects.toThrow();
    const notes = await readFile(path.join(dir, 'docs', 'release-notes.md'), 'utf8');
    expect(versionsIn(notes)).toHaveLength(4);
    for (const seed of SEEDS) {
      const versions = versionsIn(generateReleaseNotes(seed)[0].content);
      const sorted = [...versions].sort((a, b) => b.localeCompare(a, 'en', { numeric: true }));
      expect(versions).toEqual(sorted);
      expect(new Set(versions).size).toBe(4);
    }
  });
});

describe('validators', () => {
  it('config-lookup: the server port, not the database or metrics port', async () => {
    const dir = await fixture('config-lookup', 17);
    const config = JSON.parse(await readFile(path.join(dir, 'config.json'), 'utf8')) as {
      server: { port: number };
      database: { port: number };
    };
    const check = (answer: string) => validateAnswer(task('config-lookup'), answer, { workspace: dir });
    expect(await check(`It listens on port ${config.server.port}.`)).toMatchObject({ ok: true });
    expect(await check(`It listens on port ${config.server.port + 1}.`)).toMatchObject({ ok: false });
    expect(await check(`Server ${config.server.port}, database ${config.database.port}.`)).toMatchObject({ ok: false });
    // The truth is the workspace's file: edit it and the old answer fails.
    await writeFile(path.join(dir, 'config.json'), JSON.stringify({ server: { port: 1234 } }));
    expect(await check(`It listens on port ${config.server.port}.`)).toMatchObject({ ok: false });
    expect(await check('Port 1,234.')).toMatchObject({ ok: true });
  });

  it('write-errors: errors.log must hold exactly the ERROR lines in order, and the answer their count', async () => {
    const dir = await fixture('write-errors', 8);
    const lines = errorLines(await readFile(path.join(dir, 'service.log'), 'utf8'));
    const check = (answer: string) => validateAnswer(task('write-errors'), answer, { workspace: dir });
    const said = `I wrote ${lines.length} lines.`;
    expect((await check(said))?.detail).toMatch(/wrote no errors\.log/);
    await writeFile(path.join(dir, 'errors.log'), lines.join('\n'));
    expect(await check(said)).toMatchObject({ ok: true });
    await writeFile(path.join(dir, 'errors.log'), `${lines.join('\n')}\n`);
    expect(await check(said)).toMatchObject({ ok: true });
    expect(await check('I wrote them all.')).toMatchObject({ ok: false });
    await writeFile(path.join(dir, 'errors.log'), `${[...lines].reverse().join('\n')}\n`);
    expect((await check(said))?.detail).toMatch(/line 1 differs/);
    // A case-insensitive filter also takes the INFO line that says "error".
    const loose = (await readFile(path.join(dir, 'service.log'), 'utf8')).split('\n').filter((l) => /error/i.test(l));
    await writeFile(path.join(dir, 'errors.log'), `${loose.join('\n')}\n`);
    expect(await check(`I wrote ${loose.length} lines.`)).toMatchObject({ ok: false });
  });

  it('missing-file: the newest version of the notes in the workspace, and no older one', async () => {
    const dir = await fixture('missing-file', 12);
    const versions = versionsIn(await readFile(path.join(dir, 'docs', 'release-notes.md'), 'utf8'));
    const check = (answer: string) => validateAnswer(task('missing-file'), answer, { workspace: dir });
    expect(await check(`The latest release is version ${versions[0]}.`)).toMatchObject({ ok: true });
    expect(await check(`The latest release is v${versions[0]}.`)).toMatchObject({ ok: true });
    expect(await check(`The latest release is ${versions[1]}.`)).toMatchObject({ ok: false });
    expect(await check(`Releases: ${versions.join(', ')}.`)).toMatchObject({ ok: false });
    await rm(path.join(dir, 'docs'), { recursive: true });
    expect((await check(`Version ${versions[0]}.`))?.detail).toMatch(/Could not read docs\/release-notes\.md/);
  });
});
