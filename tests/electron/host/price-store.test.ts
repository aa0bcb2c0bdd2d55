import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DEFAULT_PRICE_TABLE } from '../../../shared/price-table.js';
import { findPriceEntry, parsePriceTable } from '../../../shared/pricing.js';
import { PriceFileError, PriceStore } from '../../../electron/host/price-store.js';

const fresh = async () =>
  new PriceStore(await mkdtemp(join(tmpdir(), 'parallax-prices-')), () => new Date('2026-12-03T10:00:00Z'));

describe('PriceStore', () => {
  it('uses the default table until a price is edited, then keeps the whole table in prices.json', async () => {
    const store = await fresh();
    expect(await store.load()).toEqual({ table: DEFAULT_PRICE_TABLE, custom: false });
    await store.set({ model: 'gpt-4.1-mini', input: '0.5', output: 2, cachedInput: '', source: 'my contract' });
    const onDisk = parsePriceTable(JSON.parse(await readFile(store.path, 'utf8')));
    expect(onDisk.models.length).toBe(DEFAULT_PRICE_TABLE.models.length);
    expect(findPriceEntry(onDisk, 'gpt-4.1-mini')).toEqual({
      model: 'gpt-4.1-mini',
      input: 0.5,
      cachedInput: null,
      cacheWrite: null,
      output: 2,
      date: '2026-12-03',
      source: 'my contract',
    });
    expect(findPriceEntry(onDisk, 'gpt-4.1')?.input).toBe(2);
    expect((await store.load()).custom).toBe(true);
    // Another store on the same folder (the CLI next to the app) reads the same table.
    expect(findPriceEntry((await new PriceStore(store.dataDir).load()).table, 'gpt-4.1-mini')?.input).toBe(0.5);
  });

  it('refuses a bad price with the field and the reason, and changes nothing', async () => {
    const store = await fresh();
    await expect(store.set({ model: 'x', input: 'cheap', output: 1 })).rejects.toThrow(
      /input: must be a number \(USD per 1M tokens\)/,
    );
    await expect(store.set({ model: 'x', input: 1 })).rejects.toThrow(/output: must be a number/);
    await expect(store.set('gpt-4.1-mini=0.4')).rejects.toThrow(/needs a model name and its input and output rates/);
    await expect(readFile(store.path, 'utf8')).rejects.toMatchObject({ code: 'ENOENT' });
  });

  it('removes a price, and says so when the model has none', async () => {
    const store = await fresh();
    await store.remove('gpt-4o');
    expect(findPriceEntry((await store.load()).table, 'gpt-4o')).toBeNull();
    await expect(store.remove('gpt-4o')).rejects.toThrow('The price table has no price for "gpt-4o"');
  });

  it('reports a broken file with its path and the way out, and never overwrites it', async () => {
    const store = await fresh();
    await writeFile(
      store.path,
      '{"schema":"parallax.price-table","version":1,"date":"2026-12-01","currency":"USD","models":[{"model":"a","input":-2,"output":1,"cachedInput":null,"cacheWrite":null}]}',
    );
    const err = await store.load().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(PriceFileError);
    expect((err as Error).message).toContain(
      `The price table ${store.path} is not valid: models[0].input: cannot be negative`,
    );
    expect((err as Error).message).toContain('parallax prices reset');
    await expect(store.set({ model: 'b', input: 1, output: 1 })).rejects.toThrow(PriceFileError);
    const view = await store.view();
    expect(view.error).toContain('models[0].input');
    expect(view.table).toEqual(DEFAULT_PRICE_TABLE);
    // Not JSON at all.
    await writeFile(store.path, '{ "schema": ');
    await expect(store.load()).rejects.toThrow(/is not valid: it is not JSON/);
  });

  it("resets to the default table, keeping the user's file as prices.json.bak", async () => {
    const store = await fresh();
    await writeFile(store.path, 'not a table');
    const { table, backup } = await store.reset();
    expect(table).toEqual(DEFAULT_PRICE_TABLE);
    expect(backup).toBe(`${store.path}.bak`);
    expect(await readFile(`${store.path}.bak`, 'utf8')).toBe('not a table');
    expect(await store.load()).toEqual({ table: DEFAULT_PRICE_TABLE, custom: false });
    expect((await store.reset()).backup).toBeNull();
  });

  it('applies edits made at once one after another, losing none', async () => {
    const store = await fresh();
    await Promise.all(Array.from({ length: 8 }, (_, i) => store.set({ model: `m${i}`, input: i, output: i })));
    const { table } = await store.load();
    for (let i = 0; i < 8; i++) expect(findPriceEntry(table, `m${i}`)?.input).toBe(i);
  });
});
