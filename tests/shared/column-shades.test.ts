/**
 * Column shades: a mode's further columns are drawn in shades of its own colour, measured (CIEDE2000 after
 * simulating protan-, deutan- and tritanopia, WCAG contrast on the cards), not just listed.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  MAX_SHADES,
  SHADE_BACKGROUNDS,
  computeSlotColours,
  contrast,
  parseSlot,
  slotColours,
  slotMode,
  slotOf,
} from '../../shared/column-shades.js';
import { SHADE_TABLE } from '../../shared/column-shade-table.js';
import { COLUMN_MODE_IDS, MODE_IDS, MODES } from '../../shared/modes.js';
import { VISIONS, colorDistance, contrastRatio } from '../renderer/lib/color-vision.js';

const THEMES = ['light', 'dark'] as const;
const pairs = <T>(xs: readonly T[]): [T, T][] => xs.flatMap((a, i) => xs.slice(i + 1).map((b) => [a, b] as [T, T]));
/** Shades 0–3: four columns of one mode (a 4 models × 3 modes matrix). */
const FIRST = [0, 1, 2, 3];

describe('column shades', () => {
  it('names a shade by its mode and index, shade 0 being the mode itself', () => {
    expect(slotOf('code', 0)).toBe('code');
    expect(slotOf('react-search', 2)).toBe('react-search_2');
    expect(parseSlot('react-search_2')).toEqual({ mode: 'react-search', shade: 2 });
    expect(parseSlot('code-py')).toEqual({ mode: 'code-py', shade: 0 });
    expect(slotMode('hybrid_3')).toBe('hybrid');
    expect(slotMode('future-mode_1')).toBeNull();
    expect(slotColours('future-mode')).toBeNull();
  });

  it("gives shade 0 the mode's own colours and every further shade colours of its own", () => {
    for (const mode of MODE_IDS) {
      expect(slotColours(mode)).toEqual(MODES[mode].colour);
      for (const theme of THEMES) {
        const all = Array.from({ length: MAX_SHADES + 1 }, (_, k) =>
          slotColours(slotOf(mode, k))![theme].prompt.toLowerCase(),
        );
        expect(new Set(all).size, `${mode} ${theme}: ${all.join(' ')}`).toBe(all.length);
        for (const c of all) expect(c).toMatch(/^#[0-9a-f]{6}$/);
      }
    }
  });

  it("draws from a table that is the computation's result (regenerate the table when a mode's colours change)", () => {
    for (const mode of COLUMN_MODE_IDS) {
      const computed = Array.from({ length: MAX_SHADES }, (_, i) => {
        const c = computeSlotColours(mode, i + 1);
        return [c.light.prompt, c.light.completion, c.dark.prompt, c.dark.completion];
      });
      expect(SHADE_TABLE[mode], `${mode}: ${JSON.stringify(computed)}`).toEqual(computed);
    }
    expect(slotColours('code_13')).toEqual(slotColours('code_2'));
  });

  it('agrees with the stylesheet on the dark card, and computes contrast as the tests do', () => {
    const css = readFileSync(new URL('../../renderer/styles/base.css', import.meta.url), 'utf8');
    const dark = css.slice(css.indexOf(":root[data-theme='dark']"));
    expect(/--bg-raised:\s*(#[0-9a-f]{6})/i.exec(dark)?.[1]?.toLowerCase()).toBe(SHADE_BACKGROUNDS.dark);
    expect(/--bg-raised:\s*(#[0-9a-f]{6})/i.exec(css)?.[1]?.toLowerCase()).toBe(SHADE_BACKGROUNDS.light);
    expect(contrast('#0072B2', '#ffffff')).toBeCloseTo(contrastRatio('#0072B2', '#ffffff'), 5);
  });

  for (const theme of THEMES) {
    describe(`${theme} theme`, () => {
      it("draws every shade's prompt colour with at least 3:1 contrast on its card (and the report's white page)", () => {
        for (const mode of MODE_IDS) {
          for (let k = 1; k <= MAX_SHADES; k++) {
            const c = slotColours(slotOf(mode, k))![theme].prompt;
            expect(contrastRatio(c, SHADE_BACKGROUNDS[theme]), `${mode}_${k} ${c}`).toBeGreaterThanOrEqual(3);
          }
        }
      });

      it("keeps a mode's first four columns apart from one another for every kind of colour vision", () => {
        for (const mode of MODE_IDS) {
          const shades = FIRST.map((k) => slotColours(slotOf(mode, k))![theme].prompt);
          for (const vision of VISIONS) {
            // The second column differs most (the mode's shades are picked farthest-first).
            expect(colorDistance(shades[0]!, shades[1]!, vision), `${mode} 0/1 ${vision}`).toBeGreaterThanOrEqual(9);
            for (const [a, b] of pairs(shades))
              expect(colorDistance(a, b, vision), `${mode} ${a}/${b} ${vision}`).toBeGreaterThanOrEqual(4);
          }
        }
      });

      it("keeps each shade's completion colour apart from its prompt colour", () => {
        for (const mode of MODE_IDS) {
          for (const k of FIRST) {
            const s = slotColours(slotOf(mode, k))![theme];
            for (const vision of VISIONS)
              expect(colorDistance(s.prompt, s.completion, vision), `${mode}_${k} ${vision}`).toBeGreaterThanOrEqual(8);
          }
        }
      });

      it("keeps the agent column's colour apart from every mode's, as a mode's second column is", () => {
        const agent = MODES.agent.colour[theme].prompt;
        for (const mode of MODE_IDS) {
          const o = MODES[mode].colour[theme].prompt;
          for (const vision of VISIONS)
            expect(colorDistance(agent, o, vision), `agent ${agent} vs ${mode} ${o}, ${vision}`).toBeGreaterThanOrEqual(
              vision === 'normal' ? 15 : 5,
            );
        }
        expect(contrastRatio(agent, SHADE_BACKGROUNDS[theme])).toBeGreaterThanOrEqual(3);
      });

      it("keeps a mode's second column apart from every other mode's own colour", () => {
        for (const mode of MODE_IDS) {
          const c = slotColours(slotOf(mode, 1))![theme].prompt;
          for (const other of MODE_IDS.filter((m) => m !== mode)) {
            const o = MODES[other].colour[theme].prompt;
            for (const vision of VISIONS)
              expect(colorDistance(c, o, vision), `${mode}_1 ${c} vs ${other} ${o}, ${vision}`).toBeGreaterThanOrEqual(
                vision === 'normal' ? 15 : 5,
              );
          }
        }
      });
    });
  }
});
