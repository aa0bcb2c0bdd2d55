/**
 * Every mode's colours in the app, from the one palette in shared/modes.ts (the reports draw with the same
 * light shades): a prompt shade and a lighter (dark theme: brighter) completion shade per theme, and a dash
 * pattern for its cumulative line. The CSS custom properties (--mode-<id>, --mode-<id>-2) are generated here.
 */
import { MAX_SHADES, slotColours, slotMode, slotOf, type ColumnSlot } from '../../shared/column-shades.js';
import { COLUMN_MODE_IDS, MODES, type ModeId, type ModeShades } from '../../shared/modes.js';
import { PROMPT_PART_INFO, PROMPT_PARTS, type PromptPart } from '../../shared/prompt-composition.js';

export type TokenKind = 'prompt' | 'completion';
export type Theme = 'light' | 'dark';
export type { ModeShades };

export interface ModeStyle {
  readonly light: ModeShades;
  readonly dark: ModeShades;
  /** SVG stroke-dasharray of the mode's line ('' = solid), so lines differ without colour too. */
  readonly dash: string;
}

export const MODE_PALETTE: Readonly<Record<ModeId, ModeStyle>> = Object.fromEntries(
  COLUMN_MODE_IDS.map((m) => [m, { light: MODES[m].colour.light, dark: MODES[m].colour.dark, dash: MODES[m].dash }]),
) as Record<ModeId, ModeStyle>;

/**
 * The theme-aware colour of a column's slot (a mode, or a shade of it: shared/column-shades.ts), as a CSS value
 * for a style or an SVG fill; a mode this build does not know is drawn in the faint text colour.
 */
export const modeColor = (slot: ColumnSlot, kind: TokenKind = 'prompt') =>
  slotMode(slot) ? `var(--mode-${slot}${kind === 'completion' ? '-2' : ''})` : 'var(--text-faint)';

/** The theme-aware fill of a prompt part (shared/prompt-composition.ts) in the composition chart. */
export const partColor = (part: PromptPart) => `var(--part-${part})`;

/** A slot's line pattern: its mode's (the shades of a mode share its dash, as they share its hue). */
export const modeDash = (slot: ColumnSlot): string | undefined => {
  const mode = slotMode(slot);
  return (mode && MODE_PALETTE[mode].dash) || undefined;
};

/** Every slot the palette defines: each mode's own colours, then its shades. */
const ALL_SLOTS: readonly ColumnSlot[] = COLUMN_MODE_IDS.flatMap((m) =>
  Array.from({ length: MAX_SHADES + 1 }, (_, k) => slotOf(m, k)),
);

/**
 * The stylesheet of the palette: the variables of both themes, and a `.mode-<id>` class that sets
 * --mode / --mode-2 so any element (swatch, column head) can take its mode's colour without a rule per mode.
 */
export function modePaletteCss(): string {
  const entries = ALL_SLOTS.map((slot) => [slot, slotColours(slot)!] as const);
  const parts = PROMPT_PARTS.map((p) => [p, PROMPT_PART_INFO[p].colour] as const);
  const vars = (theme: Theme) =>
    [
      ...entries.map(([m, s]) => `--mode-${m}: ${s[theme].prompt}; --mode-${m}-2: ${s[theme].completion};`),
      ...parts.map(([p, c]) => `--part-${p}: ${c[theme]};`),
    ].join(' ');
  const classes = entries
    .map(([m]) => `.mode-${m} { --mode: var(--mode-${m}); --mode-2: var(--mode-${m}-2); }`)
    .join('\n');
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
