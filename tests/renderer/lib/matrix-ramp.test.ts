/**
 * The matrix's colour scale (renderer/styles/trials.css): one lightness ramp per theme, its ends apart for every
 * colour vision, and the value written on any shade in the theme's one ink readable (WCAG contrast ≥ 4.5).
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { VISIONS, colorDistance, contrastRatio } from './color-vision.js';

const css = readFileSync(new URL('../../../renderer/styles/trials.css', import.meta.url), 'utf8');
const block = (theme: 'light' | 'dark') => {
  const start = css.indexOf(theme === 'light' ? ':root {\n  --matrix-lo' : ":root[data-theme='dark'] {\n  --matrix-lo");
  return css.slice(start, css.indexOf('}', start));
};
const varOf = (theme: 'light' | 'dark', name: string) => {
  const m = new RegExp(`--${name}:\\s*(#[0-9a-f]{6})`, 'i').exec(block(theme));
  if (!m) throw new Error(`no --${name} in the ${theme} theme`);
  return m[1]!;
};
/** color-mix(in srgb, hi t, lo): each gamma-encoded channel interpolated. */
const mix = (hi: string, lo: string, t: number) =>
  `#${[1, 3, 5]
    .map((i) =>
      Math.round(parseInt(hi.slice(i, i + 2), 16) * t + parseInt(lo.slice(i, i + 2), 16) * (1 - t))
        .toString(16)
        .padStart(2, '0'),
    )
    .join('')}`;

describe('matrix colour scale', () => {
  for (const theme of ['light', 'dark'] as const) {
    it(`${theme}: the value is readable on every shade, and the ends differ for every colour vision`, () => {
      const [lo, hi, ink] = ['matrix-lo', 'matrix-hi', 'matrix-ink'].map((n) => varOf(theme, n)) as [
        string,
        string,
        string,
      ];
      for (let pct = 0; pct <= 100; pct++)
        expect(contrastRatio(mix(hi, lo, pct / 100), ink), `${theme} at ${pct} %`).toBeGreaterThanOrEqual(4.5);
      // CIEDE2000 between the worst and the best cell, after simulating each colour vision.
      for (const vision of VISIONS) expect(colorDistance(lo, hi, vision), vision).toBeGreaterThan(30);
    });
  }
});
