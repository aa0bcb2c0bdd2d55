import { describe, expect, it } from 'vitest';
import {
  combineSources,
  costHint,
  costText,
  formatUsd,
  priceUsage,
  runCost,
  stepCost,
  stepCostText,
  sumCosts,
  usageSourceOf,
} from '../../shared/cost.js';
import type { ModelPrice, StepEvent } from '../../shared/step-event.js';
import { aggregateByColumn, groupByRun, summarizeComparison, summarizeRun } from '../../shared/summary.js';
import { comparisonOf, costRun, LMSTUDIO, MINI_PRICE, estimatedComparison } from '../helpers/cost-runs.js';

const CLAUDE: ModelPrice = {
  model: 'anthropic/claude-sonnet-4.5',
  input: 3,
  cachedInput: 0.3,
  cacheWrite: 3.75,
  output: 15,
  tableDate: '2026-12-01',
};
const NO_CACHE_RATES: ModelPrice = {
  model: 'qwen/qwen3-coder',
  input: 0.22,
  cachedInput: null,
  cacheWrite: null,
  output: 1.8,
  tableDate: '2026-11-02',
};

describe('priceUsage', () => {
  it('charges the uncached prompt at the input rate, cache reads at the cached rate and completion at the output rate', () => {
    // (1000 − 400) × 0.40 + 400 × 0.10 + 50 × 1.60 = 240 + 40 + 80 micro-dollars.
    expect(priceUsage({ prompt: 1000, completion: 50, cached: 400 }, MINI_PRICE)).toBeCloseTo(0.00036, 12);
  });

  it('charges cache writes at the cache-write rate, apart from reads and the rest of the prompt', () => {
    // OpenRouter's documented example: 194 prompt tokens of which 100 written to the cache, 2 completion tokens.
    // (194 − 100) × 3 + 100 × 3.75 + 2 × 15 = 282 + 375 + 30 micro-dollars.
    expect(priceUsage({ prompt: 194, completion: 2, cached: 0, cacheWrite: 100 }, CLAUDE)).toBeCloseTo(0.000687, 12);
    // With reads as well: 2000 prompt = 1200 read + 300 written + 500 fresh.
    expect(priceUsage({ prompt: 2000, completion: 100, cached: 1200, cacheWrite: 300 }, CLAUDE)).toBeCloseTo(
      (500 * 3 + 1200 * 0.3 + 300 * 3.75 + 100 * 15) / 1e6,
      12,
    );
  });

  it('charges cached and written tokens at the input rate when the model has no cache rates', () => {
    expect(priceUsage({ prompt: 1000, completion: 10, cached: 600, cacheWrite: 100 }, NO_CACHE_RATES)).toBeCloseTo(
      (1000 * 0.22 + 10 * 1.8) / 1e6,
      12,
    );
  });

  it('bills reasoning a provider counts outside the completion (total above prompt + completion) as output', () => {
    // xAI: completion 20 excludes 300 reasoning tokens; total_tokens = 100 + 20 + 300.
    const u = { prompt: 100, completion: 20, reasoning: 300, total: 420 };
    expect(priceUsage(u, MINI_PRICE)).toBeCloseTo((100 * 0.4 + 320 * 1.6) / 1e6, 12);
    // Reasoning inside the completion (OpenAI): total = prompt + completion, nothing extra.
    expect(priceUsage({ prompt: 100, completion: 320, reasoning: 300, total: 420 }, MINI_PRICE)).toBeCloseTo(
      (100 * 0.4 + 320 * 1.6) / 1e6,
      12,
    );
    // A total that exceeds the sum without reasoning tokens to explain it is not billed on a guess.
    expect(priceUsage({ prompt: 100, completion: 20, total: 500 }, MINI_PRICE)).toBeCloseTo(
      (100 * 0.4 + 20 * 1.6) / 1e6,
      12,
    );
  });

  it('never charges a negative or impossible count: hostile usage is clamped, not trusted', () => {
    expect(priceUsage({ prompt: -5, completion: Number.NaN, cached: 10 }, MINI_PRICE)).toBe(0);
    // More cached tokens than prompt tokens: no more than the prompt is charged, at the cached rate.
    expect(priceUsage({ prompt: 100, completion: 0, cached: 1000 }, MINI_PRICE)).toBeCloseTo((100 * 0.1) / 1e6, 12);
  });
});

