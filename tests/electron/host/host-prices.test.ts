/**
 * The host resolves the model's price when a comparison starts and every run records it: real workers, the
 * real engine, the simulated model behind a loopback proxy that hides its fingerprint (so it is priced like
 * any provider), and the user's price table on disk. Editing the table later changes no recorded cost.
 */
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { priceUsage } from '../../../shared/cost.js';
import type { RunStartedEvent, StepEvent } from '../../../shared/step-event.js';
import { groupByRun, summarizeComparison, summarizeRun } from '../../../shared/summary.js';
import { createHost, type Host } from '../../../electron/host/host.js';
import { HistoryStore } from '../../../electron/host/history-store.js';
import { PriceStore } from '../../../electron/host/price-store.js';
import { startSimServer, type SimServer } from '../../../electron/sim/index.js';
import { startProviderProxy, type ProviderProxy } from '../../helpers/provider-proxy.js';

let sim: SimServer;
let proxy: ProviderProxy;
const hosts: Host[] = [];

beforeAll(async () => {
  sim = await startSimServer();
  proxy = await startProviderProxy(sim.url);
});
afterAll(async () => {
  await Promise.all(hosts.splice(0).map((h) => h.close()));
  await Promise.all([proxy?.close(), sim?.close()]);
});

async function compare(model: string, baseUrl: string, dataDir?: string) {
  const dir = dataDir ?? (await mkdtemp(join(tmpdir(), 'parallax-host-prices-')));
  const events: StepEvent[] = [];
  const host = createHost({
    dataDir: dir,
    getApiKey: async () => null,
    onWarning: () => {},
    onEvents: (b) => events.push(...b),
  });
  hosts.push(host);
  const meta = await host['comparison:start']({
    task: 'calc',
    modes: ['react', 'code'],
    provider: { name: 'custom', baseUrl, model },
  });
  await host.whenDone(meta.id);
  const stored = await host['history:open'](meta.id);
  return { dir, host, meta, stored, events };
}

const startedOf = (events: readonly StepEvent[]) =>
  events.filter((e): e is RunStartedEvent => e.type === 'run-started');

describe('prices recorded by the host', () => {
  it("records the table's price in every run-started and costs each step from it", async () => {
    const { stored, meta } = await compare('gpt-4.1-mini', proxy.url);
    expect(meta.provider.simulated).toBe(false);
    const started = startedOf(stored.events);
    expect(started).toHaveLength(2);
    for (const s of started)
      expect(s.price).toEqual({
        model: 'gpt-4.1-mini',
        input: 0.4,
        cachedInput: 0.1,
        cacheWrite: null,
        output: 1.6,
        tableDate: '2026-12-01',
      });
    for (const events of groupByRun(stored.events).values()) {
      const run = summarizeRun(events);
      expect(run.status).toBe('answered');
      expect(run.usageSource).toBe('reported');
      const expected = events.flatMap((e) =>
        e.type === 'model-response' && e.usage ? [priceUsage(e.usage, started[0].price!)] : [],
      );
      expect(run.perStep.map((s) => s.cost.usd)).toEqual(expected);
      expect(run.cost.usd).toBeCloseTo(
        expected.reduce((a, b) => a + b, 0),
        15,
      );
      expect(run.cost.usd).toBeGreaterThan(0);
    }
    expect(
      summarizeComparison([...groupByRun(stored.events).values()].map(summarizeRun)).cheapest.runId,
    ).not.toBeNull();
  });

  it("records null for a model the table lacks, and the user's own price once set; old runs keep theirs", async () => {
    const { dir, stored: before } = await compare('house-model-7b', proxy.url);
    for (const s of startedOf(before.events)) expect(s.price).toBeNull();
    await new PriceStore(dir).set({ model: 'house-model-7b', input: 1, output: 2 });
    const { stored: after } = await compare('house-model-7b', proxy.url, dir);
    for (const s of startedOf(after.events))
      expect(s.price).toMatchObject({ model: 'house-model-7b', input: 1, output: 2, cachedInput: null });
    // The first comparison, read again, still has no price.
    const again = await new HistoryStore(dir).open(before.meta.id);
    for (const s of startedOf(again.events)) expect(s.price).toBeNull();
  });

  it('never prices the simulated model, and starts it even when the price file is broken', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'parallax-host-prices-'));
    await writeFile(join(dir, 'prices.json'), '{ broken');
    const events: StepEvent[] = [];
    const host = createHost({
      dataDir: dir,
      getApiKey: async () => null,
      onWarning: () => {},
      onEvents: (b) => events.push(...b),
    });
    hosts.push(host);
    const meta = await host['comparison:start']({
      task: 'calc',
      modes: ['react'],
      provider: { name: 'simulated', baseUrl: null, model: 'sim' },
    });
    await host.whenDone(meta.id);
    expect(startedOf(events)[0].price).toBeNull();
    // A priced provider cannot start on a broken table: the user is told what is wrong and how to fix it.
    await expect(
      host['comparison:start']({
        task: 'calc',
        modes: ['react'],
        provider: { name: 'custom', baseUrl: proxy.url, model: 'gpt-4.1-mini' },
      }),
    ).rejects.toThrow(/price table .*prices\.json is not valid: it is not JSON .*parallax prices reset/);
  });

  it('serves the table over the contract: get, set, remove and reset', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'parallax-host-prices-'));
    const host = createHost({ dataDir: dir, getApiKey: async () => null, onWarning: () => {}, onEvents: () => {} });
    hosts.push(host);
    const first = await host['prices:get']();
    expect(first).toMatchObject({
      custom: false,
      error: null,
      path: join(dir, 'prices.json'),
      defaultDate: '2026-12-01',
    });
    const set = await host['prices:set']({ model: 'gpt-4.1-mini', input: '0.35', output: '1.4', cachedInput: '0.09' });
    expect(set.custom).toBe(true);
    expect(set.table.models.find((m) => m.model === 'gpt-4.1-mini')).toMatchObject({
      input: 0.35,
      output: 1.4,
      cachedInput: 0.09,
      cacheWrite: null,
    });
    await expect(host['prices:set']({ model: 'x', input: '-1', output: '1' })).rejects.toThrow(
      'input: cannot be negative',
    );
    const removed = await host['prices:remove']('gpt-4.1-mini');
    expect(removed.table.models.some((m) => m.model === 'gpt-4.1-mini')).toBe(false);
    const reset = await host['prices:reset']();
    expect(reset).toMatchObject({ custom: false, error: null });
    expect(reset.table.models.some((m) => m.model === 'gpt-4.1-mini')).toBe(true);
  });
});
