/**
 * The statistics over trials against values computed independently: scipy 1.17 (the call that gave each
 * value is written beside it), Fisher's exact test of Darwin's Zea mays data, and Newcombe's (1998) example.
 */
import { describe, expect, it } from 'vitest';
import {
  betaIncReg,
  compareMeans,
  compareRates,
  meanStat,
  pairedPermutationTest,
  permutationTest,
  sampleSd,
  tCdf,
  tQuantile,
  wilson,
} from '../../shared/trial-stats.js';

describe('Student t', () => {
  // scipy.stats.t.ppf(0.975, df)
  const Q975: [number, number][] = [
    [1, 12.706204736174694],
    [2, 4.302652729749462],
    [3, 3.1824463052837078],
    [4, 2.7764451051977934],
    [5, 2.5705818356363146],
    [9, 2.262157162798205],
    [2.5, 3.5746548420036817],
    [7.3, 2.345066736547703],
    [17.8, 2.1026153752624523],
    [100, 1.9839715185235518],
  ];
  it.each(Q975)('t quantile 0.975 with df = %s equals scipy t.ppf', (df, q) => {
    expect(tQuantile(0.975, df)).toBeCloseTo(q, 10);
  });

  it('other probabilities, both tails (scipy t.ppf)', () => {
    expect(tQuantile(0.9, 3)).toBeCloseTo(1.637744353696209, 10); // t.ppf(0.9, 3)
    expect(tQuantile(0.05, 6)).toBeCloseTo(-1.943180280515305, 10); // t.ppf(0.05, 6)
    expect(tQuantile(0.999, 2)).toBeCloseTo(22.327124770119866, 8); // t.ppf(0.999, 2)
    expect(tQuantile(0.5, 4)).toBe(0);
  });

  it('distribution function (scipy t.cdf) and the incomplete beta at a closed form', () => {
    expect(tCdf(1.5, 4)).toBeCloseTo(0.896, 12); // t.cdf(1.5, 4)
    expect(tCdf(-2, 3)).toBeCloseTo(0.06966298427942152, 12); // t.cdf(-2, 3)
    // I_x(1, b) = 1 − (1 − x)^b
    expect(betaIncReg(0.3, 1, 4)).toBeCloseTo(1 - 0.7 ** 4, 14);
  });

  it('refuses a probability or df out of range, saying what it needs', () => {
    expect(() => tQuantile(1, 3)).toThrow(/0 < p < 1 and df > 0/);
    expect(() => tQuantile(0.975, 0)).toThrow(/df > 0/);
  });
});

describe('mean, sd and t interval', () => {
  it('matches scipy ttest_1samp(...).confidence_interval(0.95) and np.std(ddof=1)', () => {
    const s = meanStat([12, 15, 11, 19, 14, 13])!;
    expect(s.mean).toBeCloseTo(14, 12);
    expect(s.sd).toBeCloseTo(2.8284271247461903, 12);
    expect(s.ci95![0]).toBeCloseTo(11.031747770442824, 10);
    expect(s.ci95![1]).toBeCloseTo(16.968252229557176, 10);
    expect([s.n, s.min, s.max]).toEqual([6, 11, 19]);
  });

  it('one trial: a mean, no sd and no interval', () => {
    expect(meanStat([42])).toEqual({ n: 1, mean: 42, sd: null, ci95: null, min: 42, max: 42 });
    expect(sampleSd([42])).toBeNull();
    expect(meanStat([])).toBeNull();
  });
});

describe('Wilson interval', () => {
  // scipy.stats.binomtest(k, n).proportion_ci(confidence_level=0.95, method='wilson')
  const CASES: [number, number, number, number][] = [
    [8, 10, 0.4901624715366418, 0.9433178485456248],
    [0, 5, 0, 0.43448246478317476],
    [5, 5, 0.5655175352168251, 1],
    [3, 7, 0.1582198552514697, 0.7495416354723428],
    [1, 1, 0.20654931437723745, 1],
  ];
  it.each(CASES)('%i of %i', (k, n, lo, hi) => {
    const w = wilson(k, n)!;
    expect(w.rate).toBe(k / n);
    expect(w.ci95[0]).toBeCloseTo(lo, 12);
    expect(w.ci95[1]).toBeCloseTo(hi, 12);
  });
  it('no run: no rate', () => expect(wilson(0, 0)).toBeNull());
});

