/**
 * Statistics over trials: mean, standard deviation and 95 % interval of one figure, Wilson's interval of a
 * pass rate, and the difference of two modes with its interval and an exact permutation test.
 *
 * Trials are few (1–10 per mode), so nothing here leans on large-sample approximations:
 * - the interval of a mean is Student's t (quantile below, from the regularized incomplete beta function);
 * - a pass rate uses Wilson's score interval, which stays inside [0, 1] and is sensible at 0/n and n/n;
 * - a difference of two modes is paired by round when rounds pair the runs (each round starts one run of
 *   every mode together) and tested with the exact sign-flip permutation test over all 2^n sign patterns;
 *   otherwise Welch's interval and the exact permutation test over every split of the pooled runs.
 *   Two-sided p = share of arrangements whose |statistic| is at least the observed one.
 * Pure TypeScript (shared/): no library. A well-kept t quantile package (@stdlib) bundles to ~190 kB with
 * ~220 packages; the ~40 lines here are tested against scipy's values.
 */
import { seededRandom } from './seeded-random.js';

/** Two-sided 95 %: the normal quantile z(0.975), for Wilson's interval. */
const Z975 = 1.959963984540054;
/** Exact enumeration up to this many arrangements; beyond it, a seeded random sample of MC_DRAWS. */
const EXACT_LIMIT = 1 << 20;
const MC_DRAWS = 200_000;

export function mean(values: readonly number[]): number {
  let s = 0;
  for (const v of values) s += v;
  return s / values.length;
}

/** Sample standard deviation (n − 1); null for fewer than two values. */
export function sampleSd(values: readonly number[]): number | null {
  if (values.length < 2) return null;
  const m = mean(values);
  let ss = 0;
  for (const v of values) ss += (v - m) ** 2;
  return Math.sqrt(ss / (values.length - 1));
}

/** ln Γ(x) for x > 0 (Lanczos, g = 7, n = 9: about 15 significant digits). */
function lnGamma(x: number): number {
  const c = [
    0.99999999999980993, 676.5203681218851, -1259.1392167224028, 771.32342877765313, -176.61502916214059,
    12.507343278686905, -0.13857109526572012, 9.9843695780195716e-6, 1.5056327351493116e-7,
  ];
  if (x < 0.5) return Math.log(Math.PI / Math.sin(Math.PI * x)) - lnGamma(1 - x);
  x -= 1;
  let a = c[0];
  const t = x + 7.5;
  for (let i = 1; i < 9; i++) a += c[i] / (x + i);
  return 0.5 * Math.log(2 * Math.PI) + (x + 0.5) * Math.log(t) - t + Math.log(a);
}

/** Continued fraction of the incomplete beta function (modified Lentz; Numerical Recipes §6.4). */
function betaCf(x: number, a: number, b: number): number {
  const tiny = 1e-300;
  let c = 1,
    d = 1 - ((a + b) * x) / (a + 1);
  d = 1 / (Math.abs(d) < tiny ? tiny : d);
  let h = d;
  for (let m = 1; m <= 300; m++) {
    const m2 = 2 * m;
    for (const num of [
      (m * (b - m) * x) / ((a + m2 - 1) * (a + m2)),
      (-(a + m) * (a + b + m) * x) / ((a + m2) * (a + m2 + 1)),
    ]) {
      d = 1 + num * d;
      d = 1 / (Math.abs(d) < tiny ? tiny : d);
      c = 1 + num / c;
      if (Math.abs(c) < tiny) c = tiny;
      h *= d * c;
    }
    if (Math.abs(d * c - 1) < 1e-16) break;
  }
  return h;
}

/** Regularized incomplete beta I_x(a, b). */
export function betaIncReg(x: number, a: number, b: number): number {
  if (x <= 0) return 0;
  if (x >= 1) return 1;
  const front = Math.exp(lnGamma(a + b) - lnGamma(a) - lnGamma(b) + a * Math.log(x) + b * Math.log(1 - x));
  // The continued fraction converges fast for x < (a + 1) / (a + b + 2); use the symmetry otherwise.
  return x < (a + 1) / (a + b + 2) ? (front * betaCf(x, a, b)) / a : 1 - (front * betaCf(1 - x, b, a)) / b;
}

