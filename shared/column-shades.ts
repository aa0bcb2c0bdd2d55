/**
 * Column colours: every column is drawn in a shade of its OWN mode's colour, so a colour keeps its meaning from
 * one comparison to the next (orange is always Code Mode). A mode's first column (its plain one when it has one)
 * takes the mode's own colours (shared/modes.ts); its further columns take shades 1, 2, … — the same hue made
 * darker or lighter, picked once per mode and shade index, never from which other columns a comparison ran.
 *
 * A slot names mode and shade: `code` is shade 0, `code_2` shade 2 (kebab-case mode ids never hold `_`, and the
 * slot is a valid CSS identifier for `--mode-<slot>` and `.mode-<slot>`). Shades move the OKLab lightness of the
 * mode's prompt and completion colours together (so the pair stays apart), within a band where the prompt shade
 * keeps at least 3:1 contrast (WCAG 1.4.11) against the chart card of its theme and the report's white page.
 * Lightness differences are what every kind of colour vision still sees.
 */
import { SHADE_TABLE } from './column-shade-table.js';
import { MODE_IDS, MODES, isModeId, type ModeId, type ModeShades } from './modes.js';

/** A column's palette slot: a mode's own colours (`code`) or one of its shades (`code_1`). */
export type ColumnSlot = ModeId | `${ModeId}_${number}`;

/** Shades per mode beyond the mode's own colours: one per further column (a comparison has at most 12). */
export const MAX_SHADES = 11;

/**
 * The backgrounds the prompt shades are drawn on: light = the light theme's card and the report page (white),
 * dark = the dark theme's card (renderer/styles/base.css --bg-raised; its palette test checks they agree).
 */
export const SHADE_BACKGROUNDS = { light: '#ffffff', dark: '#22252c' } as const;

export const slotOf = (mode: ModeId, shade: number): ColumnSlot => (shade === 0 ? mode : `${mode}_${shade}`);

/** The mode and shade of a slot; a plain mode id (or an unknown stored mode) is shade 0. */
export function parseSlot(slot: string): { readonly mode: string; readonly shade: number } {
  const m = /^(.+)_(\d+)$/.exec(slot);
  return m ? { mode: m[1]!, shade: Number(m[2]) } : { mode: slot, shade: 0 };
}

type Vec = [number, number, number];

const toLinear = (v: number) => (v <= 0.04045 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4);
const fromLinear = (v: number) => (v <= 0.0031308 ? 12.92 * v : 1.055 * v ** (1 / 2.4) - 0.055);

function hexToLinear(hex: string): Vec {
  const n = parseInt(hex.slice(1), 16);
  return [toLinear(((n >> 16) & 255) / 255), toLinear(((n >> 8) & 255) / 255), toLinear((n & 255) / 255)];
}

function linearToHex(rgb: Vec): string {
  return `#${rgb
    .map((v) =>
      Math.round(Math.min(1, Math.max(0, fromLinear(v))) * 255)
        .toString(16)
        .padStart(2, '0'),
    )
    .join('')
    .toUpperCase()}`;
}

// OKLab (Björn Ottosson, 2020): a perceptual space where moving L alone keeps the hue.
function toOklab([r, g, b]: Vec): Vec {
  const l = Math.cbrt(0.4122214708 * r + 0.5363325363 * g + 0.0514459929 * b);
  const m = Math.cbrt(0.2119034982 * r + 0.6806995451 * g + 0.1073969566 * b);
  const s = Math.cbrt(0.0883024619 * r + 0.2817188376 * g + 0.6299787005 * b);
  return [
    0.2104542553 * l + 0.793617785 * m - 0.0040720468 * s,
    1.9779984951 * l - 2.428592205 * m + 0.4505937099 * s,
    0.0259040371 * l + 0.7827717662 * m - 0.808675766 * s,
  ];
}

function fromOklab([L, a, b]: Vec): Vec {
  const l = (L + 0.3963377774 * a + 0.2158037573 * b) ** 3;
  const m = (L - 0.1055613458 * a - 0.0638541728 * b) ** 3;
  const s = (L - 0.0894841775 * a - 1.291485548 * b) ** 3;
  return [
    4.0767416621 * l - 3.3077115913 * m + 0.2309699292 * s,
    -1.2684380046 * l + 2.6097574011 * m - 0.3413193965 * s,
    -0.0041960863 * l - 0.7034186147 * m + 1.707614701 * s,
  ];
}

