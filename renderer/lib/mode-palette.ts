/**
 * Every mode's colours, in one place: a prompt shade and a lighter (dark theme: brighter) completion shade per
 * theme, and a dash pattern for its cumulative line. The hues follow the Okabe–Ito set (blue, orange, bluish
 * green, reddish purple), tuned so the four prompt shades stay apart under protan-, deutan- and tritanopia
 * (tests/renderer/lib/mode-palette.test.ts measures it). Keyed by ModeId, so a new mode does not typecheck
 * until it has its colours. The CSS custom properties (--mode-<id>, --mode-<id>-2) are generated from here.
 */
import type { ModeId } from '../../shared/run-spec.js';

export type TokenKind = 'prompt' | 'completion';
export type Theme = 'light' | 'dark';

export interface ModeShades {
  readonly prompt: string;
  readonly completion: string;
}

export interface ModeStyle {
  readonly light: ModeShades;
  readonly dark: ModeShades;
  /** SVG stroke-dasharray of the mode's line ('' = solid), so lines differ without colour too. */
  readonly dash: string;
}

/** The four colour slots, in the order modes were added to Parallax. */
const BLUE: ModeStyle = { light: { prompt: '#2f6fde', completion: '#8db4f5' }, dark: { prompt: '#5b9bff', completion: '#b3d0ff' }, dash: '' };
const ORANGE: ModeStyle = { light: { prompt: '#d9730d', completion: '#f3bd82' }, dark: { prompt: '#f0953a', completion: '#fcd6ac' }, dash: '6 3' };
const GREEN: ModeStyle = { light: { prompt: '#118c6c', completion: '#7fd3b6' }, dark: { prompt: '#2aa57f', completion: '#8fdcc0' }, dash: '2 2' };
const PURPLE: ModeStyle = { light: { prompt: '#a3327a', completion: '#e9a6cf' }, dark: { prompt: '#e46aa8', completion: '#f7b5d6' }, dash: '8 3 2 3' };
export const PALETTE_SLOTS: readonly ModeStyle[] = [BLUE, ORANGE, GREEN, PURPLE];

export const MODE_PALETTE: Readonly<Record<ModeId, ModeStyle>> = { react: BLUE, code: ORANGE, hybrid: GREEN, 'react-search': PURPLE };

/** The theme-aware colour of a mode, as a CSS value for a style or an SVG fill. */
export const modeColor = (mode: ModeId, kind: TokenKind = 'prompt') => `var(--mode-${mode}${kind === 'completion' ? '-2' : ''})`;

export const modeDash = (mode: ModeId): string | undefined => MODE_PALETTE[mode]?.dash || undefined;

/**
 * The stylesheet of the palette: the variables of both themes, and a `.mode-<id>` class that sets
 * --mode / --mode-2 so any element (swatch, column head) can take its mode's colour without a rule per mode.
 */
export function modePaletteCss(): string {
  const entries = Object.entries(MODE_PALETTE) as [ModeId, ModeStyle][];
  const vars = (theme: Theme) => entries.map(([m, s]) => `--mode-${m}: ${s[theme].prompt}; --mode-${m}-2: ${s[theme].completion};`).join(' ');
  const classes = entries.map(([m]) => `.mode-${m} { --mode: var(--mode-${m}); --mode-2: var(--mode-${m}-2); }`).join('\n');
  return `:root { ${vars('light')} }\n:root[data-theme='dark'] { ${vars('dark')} }\n${classes}\n`;
}

/** Adds the palette's stylesheet to the page once, before the first render. */
export function installModePalette(doc: Document): void {
  if (doc.getElementById('mode-palette')) return;
  const style = doc.createElement('style');
  style.id = 'mode-palette';
  style.textContent = modePaletteCss();
  doc.head.appendChild(style);
}
