/**
 * Every mode has its own colours in both themes (shared/modes.ts, the one palette of app and reports), and they stay apart for colour-blind readers: the palette's
 * shades are measured (CIEDE2000 after simulating protan-, deutan- and tritanopia), not just listed.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { MODE_IDS, type ModeId } from '../../../shared/run-spec.js';
import { MODE_PALETTE, modeColor, modeDash, modePaletteCss, type Theme } from '../../../renderer/lib/mode-palette.js';
import { REPORT_MODE_STYLES } from '../../../electron/host/reports/report-palette.js';
import { VISIONS, colorDistance, contrastRatio } from './color-vision.js';

const THEMES: readonly Theme[] = ['light', 'dark'];
const pairs = <T>(xs: readonly T[]): [T, T][] => xs.flatMap((a, i) => xs.slice(i + 1).map((b) => [a, b] as [T, T]));

/** The card background the charts sit on, per theme, read from the stylesheet. */
function chartBackground(theme: Theme): string {
  const css = readFileSync(new URL('../../../renderer/styles/base.css', import.meta.url), 'utf8');
  const block =
    theme === 'light'
      ? css.slice(0, css.indexOf(":root[data-theme='dark']"))
      : css.slice(css.indexOf(":root[data-theme='dark']"));
  const m = /--bg-raised:\s*(#[0-9a-f]{6})/i.exec(block);
  if (!m) throw new Error(`no --bg-raised in the ${theme} theme`);
  return m[1]!;
}

describe('mode palette', () => {
  it('gives every mode a prompt and a completion shade in both themes, and a line pattern', () => {
    for (const mode of MODE_IDS) {
      const style = MODE_PALETTE[mode];
      expect(style, mode).toBeDefined();
      for (const theme of THEMES) {
        expect(style[theme].prompt, `${mode} ${theme}`).toMatch(/^#[0-9a-f]{6}$/i);
        expect(style[theme].completion, `${mode} ${theme}`).toMatch(/^#[0-9a-f]{6}$/i);
      }
    }
    expect(new Set(MODE_IDS.map((m) => MODE_PALETTE[m].dash)).size).toBe(MODE_IDS.length);
  });

  it('uses each slot once: no two modes share colours', () => {
    expect(new Set(MODE_IDS.map((m) => MODE_PALETTE[m])).size).toBe(MODE_IDS.length);
    for (const theme of THEMES) {
      const all = MODE_IDS.flatMap((m) => [MODE_PALETTE[m][theme].prompt, MODE_PALETTE[m][theme].completion]).map((c) =>
        c.toLowerCase(),
      );
      expect(new Set(all).size, theme).toBe(all.length);
    }
  });

  // Every mode's colours are measured, so a mode added with colours too close to another's fails here.
  for (const theme of THEMES) {
    describe(`${theme} theme`, () => {
      const slots = MODE_IDS.map((m) => MODE_PALETTE[m][theme]);

      it('keeps the prompt shades of different modes clearly apart, with every kind of colour vision', () => {
        for (const vision of VISIONS) {
          for (const [a, b] of pairs(slots)) {
            const d = colorDistance(a.prompt, b.prompt, vision);
            expect(d, `${a.prompt} vs ${b.prompt}, ${vision}`).toBeGreaterThanOrEqual(vision === 'normal' ? 20 : 8);
          }
        }
      });

      it('keeps all eight shades distinguishable, and each completion shade apart from its own prompt shade', () => {
        const shades = slots.flatMap((s) => [s.prompt, s.completion]);
        const completions = new Set(slots.map((s) => s.completion));
        for (const vision of VISIONS) {
          // Two completion shades may sit closer (the reports' pale Okabe–Ito tints): a completion bar always
          // stands beside its own prompt bar and, when wide enough, is outlined in it, so the tint alone never
          // has to name the mode.
          for (const [a, b] of pairs(shades)) {
            const min = completions.has(a) && completions.has(b) ? 3 : 5;
            expect(colorDistance(a, b, vision), `${a} vs ${b}, ${vision}`).toBeGreaterThanOrEqual(min);
          }
          for (const s of slots)
            expect(
              colorDistance(s.prompt, s.completion, vision),
              `${s.prompt}/${s.completion}, ${vision}`,
            ).toBeGreaterThanOrEqual(10);
        }
      });

      it('draws prompt shades with at least 3:1 contrast against the chart card', () => {
        const bg = chartBackground(theme);
        for (const s of slots) expect(contrastRatio(s.prompt, bg), `${s.prompt} on ${bg}`).toBeGreaterThanOrEqual(3);
      });
    });
  }

  it('generates one variable pair per mode per theme and a .mode-<id> class from the palette', () => {
    const css = modePaletteCss();
    const [light, dark] = css.split(":root[data-theme='dark']");
    for (const mode of MODE_IDS) {
      const s = MODE_PALETTE[mode];
      expect(light).toContain(`--mode-${mode}: ${s.light.prompt};`);
      expect(light).toContain(`--mode-${mode}-2: ${s.light.completion};`);
      expect(dark).toContain(`--mode-${mode}: ${s.dark.prompt};`);
      expect(dark).toContain(`--mode-${mode}-2: ${s.dark.completion};`);
      expect(css).toContain(`.mode-${mode} { --mode: var(--mode-${mode}); --mode-2: var(--mode-${mode}-2); }`);
    }
  });

  it('is the palette the reports draw with: the light shades and dashes of shared/modes.ts', () => {
    for (const mode of MODE_IDS) {
      expect(MODE_PALETTE[mode].light).toEqual({
        prompt: REPORT_MODE_STYLES[mode].color,
        completion: REPORT_MODE_STYLES[mode].tint,
      });
      expect(MODE_PALETTE[mode].dash).toBe(REPORT_MODE_STYLES[mode].dash);
    }
  });

  it('maps a mode and a token kind to its theme-aware variable', () => {
    const seen = new Set<string>();
    for (const mode of MODE_IDS) {
      for (const kind of ['prompt', 'completion'] as const) seen.add(modeColor(mode as ModeId, kind));
      expect(modeColor(mode)).toBe(`var(--mode-${mode})`);
      expect(modeDash(mode)).toBe(MODE_PALETTE[mode].dash || undefined);
    }
    expect(seen.size).toBe(MODE_IDS.length * 2);
  });
});