/** Student's t distribution function P(T ≤ t) with df degrees of freedom (df > 0, not necessarily whole). */
export function tCdf(t: number, df: number): number {
  const tail = 0.5 * betaIncReg(df / (df + t * t), df / 2, 0.5);
  return t >= 0 ? 1 - tail : tail;
}

/** Student's t quantile: the t with P(T ≤ t) = p, by bisection on tCdf (monotone, so it cannot diverge). */
export function tQuantile(p: number, df: number): number {
  if (!(p > 0 && p < 1) || !(df > 0))
    throw new RangeError(`tQuantile needs 0 < p < 1 and df > 0 (got p = ${p}, df = ${df})`);
  if (p === 0.5) return 0;
  if (p < 0.5) return -tQuantile(1 - p, df);
  let lo = 0,
    hi = 1;
  while (tCdf(hi, df) < p) hi *= 2;
  for (let i = 0; i < 200 && hi - lo > 1e-14 * hi; i++) {
    const mid = (lo + hi) / 2;
    if (tCdf(mid, df) < p) lo = mid;
    else hi = mid;
  }
  return (lo + hi) / 2;
}

/** One figure over trials. `sd` and `ci95` are null for a single value ("1 trial: no interval"). */
export interface MeanStat {
  readonly n: number;
  readonly mean: number;
  readonly sd: number | null;
  /** 95 % t interval of the mean, [low, high]. */
  readonly ci95: readonly [number, number] | null;
  readonly min: number;
  readonly max: number;
}

export function meanStat(values: readonly number[]): MeanStat | null {
  if (values.length === 0) return null;
  const m = mean(values);
  const sd = sampleSd(values);
  const half = sd === null ? null : (tQuantile(0.975, values.length - 1) * sd) / Math.sqrt(values.length);
  return {
    n: values.length,
    mean: m,
    sd,
    ci95: half === null ? null : [m - half, m + half],
    min: Math.min(...values),
    max: Math.max(...values),
  };
}

/** A share of runs (passed validation of all runs) with Wilson's 95 % score interval. */
export interface RateStat {
  readonly k: number;
  readonly n: number;
  readonly rate: number;
  readonly ci95: readonly [number, number];
}

export function wilson(k: number, n: number, z = Z975): RateStat | null {
  if (n <= 0) return null;
  const p = k / n,
    z2 = z * z;
  const centre = (p + z2 / (2 * n)) / (1 + z2 / n);
  const half = (z / (1 + z2 / n)) * Math.sqrt((p * (1 - p)) / n + z2 / (4 * n * n));
  // At 0/n and n/n the bound is exactly 0 or 1; rounding would leave 1e-17 off.
  return { k, n, rate: p, ci95: [k === 0 ? 0 : Math.max(0, centre - half), k === n ? 1 : Math.min(1, centre + half)] };
}

/** Whether |s| reaches the observed |statistic|, with room for rounding of sums in another order. */
const atLeast = (s: number, observed: number) => Math.abs(s) >= Math.abs(observed) * (1 - 1e-12) - 1e-12;

export interface PermutationResult {
  readonly p: number;
  /** 'exact': every arrangement; 'sampled': MC_DRAWS seeded random ones (only past EXACT_LIMIT). */
  readonly method: 'exact' | 'sampled';
  /** The smallest p this test can give with these sample sizes (2 / arrangements when exact). */
  readonly minP: number;
}

/** Paired: exact sign-flip test of the mean of differences (each pair's sign swapped in every pattern). */
export function pairedPermutationTest(diffs: readonly number[]): PermutationResult {
  const n = diffs.length;
  const observed = diffs.reduce((s, d) => s + d, 0);
  const total = 2 ** n;
  if (total <= EXACT_LIMIT) {
    let hits = 0;
    for (let mask = 0; mask < total; mask++) {
      let s = 0;
      for (let i = 0; i < n; i++) s += mask & (1 << i) ? -diffs[i] : diffs[i];
      if (atLeast(s, observed)) hits++;
    }
    return { p: hits / total, method: 'exact', minP: Math.min(1, 2 / total) };
  }
  const rnd = seededRandom(n);
  let hits = 0;
  for (let k = 0; k < MC_DRAWS; k++) {
    let s = 0;
    for (const d of diffs) s += rnd() < 0.5 ? -d : d;
    if (atLeast(s, observed)) hits++;
  }
  return { p: (hits + 1) / (MC_DRAWS + 1), method: 'sampled', minP: 1 / (MC_DRAWS + 1) };
}

