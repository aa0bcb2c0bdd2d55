import { describe, expect, it } from 'vitest';
import { runTaskOf, validateAnswer } from '../../../electron/tasks/index.js';
import { catalogQuestion } from '../../../electron/tasks/builtin/tool-catalog.js';
import { cityDistance, convertCurrency, DEMO_CATALOG } from '../../../electron/engine/tools/demo-catalog.js';
import { ALL_TOOLS, invokeTool, parametersOf } from '../../../electron/engine/tools/index.js';
import { toolsetOf } from '../../../electron/engine/modes/toolsets.js';
import { searchTools } from '../../../electron/engine/tool-search/search-tools.js';
import { DEFAULT_SETTINGS } from '../../../shared/run-spec.js';
import { findTask } from '../../../shared/tasks.js';

const task = findTask('tool-catalog')!;
const ctx = { workspace: '/nonexistent', settings: DEFAULT_SETTINGS, signal: new AbortController().signal };

describe('the demo catalog', () => {
  it('is 50+ demo tools with unique names apart from the standard tools, each with a described schema', () => {
    expect(DEMO_CATALOG.length).toBeGreaterThanOrEqual(50);
    const names = [...ALL_TOOLS, ...DEMO_CATALOG].map((t) => t.name);
    expect(new Set(names).size).toBe(names.length);
    for (const tool of DEMO_CATALOG) {
      expect(tool.demo, tool.name).toBe(true);
      expect(tool.description).toMatch(/DEMO DATA/);
      const props = parametersOf(tool).properties as Record<string, { description?: string }>;
      expect(Object.keys(props).length, tool.name).toBeGreaterThan(0);
      for (const p of Object.values(props)) expect(p.description).toBeTruthy();
    }
  });

  it('gives the same made-up value for the same input, and a different one for another input', async () => {
    const quote = DEMO_CATALOG.find((t) => t.name === 'get_stock_quote')!;
    const a = await invokeTool(quote, { symbol: 'ACME' }, ctx);
    expect(await invokeTool(quote, { symbol: 'ACME' }, ctx)).toEqual(a);
    expect(await invokeTool(quote, { symbol: 'INITECH' }, ctx)).not.toEqual(a);
    expect(a).toMatchObject({ demo: true });
  });

  it('converts and measures from its tables, and says what to pass for an unknown currency or city', async () => {
    expect(convertCurrency(100, 'eur', 'usd').result).toBeCloseTo(100 / 0.92, 2);
    expect(convertCurrency(10, 'USD', 'USD').result).toBe(10);
    // Paris–Berlin is about 878 km as the crow flies.
    expect(Math.abs(cityDistance('Paris', 'Berlin').km - 878)).toBeLessThan(5);
    expect(cityDistance('berlin', 'paris').km).toBe(cityDistance('Paris', 'Berlin').km);
    await expect(
      invokeTool(DEMO_CATALOG.find((t) => t.name === 'convert_currency')!, { amount: 1, from: 'XYZ', to: 'USD' }, ctx),
    ).rejects.toThrow(/ISO 4217 code: USD, EUR/);
    expect(() => cityDistance('Atlantis', 'Paris')).toThrow(/Known cities: paris/);
  });

  it("joins the runs of tool-catalog only, after the profile's own tools", () => {
    const catalog = runTaskOf({ id: 'tool-catalog' })!;
    expect(catalog.tools).toBe(DEMO_CATALOG);
    expect(runTaskOf({ id: 'log-stats' })!.tools).toEqual([]);
    expect(runTaskOf({ id: null })).toBeNull();
    expect(toolsetOf(DEFAULT_SETTINGS, runTaskOf({ id: 'log-stats' })).tools).toBe(ALL_TOOLS);
    expect(toolsetOf(DEFAULT_SETTINGS, catalog).tools.map((t) => t.name)).toEqual(
      [...ALL_TOOLS, ...DEMO_CATALOG].map((t) => t.name),
    );
    expect(toolsetOf({ toolset: 'seed' }, catalog).tools.length).toBe(6 + DEMO_CATALOG.length);
  });

  it('ranks each needed tool first for plain-words queries', () => {
    const hidden = [...ALL_TOOLS, ...DEMO_CATALOG];
    expect(searchTools('convert money to another currency', hidden)[0].name).toBe('convert_currency');
    expect(searchTools('distance between two cities', hidden)[0].name).toBe('city_distance');
  });
});

describe('tool-catalog task', () => {
  it('reads its question from the task text', () => {
    expect(catalogQuestion(task.text)).toEqual({
      amount: 250,
      from: 'USD',
      to: 'JPY',
      cityA: 'Paris',
      cityB: 'Berlin',
    });
    expect(catalogQuestion('Convert 20 euros into GBP, then the distance from New York to Tokyo.')).toEqual({
      amount: 20,
      from: 'EUR',
      to: 'GBP',
      cityA: 'New York',
      cityB: 'Tokyo',
    });
    expect(catalogQuestion('What is the distance to the moon?')).toBeNull();
  });

  it('accepts both figures at the precision written, and names what is missing', async () => {
    const ref = { id: task.id, text: task.text };
    const money = convertCurrency(250, 'USD', 'JPY').result;
    const km = cityDistance('Paris', 'Berlin').km;
    expect(await validateAnswer(ref, `${money.toLocaleString('en-US')} yen; ${Math.round(km)} km.`, ctx)).toMatchObject(
      { ok: true },
    );
    expect(await validateAnswer(ref, `${money} JPY and ${km} km`, ctx)).toMatchObject({ ok: true });
    const noKm = await validateAnswer(ref, `${money} JPY and ${km + 10} km`, ctx);
    expect(noKm).toMatchObject({ ok: false });
    expect(noKm?.detail).toContain(`no ${km} km`);
    expect(await validateAnswer(ref, `${money + 1} JPY and ${km} km`, ctx)).toMatchObject({ ok: false });
  });
});
