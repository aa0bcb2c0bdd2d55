/**
 * Charts for the HTML report as inline SVG, generated directly. Recharts is the app's chart library, but
 * rendered on the server (react-dom/server) it emits an empty wrapper: it lays charts out in client
 * effects. Direct SVG is deterministic, needs no script, prints crisply, and every mark carries its exact
 * value (a <title> tooltip and data-* attributes), with a <title>/<desc> pair for screen readers.
 * Charts of different modes share one scale, so bar heights can be compared across modes by eye. Every
 * mark takes its mode's colour (report-palette.ts), so a mode looks the same in every chart.
 */
import type { ColumnSlot } from '../../../shared/column-shades.js';
import { MARKERS, type MarkerShape } from '../../../shared/modes.js';
import { formatInt } from './report-text.js';
import { ONE_TRIAL_NOTE, type Stat } from '../../../shared/summary.js';
import { html, raw, type SafeHtml } from './html-escape.js';
import { modeStyle, type Marker } from './report-palette.js';

/** Axis maximum and tick step: the smallest 1/2/2.5/5 × 10^k step giving at most `maxTicks` intervals. */
export function niceScale(max: number, maxTicks = 5): { max: number; step: number } {
  if (!(max > 0)) return { max: 1, step: 1 };
  const rough = max / maxTicks;
  const pow = 10 ** Math.floor(Math.log10(rough));
  const step = [1, 2, 2.5, 5, 10].map((m) => m * pow).find((s) => s >= rough) ?? 10 * pow;
  const niceStep = step < 1 ? 1 : step;
  return { max: Math.ceil(max / niceStep) * niceStep, step: niceStep };
}

/** Coordinates are written with one decimal at most, so the markup is stable and short. */
export function n(v: number): string {
  return String(Math.round(v * 10) / 10);
}

export const W = 540;
export const RIGHT = 16;
export const BOTTOM = 40;

/** Left margin wide enough for the longest tick label plus the rotated axis title. */
export function leftFor(scale: { max: number }): number {
  return 30 + formatInt(scale.max).length * 6.5;
}

/** Which steps get an x label: every 1, 2, 5, 10, 20, 25, 50… so that at most ~20 are written. */
function labelEvery(count: number): number {
  const rough = count / 20;
  if (rough <= 1) return 1;
  const pow = 10 ** Math.floor(Math.log10(rough));
  return [1, 2, 2.5, 5, 10].map((m) => m * pow).find((s) => s >= rough && Number.isInteger(s)) ?? 10 * pow;
}

export function yAxis(
  scale: { max: number; step: number },
  left: number,
  top: number,
  plotH: number,
  plotW: number,
): SafeHtml {
  const ticks: SafeHtml[] = [];
  for (let v = 0; v <= scale.max + 1e-9; v += scale.step) {
    const y = top + plotH - (v / scale.max) * plotH;
    ticks.push(
      html`<line class="grid" x1="${left}" x2="${n(left + plotW)}" y1="${n(y)}" y2="${n(y)}"/><text class="tick" x="${left - 6}" y="${n(y + 3.5)}" text-anchor="end">${formatInt(v)}</text>`,
    );
  }
  const midY = top + plotH / 2;
  return html`${ticks}<line class="axis" x1="${left}" x2="${left}" y1="${top}" y2="${n(top + plotH)}"/><text class="axis-title" transform="translate(14 ${n(midY)}) rotate(-90)" text-anchor="middle">tokens</text>`;
}

export function xLabels(
  count: number,
  left: number,
  top: number,
  plotH: number,
  plotW: number,
  at: (i: number) => number,
  label: (i: number) => string,
): SafeHtml {
  const every = labelEvery(count);
  const out: SafeHtml[] = [];
  for (let i = 0; i < count; i++) {
    // Only round steps (5, 10, …) once labels are thinned, so none crowd each other.
    if ((i + 1) % every !== 0) continue;
    out.push(
      html`<text class="tick" x="${n(at(i))}" y="${n(top + plotH + 14)}" text-anchor="middle">${label(i)}</text>`,
    );
  }
  return html`<line class="axis" x1="${left}" x2="${n(left + plotW)}" y1="${n(top + plotH)}" y2="${n(top + plotH)}"/>${out}<text class="axis-title" x="${n(left + plotW / 2)}" y="${n(top + plotH + 32)}" text-anchor="middle">step</text>`;
}

