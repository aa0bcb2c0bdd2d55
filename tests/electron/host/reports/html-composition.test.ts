import { describe, expect, it } from 'vitest';
import { compositionLegend, compositionSvg } from '../../../../electron/host/reports/html-composition.js';
import { PROMPT_PART_INFO, PROMPT_PARTS, type PromptComposition } from '../../../../shared/prompt-composition.js';
import type { StepSummary } from '../../../../shared/summary.js';

function step(n: number, parts: PromptComposition | null): StepSummary {
  const recorded = parts ? { promptComposition: parts } : {};
  const prompt = parts ? PROMPT_PARTS.reduce((s, p) => s + parts[p], 0) : 500;
  return {
    step: n,
    prompt,
    completion: 10,
    cached: 0,
    reasoning: 0,
    attempts: 1,
    latencyMs: 1,
    toolCalls: 1,
    usageMissing: false,
    usageSource: 'reported',
    cost: { usd: null, from: null, estimated: false },
    ...recorded,
  };
}

const opts = { id: 'c', title: 'ReAct: what each prompt carried', label: 'ReAct', mode: 'react', yMax: 2000, slots: 3 };

describe('compositionSvg', () => {
  it('stacks one segment per non-zero part, the segments of a step summing to its prompt tokens', () => {
    const steps = [
      step(1, { system: 40, tools: 900, task: 30, assistant: 0, toolResults: 0, other: 3 }),
      step(2, { system: 40, tools: 900, task: 30, assistant: 25, toolResults: 400, other: 3 }),
    ];
    const svg = String(compositionSvg(steps, opts));
    const segments = [...svg.matchAll(/data-step="(\d+)" data-part="(\w+)" data-value="(\d+)"/g)].map((m) => ({
      step: Number(m[1]),
      part: m[2],
      value: Number(m[3]),
    }));
    expect(segments.filter((s) => s.step === 1).map((s) => s.part)).toEqual(['system', 'tools', 'task', 'other']);
    for (const s of steps)
      expect(segments.filter((x) => x.step === s.step).reduce((n, x) => n + x.value, 0)).toBe(s.prompt);
    expect(svg).toContain(`fill="${PROMPT_PART_INFO.toolResults.colour.light}"`);
    expect(svg).toContain('step 2, Tool results: 400 tokens (29 %)');
  });

  it('says so when a run recorded no composition', () => {
    expect(String(compositionSvg([step(1, null)], opts))).toContain('no composition was recorded');
  });

  it('names every part in the legend, without inline styles (the report CSP forbids them)', () => {
    const legend = String(compositionLegend());
    for (const p of PROMPT_PARTS) expect(legend).toContain(PROMPT_PART_INFO[p].label);
    expect(legend).not.toContain('style=');
  });
});
