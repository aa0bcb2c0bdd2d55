/**
 * How a figure is written, on every surface (app, reports, CLI). Written out by hand rather than with
 * Intl/toLocaleString so the text never depends on the machine's locale: reports must be reproducible.
 */

/** 12345 → "12,345"; fractions kept as they are (12345.5 → "12,345.5"). */
export function formatInt(n: number): string {
  const sign = n < 0 ? '-' : '';
  const [int, frac] = Math.abs(n).toString().split('.');
  const grouped = int.replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  return sign + grouped + (frac ? `.${frac}` : '');
}

/**
 * `n` rounded to at most `digits` decimals (half away from zero) and grouped: 12345.6 → "12,346" (digits 0),
 * "12,345.6" (digits 1). As en-US Intl would write it, without depending on the machine's locale data.
 */
export function formatRounded(n: number, digits = 0): string {
  if (Number.isNaN(n)) return 'NaN';
  const negative = n < 0 || Object.is(n, -0);
  if (!Number.isFinite(n)) return negative ? '-∞' : '∞';
  const f = 10 ** digits;
  return (negative ? '-' : '') + formatInt(Math.round(Math.abs(n) * f) / f);
}

/** A mean over trials: to one decimal when it has one (20,199.5), none when it is whole. */
export function formatMean(n: number): string {
  return formatInt(Math.round(n * 10) / 10);
}

/** The one duration format: "850 ms", "12.3 s", "2 min 05 s". */
export function formatDuration(ms: number): string {
  if (ms < 1000) return `${Math.round(ms)} ms`;
  if (ms < 60_000) return `${(ms / 1000).toFixed(1)} s`;
  const s = Math.round(ms / 1000);
  return `${Math.floor(s / 60)} min ${String(s % 60).padStart(2, '0')} s`;
}