export function svgOpen(id: string, height: number, title: string, desc: string): SafeHtml {
  return html`<svg class="chart" id="${id}" viewBox="0 0 ${W} ${height}" width="${W}" height="${height}" role="img" aria-labelledby="${id}-t ${id}-d" xmlns="http://www.w3.org/2000/svg"><title id="${id}-t">${title}</title><desc id="${id}-d">${desc}</desc>`;
}

export interface StepBar {
  readonly step: number;
  readonly prompt: number;
  readonly completion: number;
}

export interface StepBarsOptions {
  readonly id: string;
  readonly title: string;
  /** Shared across the modes' charts so they are drawn to one scale. */
  readonly yMax: number;
  /** Shared slot count (the most steps of any run) so bars have one width across the modes. */
  readonly slots: number;
  readonly mode: ColumnSlot;
  /** The run's name, written in the legend so a chart names its mode without its caption. */
  readonly label: string;
}

/** One chart per run: a prompt bar and a completion bar for every step, each labelled with its value. */
export function stepBarsSvg(steps: readonly StepBar[], o: StepBarsOptions): SafeHtml {
  const slots = Math.max(o.slots, steps.length, 1);
  const scale = niceScale(o.yMax);
  const left = leftFor(scale);
  const plotW = W - left - RIGHT;
  const slotW = plotW / slots;
  const barW = Math.min(40, slotW * 0.38);
  const widest = Math.max(0, ...steps.map((s) => formatInt(Math.max(s.prompt, s.completion)).length)) * 6;
  // Labels go horizontally when they fit over a bar, vertically when they do not, and are left to the
  // tooltip and the step table when even that would be a smear.
  const labels: 'h' | 'v' | 'none' = widest <= barW + slotW * 0.2 ? 'h' : barW >= 9 ? 'v' : 'none';
  const top = labels === 'v' ? 28 + widest : 40;
  const plotH = 200;
  const height = top + plotH + BOTTOM;
  const desc = steps.length
    ? steps
        .map((s) => `step ${s.step}: prompt ${formatInt(s.prompt)}, completion ${formatInt(s.completion)}`)
        .join('; ')
    : 'no model response was stored';
  const style = modeStyle(o.mode);
  // Completion bars: the tint, outlined in the mode's colour, so they read apart from prompt bars in grey too.
  const paint = {
    prompt: raw(`fill="${style.color}"`),
    completion: raw(`fill="${style.tint}" stroke="${style.color}" stroke-width="1"`),
  };
  const bars: SafeHtml[] = [];
  steps.forEach((s, i) => {
    const cx = left + slotW * (i + 0.5);
    for (const [kind, value, x] of [
      ['prompt', s.prompt, cx - barW - 1],
      ['completion', s.completion, cx + 1],
    ] as const) {
      const h = (value / scale.max) * plotH;
      const y = top + plotH - h;
      const lx = x + barW / 2;
      const label =
        labels === 'h'
          ? html`<text class="value" x="${n(lx)}" y="${n(y - 3)}" text-anchor="middle">${formatInt(value)}</text>`
          : labels === 'v'
            ? html`<text class="value" transform="translate(${n(lx + 3.5)} ${n(y - 3)}) rotate(-90)">${formatInt(value)}</text>`
            : null;
      bars.push(
        html`<rect class="bar" x="${n(x)}" y="${n(y)}" width="${n(barW)}" height="${n(h)}" ${paint[kind]} data-mode="${o.mode}" data-step="${s.step}" data-kind="${kind}" data-value="${value}"><title>step ${s.step} ${kind}: ${formatInt(value)} tokens</title></rect>${label}`,
      );
    }
  });
  const nameW = Math.round(o.label.length * 7.2) + 14;
  const legend = html`<g class="legend" transform="translate(${left} 12)"><text class="name" x="0" y="10">${o.label}</text><g transform="translate(${nameW} 0)"><rect width="12" height="12" ${paint.prompt}/><text x="17" y="10">prompt</text><rect x="80.5" y="0.5" width="11" height="11" ${paint.completion}/><text x="97" y="10">completion</text></g></g>`;
  const empty = steps.length
    ? null
    : html`<text class="empty" x="${n(left + plotW / 2)}" y="${n(top + plotH / 2)}" text-anchor="middle">no model response was stored</text>`;
  return html`${svgOpen(o.id, height, o.title, desc)}${legend}${yAxis(scale, left, top, plotH, plotW)}${bars}${empty}${xLabels(
    slots,
    left,
    top,
    plotH,
    plotW,
    (i) => left + slotW * (i + 0.5),
    (i) => String(steps[i]?.step ?? i + 1),
  )}</svg>`;
}