/** The colour at OKLab lightness L with the hue of `lab`, its chroma reduced (bisected) until it fits in sRGB. */
function atLightness(lab: Vec, L: number): string {
  const fits = (k: number) => fromOklab([L, lab[1] * k, lab[2] * k]).every((v) => v >= -1e-4 && v <= 1 + 1e-4);
  if (fits(1)) return linearToHex(fromOklab([L, lab[1], lab[2]]));
  let [lo, hi] = [0, 1];
  for (let i = 0; i < 12; i++) {
    const mid = (lo + hi) / 2;
    if (fits(mid)) lo = mid;
    else hi = mid;
  }
  return linearToHex(fromOklab([L, lab[1] * lo, lab[2] * lo]));
}

const shiftedCache = new Map<string, string>();

/** `hex` with its OKLab lightness moved by `d` (a multiple of the grid step, so results repeat and are kept). */
function shifted(hex: string, d: number): string {
  const key = `${hex}${d.toFixed(2)}`;
  let out = shiftedCache.get(key);
  if (out === undefined) {
    const lab = toOklab(hexToLinear(hex));
    shiftedCache.set(key, (out = atLightness(lab, lab[0] + d)));
  }
  return out;
}

const lightness = (hex: string) => toOklab(hexToLinear(hex))[0];

const luminance = (hex: string) => {
  const [r, g, b] = hexToLinear(hex);
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
};

/** WCAG 2 contrast ratio of two #rrggbb colours. */
export function contrast(a: string, b: string): number {
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x) as [number, number];
  return (hi + 0.05) / (lo + 0.05);
}

// Colour-vision simulation (Machado, Oliveira & Fernandes 2009, severity 1, in linear sRGB): a shade must stay
// apart from the other modes' colours for protan, deutan and tritan readers too, not only in full colour.
const VISIONS: readonly (readonly Vec[])[] = [
  [
    [1, 0, 0],
    [0, 1, 0],
    [0, 0, 1],
  ],
  [
    [0.152286, 1.052583, -0.204868],
    [0.114503, 0.786281, 0.099216],
    [-0.003882, -0.048116, 1.051998],
  ],
  [
    [0.367322, 0.860646, -0.227968],
    [0.280085, 0.672501, 0.047413],
    [-0.01182, 0.04294, 0.968881],
  ],
  [
    [1.255528, -0.076749, -0.178779],
    [-0.078411, 0.930809, 0.147602],
    [0.004733, 0.691367, 0.3039],
  ],
];

/** The least OKLab distance (×100) between two colours over the four kinds of colour vision. */
function seenApart(a: string, b: string): number {
  const [la, lb] = [hexToLinear(a), hexToLinear(b)];
  const sim = (m: readonly Vec[], v: Vec): Vec =>
    m.map((r) => Math.min(1, Math.max(0, r[0]! * v[0] + r[1]! * v[1] + r[2]! * v[2]))) as Vec;
  return Math.min(
    ...VISIONS.map((m) => {
      const [p, q] = [toOklab(sim(m, la)), toOklab(sim(m, lb))];
      return 100 * Math.hypot(p[0] - q[0], p[1] - q[1], p[2] - q[2]);
    }),
  );
}

/** How far a shade may move from the mode's own lightness; the grid the shifts are picked on. */
const MAX_SHIFT = 0.28;
const GRID = 0.01;
const MIN_CONTRAST = 3.15; // 3:1 with room for rounding to #rrggbb
/** Least distance (seenApart) between a shade's prompt and completion colours. */
const APART_PAIR = 9;
/** How much distance from the other modes' colours counts against distance from the mode's own shades. */
const MODE_WEIGHT = 1.5;

/**
 * The shade at lightness shift `shift`: the prompt colour moved by it, the completion colour by as much of it as
 * keeps the tint visible on its card (about the modes' own pale tints, 1.3:1 at least) and short of white.
 */
function shadeOf(base: ModeShades, shift: number, theme: 'light' | 'dark'): ModeShades {
  const cL = lightness(base.completion);
  let d = shift;
  const visible = (x: number) =>
    cL + x <= 0.96 && cL + x >= 0.25 && contrast(shifted(base.completion, x), SHADE_BACKGROUNDS[theme]) >= 1.3;
  while (Math.abs(d) > 1e-9 && !visible(d))
    d = Math.sign(d) * Math.max(0, Math.round((Math.abs(d) - GRID) * 100) / 100);
  return { prompt: shifted(base.prompt, shift), completion: shifted(base.completion, d) };
}

