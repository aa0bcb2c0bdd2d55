/** The reports' mode colours: one look per mode, apart for colour-blind readers and apart in grey print. */
import { describe, expect, it } from 'vitest';
import { MODE_IDS } from '../../../../shared/run-spec.js';
import { REPORT_MODE_STYLES, modeStyle, reportPaletteCss } from '../../../../electron/host/reports/report-palette.js';
import { VISIONS, colorDistance, contrastRatio } from '../../../renderer/lib/color-vision.js';

const styles = MODE_IDS.map((m) => REPORT_MODE_STYLES[m]);
const pairs = <T>(xs: readonly T[]): [T, T][] => xs.flatMap((a, i) => xs.slice(i + 1).map((b) => [a, b] as [T, T]));

describe('report palette', () => {
  it('gives every mode its own colour, tint, dash and marker', () => {
    for (const key of ['color', 'tint', 'dash', 'marker'] as const)
      expect(new Set(styles.map((s) => s[key])).size, key).toBe(MODE_IDS.length);
    for (const m of MODE_IDS) expect(modeStyle(m)).toBe(REPORT_MODE_STYLES[m]);
  });

  it('keeps the mode colours apart with every kind of colour vision, and each tint apart from its colour', () => {
    for (const vision of VISIONS) {
      for (const [a, b] of pairs(styles))
        expect(colorDistance(a.color, b.color, vision), `${a.color}/${b.color} ${vision}`).toBeGreaterThanOrEqual(
          vision === 'normal' ? 20 : 8,
        );
      for (const s of styles)
        expect(colorDistance(s.color, s.tint, vision), `${s.color}/${s.tint} ${vision}`).toBeGreaterThanOrEqual(10);
    }
  });

  it('draws every colour with at least 3:1 contrast on the white page', () => {
    for (const s of styles) expect(contrastRatio(s.color, '#ffffff'), s.color).toBeGreaterThanOrEqual(3);
  });

  it('draws an unknown mode from a newer stored comparison in grey rather than failing', () => {
    const unknown = modeStyle('some-future-mode');
    expect(styles).not.toContain(unknown);
    expect(unknown.color).toMatch(/^#[0-9A-F]{6}$/i);
  });

  it('has a swatch rule per mode that prints in colour', () => {
    const css = reportPaletteCss(MODE_IDS);
    for (const m of MODE_IDS)
      expect(css).toContain(`.swatch.mode-${m} { background: ${REPORT_MODE_STYLES[m].color}; }`);
    expect(css).toContain('print-color-adjust: exact');
  });

  it("adds a later mode's rule only to reports that have the mode, so older reports keep their bytes", () => {
    expect(reportPaletteCss()).not.toContain('.swatch.mode-code-py');
    expect(reportPaletteCss(['react', 'code'])).not.toContain('.swatch.mode-react-text');
    expect(reportPaletteCss(['react', 'code'])).toContain('.swatch.mode-react-search');
    expect(reportPaletteCss(['react', 'react-text'])).toContain(
      `.swatch.mode-react-text { background: ${REPORT_MODE_STYLES['react-text'].color}; }`,
    );
    expect(reportPaletteCss(['react', 'code-py'])).toContain(
      `.swatch.mode-code-py { background: ${REPORT_MODE_STYLES['code-py'].color}; }`,
    );
  });
});