export interface CumulativeSeries {
  readonly label: string;
  /** Its colour, dash and marker (its column's palette slot); runs of one column over several trials share them. */
  readonly mode: ColumnSlot;
  /** Running total after each step, in step order. */
  readonly points: readonly { readonly step: number; readonly value: number }[];
}

/** A point's marker: each mode its own shape (shared/modes.ts MARKERS), so points tell modes apart without colour. */
function marker(
  shape: Marker,
  x: number,
  y: number,
  r: number,
  attrs: SafeHtml,
  tip: SafeHtml | null,
  cls = 'point',
): SafeHtml {
  const outline: MarkerShape = MARKERS[shape];
  switch (outline.kind) {
    case 'circle':
      return html`<circle class="${cls}" cx="${n(x)}" cy="${n(y)}" r="${r}" ${attrs}>${tip}</circle>`;
    case 'square':
      return html`<rect class="${cls}" x="${n(x - r)}" y="${n(y - r)}" width="${2 * r}" height="${2 * r}" ${attrs}>${tip}</rect>`;
    case 'polygon':
      return html`<polygon class="${cls}" points="${outline
        .vertices(r)
        .map(([dx, dy]) => `${n(x + dx)},${n(y + dy)}`)
        .join(' ')}" ${attrs}>${tip}</polygon>`;
  }
}

/**
 * Cumulative tokens over steps, one line per run, on one chart. `legend` (several trials) gives one entry per
 * mode instead of one per run, and leaves out the end labels, which would pile on one another.
 */