describe('stepCost', () => {
  it('prefers the cost the provider reported over the price table', () => {
    const c = stepCost({ usage: { prompt: 1000, completion: 50, cost: 0.0123 }, usageSource: 'reported' }, MINI_PRICE);
    expect(c).toEqual({ usd: 0.0123, from: 'provider', estimated: false });
  });

  it('ignores a provider cost that is not a real amount and falls back to the price', () => {
    for (const cost of [-1, Number.NaN, Number.POSITIVE_INFINITY]) {
      expect(stepCost({ usage: { prompt: 1000, completion: 0, cost }, usageSource: 'reported' }, MINI_PRICE)).toEqual({
        usd: 0.0004,
        from: 'price',
        estimated: false,
      });
    }
  });

  it('marks a cost built on estimated usage, and has none without usage or without a price', () => {
    expect(stepCost({ usage: { prompt: 900, completion: 60 }, usageSource: 'estimated' }, MINI_PRICE)).toEqual({
      usd: 0.000456,
      from: 'price',
      estimated: true,
    });
    expect(stepCost({ usage: null }, MINI_PRICE)).toEqual({ usd: null, from: null, estimated: false });
    expect(stepCost({ usage: { prompt: 900, completion: 60 } }, null)).toEqual({
      usd: null,
      from: null,
      estimated: false,
    });
  });
});

describe('usage sources', () => {
  it('reads events recorded before sources existed as reported, and null usage as missing', () => {
    expect(usageSourceOf({ usage: { prompt: 1, completion: 1 } })).toBe('reported');
    expect(usageSourceOf({ usage: { prompt: 1, completion: 1 }, usageSource: 'estimated' })).toBe('estimated');
    expect(usageSourceOf({ usage: null, usageSource: 'reported' })).toBe('missing');
  });

  it('combines step sources into reported, estimated, mixed or missing', () => {
    expect(combineSources([])).toBe('reported');
    expect(combineSources(['reported', 'reported'])).toBe('reported');
    expect(combineSources(['estimated', 'estimated'])).toBe('estimated');
    expect(combineSources(['reported', 'estimated'])).toBe('mixed');
    expect(combineSources(['estimated', 'mixed'])).toBe('mixed');
    expect(combineSources(['reported', 'missing', 'estimated'])).toBe('missing');
  });
});

describe('formatUsd', () => {
  it('shows three significant digits below a cent, four decimals below a dollar, cents above, never in a locale', () => {
    expect(formatUsd(0)).toBe('$0.00');
    expect(formatUsd(0.000456)).toBe('$0.000456');
    expect(formatUsd(0.001088)).toBe('$0.00109');
    expect(formatUsd(0.00347)).toBe('$0.00347');
    expect(formatUsd(0.0123)).toBe('$0.0123');
    expect(formatUsd(0.5)).toBe('$0.5000');
    expect(formatUsd(1.255)).toBe('$1.25');
    expect(formatUsd(1234.5)).toBe('$1,234.50');
    expect(formatUsd(0.000000001)).toBe('<$0.00000001');
  });
});

