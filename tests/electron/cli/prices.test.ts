/**
 * The CLI's prices and costs, through the real `parallax` in child processes with their own data folders:
 * `parallax prices` (list, set, remove, reset), and cost in `compare` and `run` against a loopback provider
 * (the simulated model behind a proxy that hides its fingerprint, so the run is priced like a paid one).
 */
import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { priceUsage } from '../../../shared/cost.js';
import { DEFAULT_PRICE_TABLE } from '../../../shared/price-table.js';
import { parsePriceTable } from '../../../shared/pricing.js';
import { startSimServer, type SimServer } from '../../../electron/sim/index.js';
import { runCli } from '../host/cli-process.js';
import { startProviderProxy, type ProviderProxy } from '../../helpers/provider-proxy.js';

const envFor = (dataDir: string) => ({ ...process.env, PARALLAX_DATA_DIR: dataDir });
const fresh = () => mkdtemp(join(tmpdir(), 'parallax-cli-prices-'));

describe('parallax prices', () => {
  it('lists the default table, sets a price (dated, in the data folder), refuses a bad one, removes and resets', async () => {
    const dir = await fresh();
    const env = envFor(dir);
    const list = await runCli(['prices'], env);
    expect(list.code).toBe(0);
    expect(list.stdout).toContain(
      `Prices of ${DEFAULT_PRICE_TABLE.date}, USD per 1M tokens — the default table shipped with Parallax`,
    );
    expect(list.stdout).toMatch(/^gpt-4\.1-mini\s+\$0\.40\s+\$0\.10\s+= input\s+\$1\.60\s+2026-12-01$/m);
    expect(list.stdout).toMatch(/^deepseek-v4-flash\s+\$0\.14\s+\$0\.0028\s+= input\s+\$0\.28/m);
    expect(list.stdout).toContain('never $0');

    const bad = await runCli(['prices', 'set', 'house-7b', '--input', '0.2', '--output', 'two'], env);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain('The price of house-7b was not set — output: must be a number (USD per 1M tokens)');
    const perToken = await runCli(['prices', 'set', 'house-7b', '--input', '200000', '--output', '1'], env);
    expect(perToken.stderr).toContain('prices are per 1M tokens, not per token or per 1K');
    await expect(readFile(join(dir, 'prices.json'), 'utf8')).rejects.toMatchObject({ code: 'ENOENT' });

    const set = await runCli(
      [
        'prices',
        'set',
        'house-7b',
        '--input',
        '0.2',
        '--output',
        '0.6',
        '--cached-input',
        '0.05',
        '--source',
        'our invoice',
      ],
      env,
    );
    expect(set.code).toBe(0);
    expect(set.stdout).toMatch(
      /^house-7b: \$0\.20 in, \$0\.05 cached, \$0\.60 out per 1M tokens \(set \d{4}-\d{2}-\d{2}\)/,
    );
    const table = parsePriceTable(JSON.parse(await readFile(join(dir, 'prices.json'), 'utf8')));
    expect(table.models.find((m) => m.model === 'house-7b')).toMatchObject({
      input: 0.2,
      output: 0.6,
      cachedInput: 0.05,
      cacheWrite: null,
      source: 'our invoice',
    });

    const json = JSON.parse((await runCli(['prices', '--json'], env)).stdout) as {
      custom: boolean;
      path: string;
      table: unknown;
    };
    expect(json).toMatchObject({ custom: true, path: join(dir, 'prices.json') });
    expect(json.table).toEqual(table);

    expect((await runCli(['prices', 'remove', 'house-7b'], env)).stdout).toContain('Removed the price of house-7b');
    expect((await runCli(['prices', 'remove', 'house-7b'], env)).stderr).toContain(
      'The price table has no price for "house-7b"',
    );
    const reset = await runCli(['prices', 'reset'], env);
    expect(reset.stdout).toContain(
      `Back to the default prices of ${DEFAULT_PRICE_TABLE.date}. Your table was kept as ${join(dir, 'prices.json.bak')}.`,
    );
    expect((await runCli(['prices'], env)).stdout).toContain('the default table shipped with Parallax');
  });

  it('says what is wrong with a broken table and how to get out', async () => {
    const dir = await fresh();
    await writeFile(join(dir, 'prices.json'), JSON.stringify({ ...DEFAULT_PRICE_TABLE, date: 'yesterday' }));
    const r = await runCli(['prices'], envFor(dir));
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(
      `The price table ${join(dir, 'prices.json')} is not valid: date: must be a date written YYYY-MM-DD`,
    );
    expect(r.stderr).toContain('parallax prices reset');
  });
});

