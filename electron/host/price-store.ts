/**
 * The user's price table: <dataDir>/prices.json, the default table (shared/price-table.ts) until the user
 * edits a price. Read fresh on every use, so the CLI, the app and the web host on one machine agree. A file
 * that is not a valid table is never overwritten silently: loading it fails with what is wrong and what to
 * do, and a reset keeps it beside the new one.
 */
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { PricesView } from '../../shared/ipc-contract.js';
import { DEFAULT_PRICE_TABLE } from '../../shared/price-table.js';
import {
  parsePriceEntry,
  parsePriceTable,
  PriceTableError,
  removePrice,
  setPrice,
  type PriceEntry,
  type PriceTable,
} from '../../shared/pricing.js';

export const PRICES_FILE = 'prices.json';

export class PriceFileError extends Error {
  override readonly name = 'PriceFileError';
}

/** Today as YYYY-MM-DD (UTC, so the date does not depend on the machine's time zone). */
export function todayUtc(now = new Date()): string {
  return now.toISOString().slice(0, 10);
}

export class PriceStore {
  /** Writes of this process, one after another (rename makes each whole for other processes). */
  private chain: Promise<unknown> = Promise.resolve();

  constructor(
    readonly dataDir: string,
    private readonly now: () => Date = () => new Date(),
  ) {}

  get path(): string {
    return join(this.dataDir, PRICES_FILE);
  }

  /** The table in force: the user's file, or the default when there is none. Throws PriceFileError for a bad file. */
  async load(): Promise<{ table: PriceTable; custom: boolean }> {
    let text: string;
    try {
      text = await readFile(this.path, 'utf8');
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return { table: DEFAULT_PRICE_TABLE, custom: false };
      throw new PriceFileError(
        `The price table ${this.path} could not be read (${(err as Error).message}). Check its permissions, or run \`parallax prices reset\`.`,
      );
    }
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch (err) {
      throw this.invalid(`it is not JSON (${(err as Error).message})`);
    }
    try {
      return { table: parsePriceTable(value), custom: true };
    } catch (err) {
      if (err instanceof PriceTableError) throw this.invalid(err.message);
      throw err;
    }
  }

  /** What the app's price editor shows; a bad file comes back as its error, with the default table beside it. */
  async view(): Promise<PricesView> {
    try {
      const { table, custom } = await this.load();
      return { table, custom, path: this.path, defaultDate: DEFAULT_PRICE_TABLE.date, error: null };
    } catch (err) {
      if (!(err instanceof PriceFileError)) throw err;
      return {
        table: DEFAULT_PRICE_TABLE,
        custom: true,
        path: this.path,
        defaultDate: DEFAULT_PRICE_TABLE.date,
        error: err.message,
      };
    }
  }

  /** Set one model's price (input as typed: checked here), dated today. Returns the stored table. */
  set(input: unknown): Promise<PriceTable> {
    return this.serial(async () => {
      const typed = parseInput(input);
      const entry: PriceEntry = { ...typed, date: todayUtc(this.now()) };
      const next = setPrice((await this.load()).table, entry);
      await this.write(next);
      return next;
    });
  }

  remove(model: unknown): Promise<PriceTable> {
    return this.serial(async () => {
      if (typeof model !== 'string' || !model.trim())
        throw new PriceTableError('Name the model whose price to remove.');
      const { table, removed } = removePrice((await this.load()).table, model);
      if (!removed)
        throw new PriceTableError(
          `The price table has no price for "${model.trim()}". \`parallax prices\` lists the models it has.`,
        );
      await this.write(table);
      return table;
    });
  }

  /** Back to the default table. The user's file, valid or not, is kept as prices.json.bak (replacing an older one). */
  reset(): Promise<{ table: PriceTable; backup: string | null }> {
    return this.serial(async () => {
      const backup = `${this.path}.bak`;
      const moved = await rename(this.path, backup).then(
        () => true,
        (err: NodeJS.ErrnoException) => {
          if (err.code === 'ENOENT') return false;
          throw new PriceFileError(`Could not move ${this.path} aside (${err.message}); nothing was changed.`);
        },
      );
      return { table: DEFAULT_PRICE_TABLE, backup: moved ? backup : null };
    });
  }

  private invalid(what: string): PriceFileError {
    return new PriceFileError(
      `The price table ${this.path} is not valid: ${what}. Fix the file, or run \`parallax prices reset\` (Reset in the app's price editor) to go back to the default prices; your file is kept as ${PRICES_FILE}.bak.`,
    );
  }

  private async write(table: PriceTable): Promise<void> {
    const tmp = `${this.path}.${process.pid}.tmp`;
    await mkdir(this.dataDir, { recursive: true });
    await writeFile(tmp, `${JSON.stringify(table, null, 2)}\n`, 'utf8');
    await rename(tmp, this.path);
  }

  private serial<T>(task: () => Promise<T>): Promise<T> {
    const next = this.chain.then(task, task);
    this.chain = next.catch(() => undefined);
    return next;
  }
}

/** A price as a user typed it: rates as numbers (or numeric strings from a form); no date — the store dates it. */
function parseInput(input: unknown): PriceEntry {
  if (typeof input !== 'object' || input === null || Array.isArray(input)) {
    throw new PriceTableError('A price needs a model name and its input and output rates (USD per 1M tokens).');
  }
  const v = input as Record<string, unknown>;
  const num = (x: unknown) => (typeof x === 'string' && x.trim() !== '' && Number.isFinite(Number(x)) ? Number(x) : x);
  const opt = (x: unknown) => (x === undefined || x === '' ? null : num(x));
  return parsePriceEntry({
    model: v.model,
    input: num(v.input),
    cachedInput: opt(v.cachedInput),
    cacheWrite: opt(v.cacheWrite),
    output: num(v.output),
    ...(v.cacheWrite1h !== undefined ? { cacheWrite1h: opt(v.cacheWrite1h) } : {}),
    ...(v.webSearch !== undefined ? { webSearch: opt(v.webSearch) } : {}),
    ...(typeof v.source === 'string' && v.source.trim() ? { source: v.source.trim() } : {}),
  });
}