describe('runs, comparisons and modes', () => {
  it("sums a run's step costs and says where they came from", () => {
    const [react, code] = [...groupByRun(estimatedComparison().events).values()].map(summarizeRun);
    expect(react.cost.usd).toBeCloseTo(0.001088, 12);
    expect(react.cost).toMatchObject({
      steps: 2,
      costedSteps: 2,
      providerSteps: 0,
      estimated: false,
      kind: 'priced',
      price: MINI_PRICE,
    });
    expect(react.usageSource).toBe('reported');
    expect(costText(react.cost)).toBe('$0.00109');
    expect(code.cost.usd).toBeCloseTo(0.000456, 12);
    expect(code.usageSource).toBe('estimated');
    expect(costText(code.cost)).toBe('≈ $0.000456');
    expect(costHint(code.cost)).toContain('prices of 2026-12-01: $0.40 in, $0.10 cached, $1.60 out per 1M tokens');
    expect(costHint(code.cost)).toContain('Estimated');
    expect(costHint({ ...code.cost, price: { ...MINI_PRICE, cachedInput: 0.0028, input: 0.003625 } })).toContain(
      '$0.003625 in, $0.0028 cached',
    );
    expect(react.perStep.map((s) => s.cost.usd)).toEqual([expect.closeTo(0.00036, 12), expect.closeTo(0.000728, 12)]);
  });

  it('never shows $0 for a run without a price: it names why', () => {
    const unknown = summarizeRun(
      costRun({ runId: 'u', mode: 'react', price: null, steps: [{ usage: { prompt: 10, completion: 1 } }] }),
    );
    expect(unknown.cost.usd).toBeNull();
    expect(costText(unknown.cost)).toBe('no price');
    const local = summarizeRun(
      costRun({
        runId: 'l',
        mode: 'react',
        provider: LMSTUDIO,
        price: null,
        steps: [{ usage: { prompt: 10, completion: 1 } }],
      }),
    );
    expect(costText(local.cost)).toBe('local: no API price');
    const sim = summarizeRun(
      costRun({
        runId: 's',
        mode: 'react',
        provider: { name: 'simulated', baseUrl: 'http://127.0.0.1:9/v1', model: 'sim', simulated: true },
        price: null,
        steps: [{ usage: { prompt: 10, completion: 1 } }],
      }),
    );
    expect(costText(sim.cost)).toBe('simulated: no price');
    const old = summarizeRun(costRun({ runId: 'o', mode: 'react', steps: [{ usage: { prompt: 10, completion: 1 } }] }));
    expect(costText(old.cost)).toBe('no price recorded');
    expect(stepCostText(old.perStep[0].cost, old.cost.kind, false)).toBe('no price recorded');
    // A priced run that made no request cost nothing — that $0 is known, not assumed.
    const none = summarizeRun(costRun({ runId: 'n', mode: 'react', price: MINI_PRICE, steps: [], status: 'error' }));
    expect(none.cost.usd).toBe(0);
  });

  it("uses the provider's cost without a price, and gives a partial figure when some steps have none", () => {
    const provider = summarizeRun(
      costRun({
        runId: 'p',
        mode: 'react',
        price: null,
        steps: [
          { usage: { prompt: 10, completion: 1, cost: 0.002 } },
          { usage: { prompt: 10, completion: 1, cost: 0.003 } },
        ],
      }),
    );
    expect(provider.cost.usd).toBeCloseTo(0.005, 12);
    expect(costHint(provider.cost)).toBe('Cost as reported by the provider itself.');
    const partial = summarizeRun(
      costRun({
        runId: 'q',
        mode: 'react',
        price: MINI_PRICE,
        steps: [{ usage: { prompt: 1000, completion: 0 } }, { usage: null }],
      }),
    );
    expect(partial.cost.usd).toBeNull();
    expect(partial.usageSource).toBe('missing');
    expect(costText(partial.cost)).toBe('$0.000400 for 1 of 2 steps');
  });

  it('names the cheapest run by cost and the fewest-tokens run, marking verdicts on estimated figures', () => {
    const s = estimatedComparison();
    const cmp = summarizeComparison([...groupByRun(s.events).values()].map(summarizeRun));
    const code = s.meta.runs[1].runId;
    expect(cmp.cheapest).toEqual({
      runId: code,
      estimated: true,
      withheld: null,
      ranking: [code, s.meta.runs[0].runId],
    });
    expect(cmp.fewestTokens).toMatchObject({ runId: code, estimated: true, withheld: null });
    expect(cmp.cheapestRunId).toBe(code);
    expect(cmp.costDiffPercent[code]).toBeCloseTo(((0.000456 - 0.001088) / 0.001088) * 100, 9);
    // The whole comparison: every run, answered or not.
    expect(cmp.totalCost).toEqual({ usd: expect.closeTo(0.001544, 12), estimated: true });
  });

  it('withholds a verdict that would rest on missing figures: no winner from zeros', () => {
    const s = comparisonOf('c1', [
      { runId: 'a', mode: 'react', price: MINI_PRICE, steps: [{ usage: { prompt: 1000, completion: 10 } }] },
      { runId: 'b', mode: 'code', price: MINI_PRICE, steps: [{ usage: null }, { usage: null }] },
    ]);
    const cmp = summarizeComparison([...groupByRun(s.events).values()].map(summarizeRun));
    expect(cmp.fewestTokens.runId).toBeNull();
    expect(cmp.cheapestRunId).toBeNull();
    expect(cmp.fewestTokens.withheld).toBe(
      'No token verdict: the provider sent no usage for some steps of Code Mode, so its totals are incomplete.',
    );
    expect(cmp.cheapest.runId).toBeNull();
    expect(cmp.cheapest.withheld).toContain('No cost verdict: the cost of Code Mode is not known');
    expect(cmp.totalCost.usd).toBeNull();
    // Without prices, the cost verdict says why in the same words as the cost cells.
    const unpriced = comparisonOf('c2', [
      { runId: 'a', mode: 'react', price: null, steps: [{ usage: { prompt: 1000, completion: 10 } }] },
      { runId: 'b', mode: 'code', price: null, steps: [{ usage: { prompt: 500, completion: 10 } }] },
    ]);
    const c2 = summarizeComparison([...groupByRun(unpriced.events).values()].map(summarizeRun));
    expect(c2.fewestTokens.runId).toBe('b');
    expect(c2.cheapest.withheld).toMatch(/^No cost verdict: the price table had no price for this model/);
    // A run that did not answer never competes, even with fewer tokens.
    const failed = comparisonOf('c3', [
      { runId: 'a', mode: 'react', price: MINI_PRICE, steps: [{ usage: { prompt: 1000, completion: 10 } }] },
      {
        runId: 'b',
        mode: 'code',
        price: MINI_PRICE,
        steps: [{ usage: { prompt: 10, completion: 1 } }],
        status: 'error',
      },
    ]);
    const c3 = summarizeComparison([...groupByRun(failed.events).values()].map(summarizeRun));
    expect(c3.cheapest.runId).toBe('a');
    expect(c3.fewestTokens.ranking).toEqual(['a']);
  });

  it('never names a run whose answer failed validation, and says so when no answer passed', () => {
    const wrong = (events: StepEvent[]): StepEvent[] =>
      events.map((e) =>
        e.type === 'run-finished' ? { ...e, answer: '56878', validation: { ok: false, detail: 'Expected 56877.' } } : e,
      );
    const s = comparisonOf('v1', [
      { runId: 'a', mode: 'react', price: MINI_PRICE, steps: [{ usage: { prompt: 1000, completion: 10 } }] },
      { runId: 'b', mode: 'code', price: MINI_PRICE, steps: [{ usage: { prompt: 10, completion: 1 } }] },
    ]);
    const runs = groupByRun(s.events);
    // Code Mode is far cheaper, but its answer is wrong: ReAct wins both verdicts.
    const cmp = summarizeComparison([summarizeRun(runs.get('a')!), summarizeRun(wrong(runs.get('b')!))]);
    expect(cmp.fewestTokens).toMatchObject({ runId: 'a', ranking: ['a'], withheld: null });
    expect(cmp.cheapest).toMatchObject({ runId: 'a', ranking: ['a'], withheld: null });
    // Both wrong: no winner, and the reason.
    const none = summarizeComparison([summarizeRun(wrong(runs.get('a')!)), summarizeRun(wrong(runs.get('b')!))]);
    expect(none.fewestTokens).toMatchObject({
      runId: null,
      withheld: 'No token verdict: no answer passed validation (ReAct and Code Mode).',
    });
    expect(none.cheapest).toMatchObject({
      runId: null,
      withheld: 'No cost verdict: no answer passed validation (ReAct and Code Mode).',
    });
    expect(none.cheapestRunId).toBeNull();
    // No validator at all (a free-text task) is not a failure: the runs still compete.
    const unvalidated = (events: StepEvent[]): StepEvent[] =>
      events.map((e) => (e.type === 'run-finished' ? { ...e, validation: null } : e));
    const free = summarizeComparison([
      summarizeRun(unvalidated(runs.get('a')!)),
      summarizeRun(unvalidated(runs.get('b')!)),
    ]);
    expect(free.fewestTokens.runId).toBe('b');
  });

  it('averages cost per mode over finished trials, and gives none when one finished trial has no cost', () => {
    const s = comparisonOf('t', [
      { runId: 'r1', mode: 'react', price: MINI_PRICE, steps: [{ usage: { prompt: 1000, completion: 0 } }] },
      {
        runId: 'c1',
        mode: 'code',
        price: MINI_PRICE,
        steps: [{ usage: { prompt: 500, completion: 0 }, source: 'estimated' }],
      },
      { runId: 'r2', mode: 'react', price: MINI_PRICE, steps: [{ usage: { prompt: 3000, completion: 0 } }] },
      { runId: 'c2', mode: 'code', price: MINI_PRICE, steps: [{ usage: null }] },
    ]);
    const [react, code] = aggregateByColumn([...groupByRun(s.events).values()].map(summarizeRun));
    expect(react.cost).toMatchObject({
      n: 2,
      mean: expect.closeTo(0.0008, 12),
      min: expect.closeTo(0.0004, 12),
      max: expect.closeTo(0.0012, 12),
      sd: expect.closeTo(0.0004 * Math.SQRT2, 12),
    });
    expect(react.usageSource).toBe('reported');
    expect(code.cost).toBeNull();
    expect(code.usageSource).toBe('missing');
    expect(
      sumCosts([
        summarizeRun(
          costRun({
            runId: 'x',
            mode: 'react',
            price: MINI_PRICE,
            steps: [{ usage: { prompt: 1000, completion: 0 } }],
          }),
        ).cost,
      ]).usd,
    ).toBeCloseTo(0.0004, 12);
  });

  it('treats a damaged recorded price (a hand-edited history file) as no price, never as NaN', () => {
    for (const bad of [
      { ...MINI_PRICE, input: 'cheap' },
      { ...MINI_PRICE, output: -1 },
      { ...MINI_PRICE, cachedInput: Number.NaN },
      'gpt-4.1-mini',
    ]) {
      const run = summarizeRun(
        costRun({
          runId: 'd',
          mode: 'react',
          price: bad as unknown as ModelPrice,
          steps: [{ usage: { prompt: 1000, completion: 10 } }],
        }),
      );
      expect(run.cost.usd).toBeNull();
      expect(costText(run.cost)).toBe('no price');
      expect(run.perStep[0].cost.usd).toBeNull();
    }
  });

  it('costs each run at the price recorded in its own run-started event', () => {
    const later: ModelPrice = { ...MINI_PRICE, input: 100, tableDate: '2027-01-01' };
    const usage = [{ usage: { prompt: 1000, completion: 0 } }];
    const then = summarizeRun(costRun({ runId: 'k', mode: 'react', price: MINI_PRICE, steps: usage }));
    const now = summarizeRun(costRun({ runId: 'k', mode: 'react', price: later, steps: usage }));
    expect(then.cost.usd).toBeCloseTo(0.0004, 12);
    expect(now.cost.usd).toBeCloseTo(0.1, 12);
    expect(then.cost.price?.tableDate).toBe('2026-12-01');
    expect(runCost(then.perStep, later, null).usd).toBeCloseTo(0.0004, 12);
  });
});
