import { describe, expect, it } from 'vitest';
import { MODE_IDS, MODE_LABELS } from '../../../../shared/run-spec.js';
import { cumulativeSvg, niceScale, stepBarsSvg } from '../../../../electron/host/reports/html-charts.js';
import { REPORT_MODE_STYLES } from '../../../../electron/host/reports/report-palette.js';

function attrs(svg: string, tag: string): Record<string, string>[] {
  return [...svg.matchAll(new RegExp(`<${tag} ([^>]*)>`, 'g'))].map((m) =>
    Object.fromEntries([...m[1].matchAll(/([\w-]+)="([^"]*)"/g)].map((a) => [a[1], a[2]])),
  );
}

describe('niceScale', () => {
  it('covers the maximum with at most five round intervals', () => {
    for (const max of [1, 7, 10, 461, 951, 5389, 12_345, 99_999]) {
      const s = niceScale(max);
      expect(s.max).toBeGreaterThanOrEqual(max);
      expect(s.max / s.step).toBeLessThanOrEqual(5);
      expect(Number.isInteger(s.step)).toBe(true);
      expect(s.max % s.step).toBe(0);
    }
  });

  it('gives a usable axis for an empty chart', () => {
    expect(niceScale(0)).toEqual({ max: 1, step: 1 });
  });
});

describe('stepBarsSvg', () => {
  const steps = [
    { step: 1, prompt: 461, completion: 37 },
    { step: 2, prompt: 594, completion: 120 },
    { step: 3, prompt: 951, completion: 64 },
  ];

  it('draws one prompt and one completion bar per step, each carrying its exact value', () => {
    const svg = stepBarsSvg(steps, { id: 'c', title: 't', yMax: 951, slots: 3, mode: 'react', label: 'ReAct' }).value;
    const bars = attrs(svg, 'rect').filter((a) => a.class === 'bar');
    expect(bars).toHaveLength(6);
    for (const s of steps) {
      expect(bars.find((b) => b['data-step'] === String(s.step) && b['data-kind'] === 'prompt')?.['data-value']).toBe(
        String(s.prompt),
      );
      expect(
        bars.find((b) => b['data-step'] === String(s.step) && b['data-kind'] === 'completion')?.['data-value'],
      ).toBe(String(s.completion));
    }
  });

  it('draws bar heights in proportion to the values, on the shared scale', () => {
    const svg = stepBarsSvg(steps, { id: 'c', title: 't', yMax: 2000, slots: 5, mode: 'react', label: 'ReAct' }).value;
    const bars = attrs(svg, 'rect').filter((a) => a.class === 'bar');
    const ratio = bars.map((b) => Number(b.height) / Number(b['data-value']));
    for (const r of ratio) expect(r).toBeCloseTo(ratio[0], 1);
    // yMax 2000 → axis 2000, plot height 200 px: 951 tokens ≈ 95 px.
    expect(Number(bars.find((b) => b['data-value'] === '951')!.height)).toBeCloseTo(95.1, 0);
  });

  it('has an accessible name and description listing every value', () => {
    const svg = stepBarsSvg(steps, {
      id: 'c',
      title: 'ReAct tokens',
      yMax: 951,
      slots: 3,
      mode: 'react',
      label: 'ReAct',
    }).value;
    expect(svg).toMatch(/role="img" aria-labelledby="c-t c-d"/);
    expect(svg).toContain('<title id="c-t">ReAct tokens</title>');
    expect(svg).toContain('step 2: prompt 594, completion 120');
  });

  it('says so when a run stored no model response', () => {
    expect(
      stepBarsSvg([], { id: 'c', title: 't', yMax: 0, slots: 3, mode: 'code', label: 'Code Mode' }).value,
    ).toContain('no model response was stored');
  });
});

describe('cumulativeSvg', () => {
  it('plots one point per step per series with the running total and labels the end value', () => {
    const svg = cumulativeSvg(
      [
        {
          label: 'ReAct',
          mode: 'react',
          points: [
            { step: 1, value: 500 },
            { step: 2, value: 1300 },
          ],
        },
        { label: 'Code Mode', mode: 'code', points: [{ step: 1, value: 498 }] },
      ],
      { id: 'cum', title: 'Cumulative' },
    ).value;
    const points = [...attrs(svg, 'circle'), ...attrs(svg, 'rect'), ...attrs(svg, 'polygon')].filter(
      (a) => a.class === 'point',
    );
    expect(points.map((p) => `${p['data-series']}:${p['data-step']}:${p['data-value']}`).sort()).toEqual([
      '0:1:500',
      '0:2:1300',
      '1:1:498',
    ]);
    expect(svg).toContain('>1,300</text>');
    expect(svg).toContain('>ReAct</text>');
    expect(svg).toContain('>Code Mode</text>');
  });
});

describe('charts of every mode', () => {
  const points = (base: number) => [
    { step: 1, value: base },
    { step: 2, value: base * 2 },
    { step: 3, value: base * 3 },
  ];

  it("draws each mode's cumulative line in its own colour, dash and marker shape, with one legend entry each", () => {
    const series = MODE_IDS.map((mode, i) => ({ label: MODE_LABELS[mode], mode, points: points(100 + i * 37) }));
    const svg = cumulativeSvg(series, { id: 'cum', title: 'Cumulative' }).value;
    const lines = attrs(svg, 'polyline');
    expect(lines).toHaveLength(MODE_IDS.length);
    expect(new Set(lines.map((l) => l.stroke)).size).toBe(MODE_IDS.length);
    expect(new Set(lines.map((l) => l['stroke-dasharray'])).size).toBe(MODE_IDS.length);
    // The marker's element and shape per mode: circle, rect, and polygons with different vertex counts.
    const shapeOf = (mode: string) => {
      const m = new RegExp(`<(circle|rect|polygon) class="point"[^>]*data-mode="${mode}"`).exec(svg);
      const poly =
        m?.[1] === 'polygon'
          ? new RegExp(`<polygon class="point" points="([^"]*)"[^>]*data-mode="${mode}"`).exec(svg)?.[1].split(' ')
              .length
          : 0;
      return `${m?.[1]}:${poly}`;
    };
    expect(new Set(MODE_IDS.map(shapeOf)).size).toBe(MODE_IDS.length);
    for (const [si, mode] of MODE_IDS.entries()) {
      const marks = [
        ...svg.matchAll(
          new RegExp(
            `class="point"[^>]*data-series="${si}" data-mode="${mode}" data-step="(\\d+)" data-value="(\\d+)"`,
            'g',
          ),
        ),
      ];
      expect(marks.map((m) => `${m[1]}:${m[2]}`)).toEqual(series[si]!.points.map((p) => `${p.step}:${p.value}`));
      expect(svg).toContain(`>${MODE_LABELS[mode]}</text>`);
    }
  });

  it('names the modes once in the legend when every trial is drawn', () => {
    const series = MODE_IDS.flatMap((mode) =>
      [1, 2].map((t) => ({ label: `${MODE_LABELS[mode]} · trial ${t}`, mode, points: points(50 * t) })),
    );
    const svg = cumulativeSvg(series, {
      id: 'cum',
      title: 'Cumulative',
      legend: MODE_IDS.map((mode) => ({ mode, label: MODE_LABELS[mode] })),
    }).value;
    expect(attrs(svg, 'g').filter((g) => g.class === 'legend')).toHaveLength(MODE_IDS.length);
    expect(attrs(svg, 'polyline')).toHaveLength(series.length);
  });

  it("paints a run's step bars in its mode's colour (prompt) and tint outlined in that colour (completion)", () => {
    const fills = MODE_IDS.map((mode) => {
      const svg = stepBarsSvg([{ step: 1, prompt: 400, completion: 40 }], {
        id: 'c',
        title: 't',
        yMax: 400,
        slots: 1,
        mode,
        label: MODE_LABELS[mode],
      }).value;
      const bars = attrs(svg, 'rect').filter((a) => a.class === 'bar');
      const prompt = bars.find((b) => b['data-kind'] === 'prompt')!;
      const completion = bars.find((b) => b['data-kind'] === 'completion')!;
      expect(prompt.fill).toBe(REPORT_MODE_STYLES[mode].color);
      expect(completion.fill).toBe(REPORT_MODE_STYLES[mode].tint);
      expect(completion.stroke).toBe(REPORT_MODE_STYLES[mode].color);
      expect(svg).toContain(`>${MODE_LABELS[mode]}</text>`);
      return prompt.fill;
    });
    expect(new Set(fills).size).toBe(MODE_IDS.length);
  });
});
