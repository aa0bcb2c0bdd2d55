/**
 * The report's prompt-composition chart (shared/prompt-composition.ts) as inline SVG: one chart per run, each
 * step's prompt tokens stacked by part, every mode on one scale. Each segment carries its exact value (a
 * <title> and data-* attributes), like the other report charts (html-charts.ts).
 */
import { PROMPT_PART_INFO, PROMPT_PARTS } from '../../../shared/prompt-composition.js';
import type { StepSummary } from '../../../shared/summary.js';
import { formatInt } from './report-text.js';
import { BOTTOM, leftFor, n, niceScale, RIGHT, svgOpen, W, xLabels, yAxis } from './html-charts.js';
import { html, type SafeHtml } from './html-escape.js';

export interface CompositionOptions {
  readonly id: string;
  readonly title: string;
  readonly label: string;
  readonly mode: string;
  /** Shared across the runs' charts so they are drawn to one scale. */
  readonly yMax: number;
  readonly slots: number;
}

/** The legend of the parts, written once above the charts. */
export function compositionLegend(): SafeHtml {
  // SVG swatches: the report's content security policy allows no inline style attributes.
  return html`<p class="composition-legend">${PROMPT_PARTS.map((p) => html`<span><svg width="11" height="11" aria-hidden="true"><rect width="11" height="11" rx="2" fill="${PROMPT_PART_INFO[p].colour.light}"/></svg> ${PROMPT_PART_INFO[p].label}</span> `)}</p>`;
}

export function compositionSvg(steps: readonly StepSummary[], o: CompositionOptions): SafeHtml {
  const shown = steps.filter((s) => s.promptComposition);
  const slots = Math.max(o.slots, shown.length, 1);
  const scale = niceScale(o.yMax);
  const left = leftFor(scale);
  const plotW = W - left - RIGHT;
  const slotW = plotW / slots;
  const barW = Math.min(44, slotW * 0.6);
  const top = 30;
  const plotH = 180;
  const desc = shown.length
    ? shown
        .map(
          (s) =>
            `step ${s.step}: ${PROMPT_PARTS.map((p) => `${PROMPT_PART_INFO[p].label.toLowerCase()} ${formatInt(s.promptComposition![p])}`).join(', ')}`,
        )
        .join('; ')
    : 'no composition was recorded';
  const bars: SafeHtml[] = [];
  shown.forEach((s, i) => {
    const x = left + slotW * (i + 0.5) - barW / 2;
    let base = top + plotH;
    for (const part of PROMPT_PARTS) {
      const value = s.promptComposition![part];
      if (value === 0) continue;
      const h = (value / scale.max) * plotH;
      base -= h;
      const share = s.prompt > 0 ? Math.round((value / s.prompt) * 100) : 0;
      bars.push(
        html`<rect class="segment" x="${n(x)}" y="${n(base)}" width="${n(barW)}" height="${n(h)}" fill="${PROMPT_PART_INFO[part].colour.light}" data-mode="${o.mode}" data-step="${s.step}" data-part="${part}" data-value="${value}"><title>step ${s.step}, ${PROMPT_PART_INFO[part].label}: ${formatInt(value)} tokens (${share} %)</title></rect>`,
      );
    }
  });
  const legend = html`<g class="legend" transform="translate(${left} 12)"><text class="name" x="0" y="10">${o.label}</text></g>`;
  const empty = shown.length
    ? null
    : html`<text class="empty" x="${n(left + plotW / 2)}" y="${n(top + plotH / 2)}" text-anchor="middle">no composition was recorded</text>`;
  return html`${svgOpen(o.id, top + plotH + BOTTOM, o.title, desc)}${legend}${yAxis(scale, left, top, plotH, plotW)}${bars}${empty}${xLabels(
    slots,
    left,
    top,
    plotH,
    plotW,
    (i) => left + slotW * (i + 0.5),
    (i) => String(shown[i]?.step ?? i + 1),
  )}</svg>`;
}
