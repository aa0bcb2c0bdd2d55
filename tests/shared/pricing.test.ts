import { describe, expect, it } from 'vitest';
import { DEFAULT_PRICE_TABLE } from '../../shared/price-table.js';
import {
  findPriceEntry,
  parsePriceEntry,
  parsePriceTable,
  priceKind,
  PriceTableError,
  removePrice,
  resolvePrice,
  setPrice,
  type PriceTable,
} from '../../shared/pricing.js';
import { PROVIDER_PRESETS } from '../../shared/providers.js';

const table = (models: PriceTable['models']): PriceTable => ({ ...DEFAULT_PRICE_TABLE, models });

describe('the default price table', () => {
  it('is a valid table, dated, in USD, with one price per model', () => {
    expect(parsePriceTable(JSON.parse(JSON.stringify(DEFAULT_PRICE_TABLE)))).toEqual(DEFAULT_PRICE_TABLE);
    expect(DEFAULT_PRICE_TABLE.date).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    for (const m of DEFAULT_PRICE_TABLE.models) {
      expect(m.source, m.model).toBeTruthy();
      expect(m.output, m.model).toBeGreaterThan(0);
      if (m.cachedInput !== null) expect(m.cachedInput, m.model).toBeLessThanOrEqual(m.input);
    }
  });

  it('prices the default model of every hosted preset, and no local or simulated one', () => {
    for (const p of PROVIDER_PRESETS) {
      const local = p.local === true;
      if (p.name === 'custom') continue;
      const price = resolvePrice(DEFAULT_PRICE_TABLE, { model: p.defaultModel, simulated: p.name === 'simulated' });
      if (local || p.name === 'simulated') expect(price, p.name).toBeNull();
      else expect(price, p.name).toMatchObject({ model: p.defaultModel, tableDate: DEFAULT_PRICE_TABLE.date });
    }
  });
});

describe('finding a price', () => {
  it('matches the exact name, then another case, then the name without a dated snapshot suffix', () => {
    expect(findPriceEntry(DEFAULT_PRICE_TABLE, 'gpt-4.1-mini')?.input).toBe(0.4);
    expect(findPriceEntry(DEFAULT_PRICE_TABLE, 'GPT-4.1-Mini')?.model).toBe('gpt-4.1-mini');
    expect(findPriceEntry(DEFAULT_PRICE_TABLE, 'gpt-4.1-mini-2025-04-14')?.model).toBe('gpt-4.1-mini');
    expect(findPriceEntry(DEFAULT_PRICE_TABLE, 'anthropic/claude-sonnet-4.5-20250929')?.model).toBe(
      'anthropic/claude-sonnet-4.5',
    );
    expect(findPriceEntry(DEFAULT_PRICE_TABLE, 'gpt-4.1-minis')).toBeNull();
    expect(findPriceEntry(DEFAULT_PRICE_TABLE, '  ')).toBeNull();
  });

  it('prefers an exact entry over a case-folded one', () => {
    const t = table([
      { model: 'Model', input: 1, cachedInput: null, cacheWrite: null, output: 1 },
      { model: 'model', input: 2, cachedInput: null, cacheWrite: null, output: 2 },
    ]);
    expect(findPriceEntry(t, 'model')?.input).toBe(2);
  });

  it('never prices the simulated model, even when its name is in the table; prices a local model the user priced', () => {
    const t = table([
      { model: 'sim', input: 1, cachedInput: null, cacheWrite: null, output: 1 },
      { model: 'qwen3:8b', input: 0, cachedInput: null, cacheWrite: null, output: 0, date: '2026-12-02' },
    ]);
    expect(resolvePrice(t, { model: 'sim', simulated: true })).toBeNull();
    expect(resolvePrice(t, { model: 'qwen3:8b', simulated: false })).toEqual({
      model: 'qwen3:8b',
      input: 0,
      cachedInput: null,
      cacheWrite: null,
      output: 0,
      tableDate: '2026-12-02',
    });
  });

  it('names why a run has no price', () => {
    expect(priceKind({ name: 'openai', simulated: false }, null)).toBe('unknown');
    expect(priceKind({ name: 'ollama', simulated: false }, null)).toBe('local');
    expect(priceKind({ name: 'simulated', simulated: true }, null)).toBe('simulated');
    expect(priceKind({ name: 'custom', simulated: true }, null)).toBe('simulated');
    expect(priceKind({ name: 'openai', simulated: false }, undefined)).toBe('unrecorded');
  });
});

describe('validating a table', () => {
  const valid = () =>
    JSON.parse(JSON.stringify(DEFAULT_PRICE_TABLE)) as Record<string, unknown> & { models: Record<string, unknown>[] };

  it('names each bad field and what is wrong with it', () => {
    const bad = valid();
    bad.models[2].input = -1;
    bad.models[3].output = '1.60';
    bad.date = '2026-13-40';
    expect(() => parsePriceTable(bad)).toThrow(PriceTableError);
    const message = (() => {
      try {
        parsePriceTable(bad);
      } catch (e) {
        return (e as Error).message;
      }
      return '';
    })();
    expect(message).toContain('models[2].input: cannot be negative');
    expect(message).toContain('models[3].output: must be a number (USD per 1M tokens)');
    expect(message).toContain('date: is not a real calendar date');
  });

  it('refuses a rate typed per token or per 1K, a duplicate model, and unknown fields', () => {
    const perToken = valid();
    perToken.models[0].input = 400_000;
    expect(() => parsePriceTable(perToken)).toThrow(/models\[0\]\.input: is above \$10000 per 1M tokens/);
    const dup = valid();
    dup.models.push({ ...dup.models[0] });
    expect(() => parsePriceTable(dup)).toThrow(/is listed twice/);
    const extra = valid();
    extra.models[1].inputPrice = 1;
    expect(() => parsePriceTable(extra)).toThrow(/models\[1\]/);
    expect(() => parsePriceTable({ ...valid(), currency: 'EUR' })).toThrow(/currency: must be "USD"/);
    expect(() => parsePriceTable([])).toThrow(PriceTableError);
  });

  it('checks one typed price the same way', () => {
    expect(
      parsePriceEntry({ model: ' my-model ', input: 1, cachedInput: null, cacheWrite: null, output: 2 }).model,
    ).toBe('my-model');
    expect(() => parsePriceEntry({ model: '', input: 1, cachedInput: null, cacheWrite: null, output: 2 })).toThrow(
      /model: needs a model name/,
    );
  });
});

describe('editing', () => {
  it("replaces a model's price (any case) or adds it, and removes one", () => {
    const t1 = setPrice(DEFAULT_PRICE_TABLE, {
      model: 'GPT-4.1-MINI',
      input: 0.5,
      cachedInput: null,
      cacheWrite: null,
      output: 2,
      date: '2026-12-02',
    });
    expect(t1.models.length).toBe(DEFAULT_PRICE_TABLE.models.length);
    expect(findPriceEntry(t1, 'gpt-4.1-mini')).toMatchObject({ input: 0.5, date: '2026-12-02' });
    const t2 = setPrice(t1, { model: 'new-model', input: 1, cachedInput: null, cacheWrite: null, output: 1 });
    expect(t2.models.length).toBe(DEFAULT_PRICE_TABLE.models.length + 1);
    expect(removePrice(t2, 'NEW-model')).toMatchObject({ removed: true });
    expect(removePrice(t2, 'absent').removed).toBe(false);
    expect(findPriceEntry(DEFAULT_PRICE_TABLE, 'gpt-4.1-mini')?.input).toBe(0.4);
  });
});
