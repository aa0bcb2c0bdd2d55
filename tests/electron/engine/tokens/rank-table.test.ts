/**
 * The rank table (engine/tokens/rank-table.ts): the build's table holds gpt-tokenizer's o200k_base ranks entry for
 * entry, a table it cannot trust is never used, and counts are the library's own whichever way the ranks came.
 */
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { countTokens as libraryCount } from 'gpt-tokenizer/encoding/o200k_base';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tok } from '../../../../electron/engine/tokens/count-tokens.js';
import {
  libraryRanks,
  RANK_TABLE_FILE,
  readRankTable,
  tokenizerVersion,
  writeRankTable,
  type Rank,
} from '../../../../electron/engine/tokens/rank-table.js';

const BUILT = join(process.cwd(), 'dist', 'worker', RANK_TABLE_FILE);
let dir = '';
let ranks: Rank[] = [];
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'parallax-rank-table-'));
  ranks = libraryRanks();
});
afterAll(() => rm(dir, { recursive: true, force: true }));

/** Entries that differ between two rank lists (by index), at most a few. */
function differences(a: readonly Rank[], b: readonly Rank[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < Math.max(a.length, b.length) && out.length < 5; i++)
    if (JSON.stringify(a[i]) !== JSON.stringify(b[i]))
      out.push(`${i}: ${JSON.stringify(a[i])} ≠ ${JSON.stringify(b[i])}`);
  return out;
}

describe('the o200k_base rank table', () => {
  it("the build's table holds the library's ranks, entry for entry, byte ranks included", () => {
    const built = readRankTable(BUILT);
    expect(built, `${BUILT} is missing or unreadable: run npm run build:node`).not.toBeNull();
    expect(built!.length).toBe(ranks.length);
    expect(differences(built!, ranks)).toEqual([]);
    expect(built!.filter((r) => typeof r !== 'string').length).toBeGreaterThan(1000);
  });

  it('is written and read back the same', async () => {
    const file = join(dir, 'round-trip.ranks');
    writeRankTable(file, ranks);
    expect(differences(readRankTable(file)!, ranks)).toEqual([]);
  });

  it('is not used when missing, written for another library version, cut short or inconsistent', async () => {
    const file = join(dir, 'good.ranks');
    writeRankTable(file, ranks);
    const good = await readFile(file);
    expect(readRankTable(join(dir, 'absent.ranks'))).toBeNull();
    expect(readRankTable(file, '0.0.1')).toBeNull();
    const cut = join(dir, 'cut.ranks');
    await writeFile(cut, good.subarray(0, good.length - 10));
    expect(readRankTable(cut)).toBeNull();
    // One text rank's length made longer: the text no longer adds up to the lengths.
    const eol = good.indexOf(10);
    const at = eol + 1 + 2 * ranks.findIndex((r, i) => i > 1000 && typeof r === 'string');
    const longer = Buffer.from(good);
    longer.writeUInt16LE(good.readUInt16LE(at) + 1, at);
    const bad = join(dir, 'bad.ranks');
    await writeFile(bad, longer);
    expect(readRankTable(bad)).toBeNull();
    const notJson = join(dir, 'not-json.ranks');
    await writeFile(notJson, Buffer.concat([Buffer.from('{"format":\n'), good.subarray(eol + 1)]));
    expect(readRankTable(notJson)).toBeNull();
    expect(tokenizerVersion()).toMatch(/^\d+\.\d+\.\d+/);
  });

  it("counts every kind of text as the library's own encoding does", () => {
    const texts = [
      'Hello, world!',
      '  indented\n\tcode();\r\n',
      'naïve café — “quotes” ½',
      '日本語のテキストと中文文本',
      'emoji 🚀🧪👩🏽‍💻 and flags 🇫🇷',
      'special text <|endoftext|> and <|im_start|> counted as text',
      '{"tool":"fetch_url","arguments":{"url":"https://example.com/?q=1&r=2"}}',
      'x'.repeat(5000),
      'Ψ'.repeat(300) + '\u0000\u0001\uFFFD',
    ];
    for (const text of texts)
      expect(tok(text), text.slice(0, 40)).toBe(libraryCount(text, { disallowedSpecial: new Set() }));
  });

  it('a count in a fresh process reads the table, never the library array', async () => {
    // tsc's build of the counter: it finds the table beside the worker bundle, as the CLI and workers do.
    const counter = join(process.cwd(), 'dist', 'electron', 'engine', 'tokens', 'count-tokens.js');
    const script = `
      import { createRequire } from 'node:module';
      const { tok } = await import(${JSON.stringify(counter)});
      const n = tok('a count from the table');
      const loaded = Object.keys(createRequire(import.meta.url).cache).filter((f) => f.includes('bpeRanks'));
      console.log(JSON.stringify({ n, loaded }));`;
    const { stdout } = await promisify(execFile)(process.execPath, ['--input-type=module', '-e', script]);
    const out = JSON.parse(stdout) as { n: number; loaded: string[] };
    expect(out.n).toBe(libraryCount('a count from the table'));
    expect(out.loaded).toEqual([]);
  });
});