function binomial(n: number, k: number): number {
  let r = 1;
  for (let i = 1; i <= k; i++) r = (r * (n - k + i)) / i;
  return Math.round(r);
}

/** Unpaired: exact permutation test of the difference of means over every split of the pooled values. */
export function permutationTest(a: readonly number[], b: readonly number[]): PermutationResult {
  const pooled = [...a, ...b];
  const n = pooled.length,
    na = a.length;
  const sum = pooled.reduce((s, v) => s + v, 0);
  const diffOf = (sumA: number) => sumA / na - (sum - sumA) / (n - na);
  const observed = diffOf(a.reduce((s, v) => s + v, 0));
  const total = binomial(n, na);
  let hits = 0;
  if (total <= EXACT_LIMIT) {
    // Every na-subset of the pooled indices, by recursion over the index to take next.
    const walk = (from: number, left: number, sumA: number) => {
      if (left === 0) {
        if (atLeast(diffOf(sumA), observed)) hits++;
        return;
      }
      for (let i = from; i <= n - left; i++) walk(i + 1, left - 1, sumA + pooled[i]);
    };
    walk(0, na, 0);
    return { p: hits / total, method: 'exact', minP: Math.min(1, (na === n - na ? 2 : 1) / total) };
  }
  const rnd = seededRandom(n * 31 + na);
  const idx = pooled.map((_, i) => i);
  for (let k = 0; k < MC_DRAWS; k++) {
    let sumA = 0;
    for (let i = 0; i < na; i++) {
      const j = i + Math.floor(rnd() * (n - i));
      [idx[i], idx[j]] = [idx[j], idx[i]];
      sumA += pooled[idx[i]];
    }
    if (atLeast(diffOf(sumA), observed)) hits++;
  }
  return { p: (hits + 1) / (MC_DRAWS + 1), method: 'sampled', minP: 1 / (MC_DRAWS + 1) };
}

/** A mode's figure against the baseline's: the difference of means, its interval, the same as a percentage of
 *  the baseline's mean, and the permutation test. Intervals are null with fewer than two values a side. */
export interface MeanDifference {
  readonly paired: boolean;
  /** Pairs when paired; else the mode's runs (nBase: the baseline's). */
  readonly n: number;
  readonly nBase: number;
  /** mean(mode) − mean(baseline): the mean of the pair differences when paired. */
  readonly diff: number;
  readonly ci95: readonly [number, number] | null;
  /** (mean(mode) / mean(baseline) − 1) × 100; null when the baseline's mean is 0. */
  readonly percent: number | null;
  /** 95 % interval of `percent` (delta method on the ratio of means; see ratioHalfWidth). */
  readonly percentCi95: readonly [number, number] | null;
  readonly test: PermutationResult | null;
}

/**
 * Half-width of the 95 % interval of R = mean(x) / mean(b), by the delta method (linearising R):
 * paired, Var(R) ≈ Var(x − R·b) / (n · mean(b)²) with n − 1 degrees of freedom; unpaired,
 * Var(R) ≈ (s²x/nx + R²·s²b/nb) / mean(b)² with Welch–Satterthwaite degrees of freedom.
 */
function ratioHalfWidth(x: readonly number[], b: readonly number[], paired: boolean, r: number, mb: number): number {
  if (paired) {
    const sd = sampleSd(x.map((v, i) => v - r * b[i]))!;
    return sd === 0 ? 0 : (tQuantile(0.975, x.length - 1) * sd) / (Math.sqrt(x.length) * Math.abs(mb));
  }
  const v1 = sampleSd(x)! ** 2 / x.length,
    v2 = (r * r * sampleSd(b)! ** 2) / b.length;
  return welchHalf(v1, v2, x.length, b.length) / Math.abs(mb);
}