/**
 * The lightness shifts of a mode's shades in one theme. A shift is allowed when its prompt shade keeps 3:1 on
 * the card, stays short of black and white, and stays apart from its own completion shade and from every other
 * mode's own colour for every kind of colour vision; shade k takes the allowed shift farthest from the mode's
 * own colour and every earlier shade, so the first shades differ most.
 */
const shiftCache = new Map<string, number[]>();

function shifts(mode: ModeId, theme: 'light' | 'dark'): number[] {
  const key = `${mode} ${theme}`;
  const hit = shiftCache.get(key);
  if (hit) return hit;
  const base = MODES[mode].colour[theme];
  const L = lightness(base.prompt);
  // Pushed away from Parallax's own modes only, so a column kind added later (the agent column) leaves their shades as they were.
  const others = MODE_IDS.filter((m) => m !== mode).map((m) => MODES[m].colour[theme].prompt);
  const ok = (d: number) => {
    const s = shadeOf(base, d, theme);
    return (
      L + d >= 0.3 &&
      L + d <= 0.93 &&
      contrast(s.prompt, SHADE_BACKGROUNDS[theme]) >= MIN_CONTRAST &&
      seenApart(s.prompt, s.completion) >= APART_PAIR
    );
  };
  const candidates: number[] = [];
  const fromModes = new Map<number, number>();
  for (let i = -Math.round(MAX_SHIFT / GRID); i <= Math.round(MAX_SHIFT / GRID); i++) {
    const d = Math.round(i * GRID * 100) / 100;
    if (i === 0 || !ok(d)) continue;
    candidates.push(d);
    fromModes.set(d, Math.min(...others.map((o) => seenApart(shifted(base.prompt, d), o))));
  }
  const chosen = [0];
  const out: number[] = [];
  while (out.length < MAX_SHADES && candidates.length > 0) {
    let best = candidates[0]!;
    let bestGap = -1;
    for (const d of candidates) {
      // Apart from the mode's own colour and earlier shades (lightness, ×100 ≈ ΔE), and from the other modes.
      const gap = Math.min(100 * Math.min(...chosen.map((c) => Math.abs(c - d))), fromModes.get(d)! * MODE_WEIGHT);
      if (gap > bestGap + 1e-9) [best, bestGap] = [d, gap];
    }
    out.push(best);
    chosen.push(best);
    candidates.splice(candidates.indexOf(best), 1);
  }
  shiftCache.set(key, out);
  return out;
}

export interface SlotColours {
  readonly light: ModeShades;
  readonly dark: ModeShades;
}

/**
 * A slot's colours computed from the mode's (the table in column-shade-table.ts holds the result: computing
 * all of them takes tens of milliseconds, too long for the app's first paint; its test checks the two agree).
 */
export function computeSlotColours(mode: ModeId, shade: number): SlotColours {
  const own = MODES[mode].colour;
  if (shade === 0) return own;
  const k = (shade - 1) % MAX_SHADES;
  const light = shifts(mode, 'light');
  const dark = shifts(mode, 'dark');
  return {
    light: shadeOf(own.light, light[k % light.length] ?? 0, 'light'),
    dark: shadeOf(own.dark, dark[k % dark.length] ?? 0, 'dark'),
  };
}

/**
 * A slot's colours in both themes: the mode's own for shade 0, else its shade; null for a mode this build does
 * not know (a stored comparison from a newer Parallax). Past the last shade, shades repeat.
 */
export function slotColours(slot: string): SlotColours | null {
  const { mode, shade } = parseSlot(slot);
  if (!isModeId(mode)) return null;
  if (shade === 0) return MODES[mode].colour;
  const row = SHADE_TABLE[mode][(shade - 1) % MAX_SHADES];
  return row
    ? { light: { prompt: row[0], completion: row[1] }, dark: { prompt: row[2], completion: row[3] } }
    : computeSlotColours(mode, shade);
}

/** A slot's mode, when this build knows it. */
export function slotMode(slot: string): ModeId | null {
  const { mode } = parseSlot(slot);
  return isModeId(mode) ? mode : null;
}