export function cumulativeSvg(
  series: readonly CumulativeSeries[],
  o: { id: string; title: string; legend?: readonly { mode: ColumnSlot; label: string }[] },
): SafeHtml {
  const slots = Math.max(1, ...series.map((s) => s.points.length));
  const scale = niceScale(Math.max(0, ...series.flatMap((s) => s.points.map((p) => p.value))));
  const left = leftFor(scale);
  const plotW = W - left - RIGHT - 56;
  const grouped = o.legend !== undefined;
  const legendItems = o.legend ?? series.map((s) => ({ mode: s.mode, label: s.label }));
  const top = 28 + 16 * Math.ceil(legendItems.length / 2);
  const plotH = 220;
  const height = top + plotH + BOTTOM;
  // Markers stay readable up to a few dozen steps; beyond that the line carries the shape.
  const r = slots > 30 ? 1.5 : 3.5;
  const xAt = (i: number) => (slots === 1 ? left + plotW / 2 : left + (plotW * i) / (slots - 1));
  const yAt = (v: number) => top + plotH - (v / scale.max) * plotH;
  const lines = series.map((s, si) => {
    const { color, dash, marker: shape } = modeStyle(s.mode);
    const pts = s.points.map((p, i) => `${n(xAt(i))},${n(yAt(p.value))}`).join(' ');
    const marks = s.points.map((p, i) => {
      const x = xAt(i),
        y = yAt(p.value);
      const tip = html`<title>${s.label}, after step ${p.step}: ${formatInt(p.value)} tokens</title>`;
      const attrs = html`data-series="${si}" data-mode="${s.mode}" data-step="${p.step}" data-value="${p.value}" fill="${color}"`;
      return marker(shape, x, y, r, attrs, tip);
    });
    const last = s.points[s.points.length - 1];
    // Several trials' end labels would pile on one another; their totals are in the runs table.
    const end =
      last && !grouped
        ? html`<text class="value end" x="${n(xAt(s.points.length - 1) + 6)}" y="${n(yAt(last.value) + 3.5)}" fill="${color}">${formatInt(last.value)}</text>`
        : null;
    const line =
      s.points.length > 1
        ? html`<polyline fill="none" stroke="${color}" stroke-width="2" stroke-dasharray="${dash || 'none'}" points="${pts}"/>`
        : null;
    return html`${line}${marks}${end}`;
  });
  const legend = legendItems.map(({ mode, label }, li) => {
    const x = left + (li % 2) * 240;
    const y = 12 + 16 * Math.floor(li / 2);
    const { color, dash, marker: shape } = modeStyle(mode);
    return html`<g class="legend" transform="translate(${x} ${y})"><line x1="0" x2="26" y1="6" y2="6" stroke="${color}" stroke-width="2" stroke-dasharray="${dash || 'none'}"/>${marker(shape, 13, 6, 3, html`fill="${color}"`, null, 'key')}<text x="32" y="10">${label}</text></g>`;
  });
  const desc = series
    .map(
      (s) =>
        `${s.label}: ${s.points.map((p) => `after step ${p.step} ${formatInt(p.value)}`).join(', ') || 'no steps'}`,
    )
    .join('; ');
  return html`${svgOpen(o.id, height, o.title, desc)}${legend}${yAxis(scale, left, top, plotH, plotW)}${lines}${xLabels(slots, left, top, plotH, plotW, xAt, (i) => String(i + 1))}</svg>`;
}

/** Horizontal bars, one per run: used for the first-request size. */
export function hbarsSvg(
  items: readonly { label: string; value: number | null; mode: ColumnSlot }[],
  o: { id: string; title: string; unit: string },
): SafeHtml {
  const rowH = 26;
  // Wide enough for "Code Mode · trial 10"; labels that fit the old margin keep it (and their exact output).
  const left = Math.max(110, 16 + Math.max(0, ...items.map((it) => it.label.length)) * 6);
  const plotW = W - left - 90;
  const height = items.length * rowH + 12;
  const max = Math.max(1, ...items.map((i) => i.value ?? 0));
  const rows = items.map((it, i) => {
    const y = 6 + i * rowH;
    const w = ((it.value ?? 0) / max) * plotW;
    const text = it.value === null ? 'not recorded' : `${formatInt(it.value)} ${o.unit}`;
    return html`<text class="tick" x="${left - 8}" y="${y + 15}" text-anchor="end">${it.label}</text><rect class="bar" x="${left}" y="${y + 3}" width="${n(w)}" height="16" fill="${modeStyle(it.mode).color}" data-mode="${it.mode}" data-value="${it.value ?? ''}"><title>${it.label}: ${text}</title></rect><text class="value" x="${n(left + w + 6)}" y="${y + 15}">${text}</text>`;
  });
  const desc = items.map((it) => `${it.label}: ${it.value === null ? 'not recorded' : formatInt(it.value)}`).join('; ');
  return html`${svgOpen(o.id, height, o.title, desc)}${rows}</svg>`;
}

export interface MeanBar {
  readonly label: string;
  readonly mode: ColumnSlot;
  /** Over the mode's finished runs; null when none finished. */
  readonly stat: Stat | null;
}