/** t(0.975, Welch df) × √(v1 + v2) for two variances of means; 0 when both are 0. */
function welchHalf(v1: number, v2: number, n1: number, n2: number): number {
  const se2 = v1 + v2;
  if (se2 === 0) return 0;
  const df = (se2 * se2) / ((v1 * v1) / (n1 - 1) + (v2 * v2) / (n2 - 1));
  return tQuantile(0.975, df) * Math.sqrt(se2);
}

/**
 * `x` and `b` are the mode's and the baseline's values; `paired` says x[i] and b[i] come from the same round
 * (then the arrays have the same length).
 */
export function compareMeans(x: readonly number[], b: readonly number[], paired: boolean): MeanDifference | null {
  if (x.length === 0 || b.length === 0) return null;
  if (paired && x.length !== b.length)
    throw new RangeError('compareMeans: paired values need arrays of the same length');
  const mx = mean(x),
    mb = mean(b);
  const diff = mx - mb;
  const r = mb === 0 ? null : mx / mb;
  const percent = r === null ? null : (r - 1) * 100;
  const base = { paired, n: x.length, nBase: b.length, diff, percent };
  const enough = paired ? x.length >= 2 : x.length >= 2 && b.length >= 2;
  if (!enough) return { ...base, ci95: null, percentCi95: null, test: null };
  let half: number;
  let test: PermutationResult;
  if (paired) {
    const d = x.map((v, i) => v - b[i]);
    half = (tQuantile(0.975, d.length - 1) * sampleSd(d)!) / Math.sqrt(d.length);
    test = pairedPermutationTest(d);
  } else {
    half = welchHalf(sampleSd(x)! ** 2 / x.length, sampleSd(b)! ** 2 / b.length, x.length, b.length);
    test = permutationTest(x, b);
  }
  const rHalf = r === null ? null : ratioHalfWidth(x, b, paired, r, mb) * 100;
  return {
    ...base,
    ci95: [diff - half, diff + half],
    percentCi95: percent === null || rHalf === null ? null : [percent - rHalf, percent + rHalf],
    test,
  };
}

/** Two pass rates: the difference in proportion, its interval, and the permutation test on the 0/1 outcomes. */
export interface RateDifference {
  readonly paired: boolean;
  readonly n: number;
  readonly nBase: number;
  /** rate(mode) − rate(baseline), a proportion (−1 … 1). */
  readonly diff: number;
  /** Newcombe's hybrid score interval (his method 10, from the two Wilson intervals). */
  readonly ci95: readonly [number, number];
  /** Paired: the exact sign-flip test on the per-round differences (the exact McNemar test);
   *  unpaired: the exact permutation test of the two shares (Fisher's exact test, by |difference|). */
  readonly test: PermutationResult | null;
}

export function compareRates(x: readonly boolean[], b: readonly boolean[], paired: boolean): RateDifference | null {
  const wx = wilson(x.filter(Boolean).length, x.length),
    wb = wilson(b.filter(Boolean).length, b.length);
  if (!wx || !wb) return null;
  if (paired && x.length !== b.length)
    throw new RangeError('compareRates: paired outcomes need arrays of the same length');
  const diff = wx.rate - wb.rate;
  const lo = diff - Math.sqrt((wx.rate - wx.ci95[0]) ** 2 + (wb.ci95[1] - wb.rate) ** 2);
  const hi = diff + Math.sqrt((wx.ci95[1] - wx.rate) ** 2 + (wb.rate - wb.ci95[0]) ** 2);
  const one = (v: boolean) => (v ? 1 : 0);
  const enough = paired ? x.length >= 2 : x.length >= 2 && b.length >= 2;
  const test = !enough
    ? null
    : paired
      ? pairedPermutationTest(x.map((v, i) => one(v) - one(b[i])))
      : permutationTest(x.map(one), b.map(one));
  return { paired, n: x.length, nBase: b.length, diff, ci95: [lo, hi], test };
}
