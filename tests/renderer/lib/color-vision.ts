/**
 * Test helper: how far apart two colours look, with normal vision and with the three dichromacies.
 * Simulation: Machado, Oliveira & Fernandes (2009), severity 1, applied in linear sRGB. Distance: CIEDE2000
 * in CIELAB (D65). A ΔE00 around 2 is just noticeable; 10 or more reads as a different colour at a glance.
 */
export type Vision = 'normal' | 'protan' | 'deutan' | 'tritan';
type Mat = readonly [
  readonly [number, number, number],
  readonly [number, number, number],
  readonly [number, number, number],
];

const MATRICES: Record<Vision, Mat> = {
  normal: [
    [1, 0, 0],
    [0, 1, 0],
    [0, 0, 1],
  ],
  protan: [
    [0.152286, 1.052583, -0.204868],
    [0.114503, 0.786281, 0.099216],
    [-0.003882, -0.048116, 1.051998],
  ],
  deutan: [
    [0.367322, 0.860646, -0.227968],
    [0.280085, 0.672501, 0.047413],
    [-0.01182, 0.04294, 0.968881],
  ],
  tritan: [
    [1.255528, -0.076749, -0.178779],
    [-0.078411, 0.930809, 0.147602],
    [0.004733, 0.691367, 0.3039],
  ],
};
export const VISIONS = Object.keys(MATRICES) as Vision[];

type Rgb = readonly [number, number, number];

function linear(hex: string): Rgb {
  const m = /^#([0-9a-f]{6})$/i.exec(hex);
  if (!m) throw new Error(`Not a #rrggbb colour: ${hex}`);
  const n = parseInt(m[1]!, 16);
  const ch = (v: number) => (v <= 0.04045 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4);
  return [ch(((n >> 16) & 255) / 255), ch(((n >> 8) & 255) / 255), ch((n & 255) / 255)];
}

function simulate(rgb: Rgb, vision: Vision): Rgb {
  const clamp = (v: number) => Math.min(1, Math.max(0, v));
  return MATRICES[vision].map((r) => clamp(r[0] * rgb[0] + r[1] * rgb[1] + r[2] * rgb[2])) as unknown as Rgb;
}

function lab([r, g, b]: Rgb): Rgb {
  const f = (t: number) => (t > 216 / 24389 ? Math.cbrt(t) : ((24389 / 27) * t + 16) / 116);
  const x = f((0.4124 * r + 0.3576 * g + 0.1805 * b) / 0.95047);
  const y = f(0.2126 * r + 0.7152 * g + 0.0722 * b);
  const z = f((0.0193 * r + 0.1192 * g + 0.9505 * b) / 1.08883);
  return [116 * y - 16, 500 * (x - y), 200 * (y - z)];
}

/** CIEDE2000 colour difference (Sharma, Wu & Dalal 2005). */
export function deltaE00(p: Rgb, q: Rgb): number {
  const [l1, a1, b1] = p;
  const [l2, a2, b2] = q;
  const rad = Math.PI / 180;
  const cBar = (Math.hypot(a1, b1) + Math.hypot(a2, b2)) / 2;
  const g = 0.5 * (1 - Math.sqrt(cBar ** 7 / (cBar ** 7 + 25 ** 7)));
  const ap1 = (1 + g) * a1;
  const ap2 = (1 + g) * a2;
  const c1 = Math.hypot(ap1, b1);
  const c2 = Math.hypot(ap2, b2);
  const hue = (x: number, y: number) => (x === 0 && y === 0 ? 0 : (Math.atan2(y, x) / rad + 360) % 360);
  const h1 = hue(ap1, b1);
  const h2 = hue(ap2, b2);
  let dh = 0;
  if (c1 * c2 !== 0) dh = h2 - h1 > 180 ? h2 - h1 - 360 : h2 - h1 < -180 ? h2 - h1 + 360 : h2 - h1;
  const dH = 2 * Math.sqrt(c1 * c2) * Math.sin((dh * rad) / 2);
  const lBar = (l1 + l2) / 2;
  const cpBar = (c1 + c2) / 2;
  let hBar = h1 + h2;
  if (c1 * c2 !== 0) hBar = Math.abs(h1 - h2) > 180 ? (hBar < 360 ? hBar + 360 : hBar - 360) / 2 : hBar / 2;
  const t =
    1 -
    0.17 * Math.cos((hBar - 30) * rad) +
    0.24 * Math.cos(2 * hBar * rad) +
    0.32 * Math.cos((3 * hBar + 6) * rad) -
    0.2 * Math.cos((4 * hBar - 63) * rad);
  const rc = 2 * Math.sqrt(cpBar ** 7 / (cpBar ** 7 + 25 ** 7));
  const rt = -Math.sin(2 * 30 * Math.exp(-(((hBar - 275) / 25) ** 2)) * rad) * rc;
  const sl = 1 + (0.015 * (lBar - 50) ** 2) / Math.sqrt(20 + (lBar - 50) ** 2);
  const sc = 1 + 0.045 * cpBar;
  const sh = 1 + 0.015 * cpBar * t;
  const dl = (l2 - l1) / sl;
  const dc = (c2 - c1) / sc;
  const dhh = dH / sh;
  return Math.sqrt(dl ** 2 + dc ** 2 + dhh ** 2 + rt * dc * dhh);
}

/** ΔE00 between two #rrggbb colours as someone with `vision` sees them. */
export function colorDistance(a: string, b: string, vision: Vision = 'normal'): number {
  return deltaE00(lab(simulate(linear(a), vision)), lab(simulate(linear(b), vision)));
}

/** WCAG contrast ratio of two #rrggbb colours (1 to 21). */
export function contrastRatio(a: string, b: string): number {
  const y = (hex: string) => {
    const [r, g, bl] = linear(hex);
    return 0.2126 * r + 0.7152 * g + 0.0722 * bl + 0.05;
  };
  return Math.max(y(a), y(b)) / Math.min(y(a), y(b));
}