describe('permutation tests', () => {
  it("paired sign-flip: Fisher's exact test of Darwin's Zea mays differences, 863/16384 two-sided", () => {
    // Fisher, The Design of Experiments (1935), §21; scipy permutation_test(permutation_type='samples') agrees.
    const darwin = [49, -67, 8, 16, 6, 23, 28, 41, 14, 29, 56, 24, 75, 60, -48];
    const r = pairedPermutationTest(darwin);
    expect(r.p).toBeCloseTo(0.05267333984375, 14);
    expect(r.method).toBe('exact');
  });

  it('paired, 5 rounds all one way: p = 2/32, the smallest possible (scipy permutation_test → 0.0625)', () => {
    const r = pairedPermutationTest([720, 695, 820, 810, 680]);
    expect(r).toEqual({ p: 0.0625, method: 'exact', minP: 0.0625 });
  });

  it('unpaired, 5 v 5 completely apart: p = 2/252 (scipy permutation_test independent → 0.007936507936507936)', () => {
    const r = permutationTest([1200, 1150, 1320, 1280, 1190], [480, 455, 500, 470, 510]);
    expect(r.p).toBeCloseTo(0.007936507936507936, 14);
    expect(r.minP).toBeCloseTo(2 / 252, 14);
  });

  it('unpaired, 6 v 4: |difference| at least the observed one in 18 of 210 splits', () => {
    // python: itertools.combinations over the pooled 10 values, count |mean(A) − mean(B)| ≥ 14 − 10.25 → 18 of 210.
    expect(permutationTest([12, 15, 11, 19, 14, 13], [10, 9, 14, 8]).p).toBeCloseTo(18 / 210, 14);
  });

  it('no difference at all gives p = 1', () => {
    expect(pairedPermutationTest([0, 0, 0]).p).toBe(1);
    expect(permutationTest([3, 3], [3, 3]).p).toBe(1);
  });
});

describe('differences between two modes', () => {
  const x = [1200, 1150, 1320, 1280, 1190],
    y = [480, 455, 500, 470, 510];

  it('paired: t interval of the pair differences (scipy ttest_1samp(x − y).confidence_interval) and delta-method percent', () => {
    const d = compareMeans(x, y, true)!;
    expect(d.paired).toBe(true);
    expect(d.diff).toBeCloseTo(745, 10); // (663.58 + 826.42) / 2
    expect(d.ci95![0]).toBeCloseTo(663.5786466393979, 9);
    expect(d.ci95![1]).toBeCloseTo(826.4213533606021, 9);
    // numpy: R = x.mean()/y.mean(); e = x − R·y; h = t.ppf(0.975, 4)·e.std(ddof=1)/(√5·y.mean())
    expect(d.percent).toBeCloseTo(154.24430641821948, 9);
    expect(d.percentCi95![0]).toBeCloseTo(135.41996404273385, 8);
    expect(d.percentCi95![1]).toBeCloseTo(173.06864879370508, 8);
    expect(d.test?.p).toBe(0.0625);
  });

  it("unpaired: Welch's interval (scipy ttest_ind(equal_var=False).confidence_interval) and delta-method percent", () => {
    const d = compareMeans([12, 15, 11, 19, 14, 13], [10, 9, 14, 8], false)!;
    expect(d.ci95![0]).toBeCloseTo(-0.3958587686185666, 9);
    expect(d.ci95![1]).toBeCloseTo(7.895858768618567, 9);
    expect(d.percent).toBeCloseTo(36.585365853658544, 9);
    expect(d.percentCi95![0]).toBeCloseTo(-15.698984751673596, 8);
    expect(d.percentCi95![1]).toBeCloseTo(88.8697164589907, 8);
  });

  it('one value a side: the difference, no interval and no test; a zero baseline: no percent', () => {
    expect(compareMeans([5], [4], true)).toMatchObject({
      diff: 1,
      percent: 25,
      ci95: null,
      percentCi95: null,
      test: null,
    });
    expect(compareMeans([5, 6], [0, 0], true)?.percent).toBeNull();
    expect(() => compareMeans([1, 2], [1], true)).toThrow(/same length/);
  });

  it("pass rates: Newcombe's method 10 example, 56/70 v 48/80 → 0.0524 to 0.3339", () => {
    const outcomes = (k: number, n: number) => Array.from({ length: n }, (_, i) => i < k);
    const d = compareRates(outcomes(56, 70), outcomes(48, 80), false)!;
    expect(d.diff).toBeCloseTo(0.2, 12);
    expect(d.ci95[0]).toBeCloseTo(0.052431472402364815, 10);
    expect(d.ci95[1]).toBeCloseTo(0.3338726540369059, 10);
  });

  it('paired pass rates: the exact McNemar test (only discordant rounds count)', () => {
    // 4 rounds where only the mode passed, 1 where both did: p = 2/16 (binomial, 4 discordant pairs all one way).
    const d = compareRates([true, true, true, true, true], [false, false, false, false, true], true)!;
    expect(d.test?.p).toBeCloseTo(2 / 16, 14);
  });
});
