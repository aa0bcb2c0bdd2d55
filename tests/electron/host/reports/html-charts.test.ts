import { describe, expect, it } from 'vitest';
import { cumulativeSvg, niceScale, stepBarsSvg } from '../../../../electron/host/reports/html-charts.js';

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
    const svg = stepBarsSvg(steps, { id: 'c', title: 't', yMax: 951, slots: 3 }).value;
    const bars = attrs(svg, 'rect').filter((a) => a.class === 'bar');
    expect(bars).toHaveLength(6);
    for (const s of steps) {
      expect(bars.find((b) => b['data-step'] === String(s.step) && b['data-kind'] === 'prompt')?.['data-value']).toBe(String(s.prompt));
      expect(bars.find((b) => b['data-step'] === String(s.step) && b['data-kind'] === 'completion')?.['data-value']).toBe(String(s.completion));
    }
  });

  it('draws bar heights in proportion to the values, on the shared scale', () => {
    const svg = stepBarsSvg(steps, { id: 'c', title: 't', yMax: 2000, slots: 5 }).value;
    const bars = attrs(svg, 'rect').filter((a) => a.class === 'bar');
    const ratio = bars.map((b) => Number(b.height) / Number(b['data-value']));
    for (const r of ratio) expect(r).toBeCloseTo(ratio[0], 1);
    // yMax 2000 → axis 2000, plot height 200 px: 951 tokens ≈ 95 px.
    expect(Number(bars.find((b) => b['data-value'] === '951')!.height)).toBeCloseTo(95.1, 0);
  });

  it('has an accessible name and description listing every value', () => {
    const svg = stepBarsSvg(steps, { id: 'c', title: 'ReAct tokens', yMax: 951, slots: 3 }).value;
    expect(svg).toMatch(/role="img" aria-labelledby="c-t c-d"/);
    expect(svg).toContain('<title id="c-t">ReAct tokens</title>');
    expect(svg).toContain('step 2: prompt 594, completion 120');
  });

  it('says so when a run stored no model response', () => {
    expect(stepBarsSvg([], { id: 'c', title: 't', yMax: 0, slots: 3 }).value).toContain('no model response was stored');
  });
});

describe('cumulativeSvg', () => {
  it('plots one point per step per series with the running total and labels the end value', () => {
    const svg = cumulativeSvg(
      [
        { label: 'ReAct', points: [{ step: 1, value: 500 }, { step: 2, value: 1300 }] },
        { label: 'Code Mode', points: [{ step: 1, value: 498 }] },
      ],
      { id: 'cum', title: 'Cumulative' },
    ).value;
    const points = [...attrs(svg, 'circle'), ...attrs(svg, 'rect')].filter((a) => a.class === 'point');
    expect(points.map((p) => `${p['data-series']}:${p['data-step']}:${p['data-value']}`).sort()).toEqual(['0:1:500', '0:2:1300', '1:1:498']);
    expect(svg).toContain('>1,300</text>');
    expect(svg).toContain('>ReAct</text>');
    expect(svg).toContain('>Code Mode</text>');
  });
});