describe('cost in compare and run', () => {
  let sim: SimServer;
  let proxy: ProviderProxy;
  beforeAll(async () => {
    sim = await startSimServer();
    proxy = await startProviderProxy(sim.url);
  });
  afterAll(async () => {
    await proxy?.close();
    await sim?.close();
  });

  it("compare --json: each run's cost from the recorded price, per step and in total, the usage source and the verdicts", async () => {
    const dir = await fresh();
    const r = await runCli(
      ['compare', '--task', 'calc', '--base-url', proxy.url, '--model', 'gpt-4.1-mini', '--json'],
      envFor(dir),
    );
    expect(r.code, r.stderr).toBe(0);
    type Run = {
      runId: string;
      mode: string;
      status: string;
      usageSource: string;
      cost: { usd: number; text: string; price: { tableDate: string } };
      perStep: { prompt: number; completion: number; cost: number; usageSource: string }[];
    };
    const out = JSON.parse(r.stdout) as {
      runs: Run[];
      cheapest: { runId: string; estimated: boolean };
      fewestTokens: { runId: string };
      priceDates: string[];
      byMode: Record<string, { cost: { mean: number } }>;
    };
    const price = {
      model: 'gpt-4.1-mini',
      input: 0.4,
      cachedInput: 0.1,
      cacheWrite: null,
      output: 1.6,
      tableDate: '2026-12-01',
    };
    for (const run of out.runs) {
      expect(run.status).toBe('answered');
      expect(run.usageSource).toBe('reported');
      expect(run.cost.price).toEqual(price);
      for (const s of run.perStep) {
        expect(s.usageSource).toBe('reported');
        expect(s.cost).toBeCloseTo(priceUsage({ prompt: s.prompt, completion: s.completion }, price), 15);
      }
      expect(run.cost.usd).toBeCloseTo(
        run.perStep.reduce((a, s) => a + s.cost, 0),
        15,
      );
      expect(run.cost.text).toMatch(/^\$0\.0\d+$/);
    }
    const cheapest = [...out.runs].sort((a, b) => a.cost.usd - b.cost.usd)[0];
    expect(out.cheapest).toMatchObject({ runId: cheapest.runId, estimated: false });
    expect(out.priceDates).toEqual(['2026-12-01']);
    expect(out.runs.map((x) => out.byMode[x.mode].cost.mean)).toEqual(out.runs.map((x) => x.cost.usd));
  });

  it('compare prints a cost row, the usage row and the cheapest mode, with the price date', async () => {
    const dir = await fresh();
    const r = await runCli(
      ['compare', '--task', 'calc', '--base-url', proxy.url, '--model', 'gpt-4.1-mini'],
      envFor(dir),
    );
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/^Usage\s+reported\s+reported$/m);
    expect(r.stdout).toMatch(/^Cost \(USD\)\s+\$0\.0\d+\s+\$0\.0\d+ \([+-]\d+\.\d%\)$/m);
    expect(r.stdout).toMatch(/^Fewest tokens: (ReAct|Code Mode) — [\d,]+ total tokens\.$/m);
    expect(r.stdout).toMatch(/^Cheapest: (ReAct|Code Mode) — \$0\.0\d+\.$/m);
    expect(r.stdout).toContain(
      'Costs in USD at the prices of 2026-12-01 for gpt-4.1-mini, recorded when each run started',
    );
    expect(r.stdout).toMatch(/All 2 runs together: \$0\.0\d+\.$/m);
  });

  it('compare with a model the table lacks says "no price" and how to add one — never $0', async () => {
    const dir = await fresh();
    const r = await runCli(['compare', '--task', 'calc', '--base-url', proxy.url, '--model', 'house-7b'], envFor(dir));
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/^Cost \(USD\)\s+no price\s+no price$/m);
    expect(r.stdout).toContain('No cost verdict: the price table had no price for this model');
    expect(r.stdout).toContain(
      'No price for house-7b: add one with `parallax prices set house-7b --input … --output …`',
    );
    expect(r.stdout).not.toMatch(/\$0\.00\b/);
  });

  it("run --json carries each step's cost and usage source; a simulated run has none", async () => {
    const dir = await fresh();
    const priced = await runCli(
      ['run', '--task', 'calc', '--base-url', proxy.url, '--model', 'gpt-4o-mini', '--json'],
      envFor(dir),
    );
    expect(priced.code, priced.stderr).toBe(0);
    const p = JSON.parse(priced.stdout) as {
      cost: { usd: number; priceKind: string };
      usageSource: string;
      perStep: { prompt: number; completion: number; cost: number; costSource: string; usageSource: string }[];
    };
    const mini = {
      model: 'gpt-4o-mini',
      input: 0.15,
      cachedInput: 0.075,
      cacheWrite: null,
      output: 0.6,
      tableDate: '2026-12-01',
    };
    expect(p.perStep.length).toBeGreaterThan(0);
    for (const s of p.perStep) {
      expect(s).toMatchObject({ usageSource: 'reported', costSource: 'price' });
      expect(s.cost).toBeCloseTo(priceUsage({ prompt: s.prompt, completion: s.completion }, mini), 15);
    }
    expect(p.cost.priceKind).toBe('priced');
    const simulated = JSON.parse((await runCli(['run', '--task', 'calc', '--json'], envFor(dir))).stdout) as {
      cost: { usd: null; text: string };
      perStep: { cost: null }[];
    };
    expect(simulated.cost).toMatchObject({ usd: null, text: 'simulated: no price' });
    expect(simulated.perStep.every((s) => s.cost === null)).toBe(true);
  });
});
