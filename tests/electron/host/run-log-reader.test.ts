/**
 * A run log is read whole up to 1 MiB and streamed line by line above: both ways must read the same file the
 * same (events kept, a torn last line, damage, CRLF and lone CR line ends, multibyte text across chunks).
 */
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readRunLog, type LoadedRun } from '../../../electron/host/run-log-reader.js';
import { generate } from '../../helpers/history-seed.js';

const RUN = 'cmp-000000-r0';
let dir = '';
let lines: string[] = [];

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'parallax-run-log-'));
  generate(dir, 1);
  lines = (await readFile(join(dir, 'comparisons', 'cmp-000000', 'runs', `${RUN}.jsonl`), 'utf8')).trim().split('\n');
});
afterAll(() => rm(dir, { recursive: true, force: true }));

/** The log with its first tool output made `pad` characters of multibyte text (above 1 MiB: the streamed path). */
function logWith(pad: number, body: (ls: string[]) => string): string {
  const ls = lines.map((l) => {
    const e = JSON.parse(l) as { type: string; output?: string };
    return e.type === 'tool-finished' && pad > 0 && !l.includes('"c2"') && !l.includes('"c3"') && !l.includes('"c4"')
      ? JSON.stringify({ ...e, output: 'é→'.repeat(pad) })
      : l;
  });
  return body(ls);
}

async function readBoth(body: (ls: string[]) => string): Promise<[LoadedRun, LoadedRun]> {
  const small = join(dir, 'small.jsonl');
  const large = join(dir, 'large.jsonl');
  await writeFile(small, logWith(0, body));
  await writeFile(large, logWith(400_000, body)); // 400,000 × 2 characters of 2 and 3 bytes: about 2 MB
  return [await readRunLog(small, RUN, 'small.jsonl'), await readRunLog(large, RUN, 'large.jsonl')];
}

const shape = (r: LoadedRun) => ({
  seqs: r.events.map((e) => e.seq),
  warnings: r.warnings.map((w) =>
    w.replace(/^(small|large)\.jsonl: /, '').replace(/\(\d+ characters\)/, '(n characters)'),
  ),
  problems: r.problems.map((p) =>
    p.replace(/^(small|large)\.jsonl: /, '').replace(/\(\d+ characters\)/, '(n characters)'),
  ),
});

describe('readRunLog, whole or streamed', () => {
  it('reads a sound log the same both ways, multibyte output intact', async () => {
    const [small, large] = await readBoth((ls) => ls.join('\n') + '\n');
    expect(shape(small)).toEqual(shape(large));
    expect(small.events).toHaveLength(lines.length);
    expect(small.warnings).toEqual([]);
    const out = large.events.find((e) => e.type === 'tool-finished') as { output: string };
    expect(out.output).toBe('é→'.repeat(400_000));
  });

  it('reads a torn last line as a warning and damage as a problem the same both ways', async () => {
    const [small, large] = await readBoth((ls) =>
      [ls[0], ls[1], '{"not": json', ...ls.slice(2, -1), ls.at(-1)!.slice(0, 30)].join('\n'),
    );
    expect(shape(small)).toEqual(shape(large));
    expect(shape(small).problems).toEqual(['line 3 is not JSON (n characters); it was skipped.']);
    expect(shape(small).warnings[0]).toMatch(/^skipped a torn last line \(n characters\)/);
    expect(small.events).toHaveLength(lines.length - 1);
  });

  it('ends lines at CRLF and at a lone CR, as readline does', async () => {
    const [small, large] = await readBoth(
      (ls) => [ls.slice(0, 3).join('\r\n'), ls.slice(3, 6).join('\r'), ls.slice(6).join('\n')].join('\r\n') + '\r\n',
    );
    expect(shape(small)).toEqual(shape(large));
    expect(small.events).toHaveLength(lines.length);
    expect(small.problems).toEqual([]);
  });

  it('reads an empty log as no events and no warning', async () => {
    const [small] = await readBoth(() => '');
    expect(shape(small)).toEqual({ seqs: [], warnings: [], problems: [] });
  });
});
