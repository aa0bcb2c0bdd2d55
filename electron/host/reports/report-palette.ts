/**
 * Each mode's look in the reports, from the one palette in shared/modes.ts (the app's light theme uses the
 * same shades), keyed by mode so a mode keeps its colour whichever modes a comparison ran: its light prompt
 * shade, its completion shade as the tint of its completion bars, and a dash and a marker shape so lines stay
 * apart when printed in grey.
 */
import { slotColours, slotMode, type ColumnSlot } from '../../../shared/column-shades.js';
import {
  COLUMN_MODE_IDS,
  MODE_IDS,
  MODES,
  type Marker,
  type ModeDescription,
  type ModeId,
} from '../../../shared/modes.js';
import { html, type SafeHtml } from './html-escape.js';

export type { Marker };

export interface ReportModeStyle {
  readonly color: string;
  /** Completion bars: a tint of `color`, outlined in `color`. */
  readonly tint: string;
  /** SVG stroke-dasharray ('' = solid). */
  readonly dash: string;
  readonly marker: Marker;
}

export const REPORT_MODE_STYLES: Readonly<Record<ModeId, ReportModeStyle>> = Object.fromEntries(
  COLUMN_MODE_IDS.map((m) => [
    m,
    {
      color: MODES[m].colour.light.prompt,
      tint: MODES[m].colour.light.completion,
      dash: MODES[m].dash,
      marker: MODES[m].marker,
    },
  ]),
) as Record<ModeId, ReportModeStyle>;

const FALLBACK: ReportModeStyle = { color: '#57606A', tint: '#C9CED4', dash: '1 2', marker: 'circle' };

const shadeStyles = new Map<string, ReportModeStyle>();

/**
 * The look of a column's slot: its mode's, in the slot's shade (shared/column-shades.ts) when the mode has
 * several columns. A stored comparison from a newer Parallax may name a mode this build does not know: grey.
 */
export function modeStyle(slot: ColumnSlot | string): ReportModeStyle {
  const own = (REPORT_MODE_STYLES as Record<string, ReportModeStyle | undefined>)[slot];
  if (own) return own;
  const mode = slotMode(slot);
  const colours = slotColours(slot);
  if (!mode || !colours) return FALLBACK;
  let style = shadeStyles.get(slot);
  if (!style)
    shadeStyles.set(
      slot,
      (style = { ...REPORT_MODE_STYLES[mode], color: colours.light.prompt, tint: colours.light.completion }),
    );
  return style;
}

/**
 * The modes every report has carried a swatch rule for since reports began (shared/modes.ts inEveryReport). A
 * mode added later gets its rule only in reports that show it, so a report of an earlier comparison stays the
 * same byte for byte.
 */
const FIRST_MODES: readonly string[] = MODE_IDS.filter((m) => (MODES[m] as ModeDescription).inEveryReport === true);

export function reportPaletteCss(modes: readonly string[] = []): string {
  const rules = Object.entries(REPORT_MODE_STYLES)
    .filter(([m]) => FIRST_MODES.includes(m) || modes.includes(m))
    .map(([m, s]) => `.swatch.mode-${m} { background: ${s.color}; }`);
  // A mode's shades (its second and later columns) get rules only in the reports that show them.
  for (const slot of modes)
    if (!(slot in REPORT_MODE_STYLES) && slotMode(slot))
      rules.push(`.swatch.mode-${slot} { background: ${modeStyle(slot).color}; }`);
  return `.swatch { display: inline-block; width: 10px; height: 10px; border-radius: 2px; margin-right: 6px; background: ${FALLBACK.color};
  vertical-align: 0; -webkit-print-color-adjust: exact; print-color-adjust: exact; }\n${rules.join('\n')}\n`;
}

/** A small square in the column's colour (its slot), before a column's name in tables and headings. */
export function modeSwatch(mode: ColumnSlot): SafeHtml {
  return html`<span class="swatch mode-${mode}" aria-hidden="true"></span>`;
}
