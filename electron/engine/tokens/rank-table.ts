/**
 * gpt-tokenizer's o200k_base ranks in a file that loads in a fraction of the time. The library ships them as a 2.4 MB
 * JavaScript array, which a process compiles before its first count: ≈ 570 ms of CPU to a first count that way,
 * ≈ 390 ms from this table (`npm run bench -- tokenizer`). The build writes the same entries, in the same order, for
 * the library version it read them from; a table of another version, or damaged, is not used, and the library's
 * own array is.
 *
 * Layout: a JSON header line, then a little-endian uint16 length per rank (NOT_TEXT for a byte rank), the text ranks
 * back to back in UTF-16LE, and the byte ranks as JSON ({ "<rank>": [bytes] }).
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';

export type Rank = string | readonly number[];

const FORMAT = 'parallax-rank-table/1';
const NOT_TEXT = 0xffff;
export const RANK_TABLE_FILE = 'o200k_base.ranks';

interface Header {
  readonly format: string;
  readonly library: string;
  readonly count: number;
  readonly textBytes: number;
  readonly bytesJson: number;
}

const require = createRequire(import.meta.url);

/** The installed gpt-tokenizer's version: a table is used only with the library it was read from. */
export function tokenizerVersion(): string {
  // The package exports no ./package.json; it sits two folders above the module resolved here.
  const dir = path.dirname(path.dirname(require.resolve('gpt-tokenizer/GptEncoding')));
  return (JSON.parse(readFileSync(path.join(dir, 'package.json'), 'utf8')) as { version: string }).version;
}

/** The library's own ranks (its 2.4 MB module). */
export function libraryRanks(): Rank[] {
  return (require('gpt-tokenizer/bpeRanks/o200k_base') as { default: Rank[] }).default;
}

/** Writes the table of `ranks` to `file` (the build's step). */
export function writeRankTable(
  file: string,
  ranks: readonly Rank[] = libraryRanks(),
  library = tokenizerVersion(),
): void {
  const lengths = new Uint16Array(ranks.length);
  const texts: string[] = [];
  const bytes: Record<number, readonly number[]> = {};
  ranks.forEach((rank, i) => {
    if (typeof rank === 'string') {
      if (rank.length >= NOT_TEXT)
        throw new Error(`rank ${i} is ${rank.length} characters long; the table holds < ${NOT_TEXT}`);
      lengths[i] = rank.length;
      texts.push(rank);
    } else {
      lengths[i] = NOT_TEXT;
      bytes[i] = rank;
    }
  });
  const text = Buffer.from(texts.join(''), 'utf16le');
  const json = Buffer.from(JSON.stringify(bytes));
  const header: Header = {
    format: FORMAT,
    library,
    count: ranks.length,
    textBytes: text.length,
    bytesJson: json.length,
  };
  writeFileSync(
    file,
    Buffer.concat([Buffer.from(`${JSON.stringify(header)}\n`), Buffer.from(lengths.buffer), text, json]),
  );
}

/**
 * The ranks in `file`, or null when there is no table, it was written for another version of the library, or it
 * does not add up (then the caller uses the library's own).
 */
export function readRankTable(file: string, library = tokenizerVersion()): Rank[] | null {
  let data: Buffer;
  try {
    data = readFileSync(file);
  } catch {
    return null;
  }
  const eol = data.indexOf(10);
  if (eol < 0 || eol > 1000) return null;
  let header: Header;
  try {
    header = JSON.parse(data.toString('utf8', 0, eol)) as Header;
  } catch {
    return null;
  }
  const { count, textBytes, bytesJson } = header;
  const lengthsAt = eol + 1;
  const textAt = lengthsAt + count * 2;
  if (header.format !== FORMAT || header.library !== library || textAt + textBytes + bytesJson !== data.length)
    return null;
  const text = data.toString('utf16le', textAt, textAt + textBytes);
  let bytes: Record<string, number[]>;
  try {
    bytes = JSON.parse(data.toString('utf8', textAt + textBytes)) as Record<string, number[]>;
  } catch {
    return null;
  }
  // A copy: the lengths start wherever the header ends, and a Uint16Array view must start at an even offset.
  const lengths = new Uint16Array(data.buffer.slice(data.byteOffset + lengthsAt, data.byteOffset + textAt));
  const ranks = new Array<Rank>(count);
  let at = 0;
  for (let i = 0; i < count; i++) {
    const length = lengths[i]!;
    if (length === NOT_TEXT) {
      const rank = bytes[i];
      if (!Array.isArray(rank)) return null;
      ranks[i] = rank;
    } else {
      ranks[i] = text.slice(at, at + length);
      at += length;
    }
  }
  return at === text.length ? ranks : null;
}