/** One bar per mode at its mean, with its 95 % interval as an error bar and the lowest and highest run as dots. */
export function meanBarsSvg(items: readonly MeanBar[], o: { id: string; title: string; unit: string }): SafeHtml {
  // The error bar is the 95 % t interval of the mean (cut at 0: no figure is negative); dots mark the lowest and highest run.
  const lowOf = (s: Stat) => Math.max(0, s.ci95?.[0] ?? s.mean);
  const highOf = (s: Stat) => s.ci95?.[1] ?? s.mean;
  const scale = niceScale(Math.max(0, ...items.map((it) => (it.stat ? Math.max(it.stat.max, highOf(it.stat)) : 0))));
  const left = leftFor(scale);
  const plotW = W - left - RIGHT;
  const top = 44;
  const plotH = 180;
  const height = top + plotH + 28;
  const slotW = plotW / Math.max(1, items.length);
  const barW = Math.min(72, slotW * 0.4);
  const yAt = (v: number) => top + plotH - (v / scale.max) * plotH;
  const mean = (v: number) => formatInt(Math.round(v * 10) / 10);
  const ciText = (s: Stat) => (s.ci95 ? `95 % CI ${mean(lowOf(s))}–${mean(highOf(s))}` : ONE_TRIAL_NOTE);
  const marks = items.map((it, i) => {
    const cx = left + slotW * (i + 0.5);
    const name = html`<text class="tick" x="${n(cx)}" y="${top + plotH + 16}" text-anchor="middle">${it.label}</text>`;
    if (!it.stat)
      return html`${name}<text class="empty" x="${n(cx)}" y="${top + plotH - 8}" text-anchor="middle">no finished run</text>`;
    const s = it.stat;
    const tip = `${it.label}: mean ${mean(s.mean)} ${o.unit}, ${ciText(s)}, min ${formatInt(s.min)}, max ${formatInt(s.max)} (${s.n} run${s.n === 1 ? '' : 's'})`;
    const cap = (v: number) =>
      html`<line class="whisker" stroke="#1b1f24" stroke-width="1.5" x1="${n(cx - barW * 0.22)}" x2="${n(cx + barW * 0.22)}" y1="${n(yAt(v))}" y2="${n(yAt(v))}"/>`;
    const dot = (v: number) =>
      html`<circle class="extreme" cx="${n(cx + barW * 0.34)}" cy="${n(yAt(v))}" r="2.5" fill="none" stroke="#1b1f24" stroke-width="1"/>`;
    const bar = s.ci95
      ? html`<line class="whisker" stroke="#1b1f24" stroke-width="1.5" x1="${n(cx)}" x2="${n(cx)}" y1="${n(yAt(lowOf(s)))}" y2="${n(yAt(highOf(s)))}" data-mode="${it.mode}" data-ci-low="${s.ci95[0]}" data-ci-high="${s.ci95[1]}"/>${cap(lowOf(s))}${cap(highOf(s))}`
      : null;
    return html`${name}<rect class="bar" x="${n(cx - barW / 2)}" y="${n(yAt(s.mean))}" width="${n(barW)}" height="${n(top + plotH - yAt(s.mean))}" fill="${modeStyle(it.mode).color}" fill-opacity="0.85" data-mode="${it.mode}" data-mean="${s.mean}" data-min="${s.min}" data-max="${s.max}"><title>${tip}</title></rect>${bar}${dot(s.min)}${dot(s.max)}<text class="value" x="${n(cx)}" y="${n(yAt(Math.max(s.max, highOf(s))) - 6)}" text-anchor="middle">mean ${mean(s.mean)}${s.ci95 ? '' : ` (${ONE_TRIAL_NOTE})`}</text>`;
  });
  const legend = html`<text class="tick" x="${left}" y="14">bar: mean · error bar: 95 % interval of the mean (t) · dots: lowest and highest run</text>`;
  const desc = items
    .map((it) =>
      it.stat
        ? `${it.label}: mean ${mean(it.stat.mean)}, ${ciText(it.stat)}, min ${formatInt(it.stat.min)}, max ${formatInt(it.stat.max)}`
        : `${it.label}: no finished run`,
    )
    .join('; ');
  return html`${svgOpen(o.id, height, o.title, desc)}${legend}${yAxis(scale, left, top, plotH, plotW)}<line class="axis" x1="${left}" x2="${n(left + plotW)}" y1="${top + plotH}" y2="${top + plotH}"/>${marks}</svg>`;
}
