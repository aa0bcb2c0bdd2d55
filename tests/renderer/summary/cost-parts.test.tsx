/**
 * The summary table's cost and usage cells and the verdicts under it, rendered for the estimated comparison of
 * tests/helpers/cost-runs.ts (ReAct's usage reported, Code Mode's estimated, both at gpt-4.1-mini's price): the
 * words and figures the app shows, "≈" on every estimated one, the ranking by cost and by tokens.
 */
import { describe, expect, it } from 'vitest';
import { SummaryTable } from '../../../renderer/components/summary/summary-table.js';
import { Verdicts } from '../../../renderer/components/summary/cost-parts.js';
import { groupByRun, summarizeComparison, summarizeRun } from '../../../shared/summary.js';
import { estimatedComparison } from '../../helpers/cost-runs.js';
import { attrOf, byClass, render, textOf } from '../../helpers/render-markup.js';

const stored = estimatedComparison('20261201-120000-e2ec0571');
const [reactId, codeId] = stored.meta.runs.map((r) => r.runId);
const runs = [...groupByRun(stored.events).values()].map(summarizeRun);
const comparison = summarizeComparison(runs);
const ESTIMATED = 'the provider sent no usage';

describe('the summary table of a comparison with estimated usage', () => {
  const table = render(<SummaryTable comparison={comparison} simulated={false} />);

  it('shows each run\'s cost as shared/cost.ts words it, "≈" on the estimated one, the price in its hint', () => {
    expect(Number(table.attr('sum-cost-react', 'data-value'))).toBe(runs.find((r) => r.runId === reactId)!.cost.usd);
    expect(table.text('sum-cost-react')).toBe('$0.00109');
    expect(table.text('sum-cost-code')).toBe('≈ $0.000456');
    expect(table.attr('sum-cost-code', 'title')).toContain(
      'prices of 2026-12-01: $0.40 in, $0.10 cached, $1.60 out per 1M tokens',
    );
    expect(table.text('sum-usage-code')).toBe('≈ estimated');
  });

  it('marks estimated token figures with "≈" and says why in the mark\'s hint', () => {
    expect(table.text('sum-total-code')).toBe('≈ 960');
    const mark = table.all('estimated-mark').find((m) => table.one('sum-total-code').children.includes(m));
    expect(attrOf(mark!, 'title')).toContain(ESTIMATED);
    expect(table.text('sum-total-react')).toBe('2,630');
    expect(table.text('cheapest-pill')).toBe('≈ cheapest');
  });
});

describe('the verdicts under the summary', () => {
  const byCost = render(<Verdicts comparison={comparison} showCost />);

  it('names the cheapest run with its cost, "(≈ estimated)" with the reason, the price date and the whole comparison\'s cost', () => {
    expect(byCost.text('verdict-cost')).toBe('Cheapest: Code Mode — ≈ $0.000456 (≈ estimated)');
    expect(attrOf(byClass(byCost.one('verdict-cost'), 'est-note')[0]!, 'title')).toContain(ESTIMATED);
    expect(byCost.text('price-note')).toContain('Costs in USD at the prices of 2026-12-01');
    expect(byCost.text('total-cost')).toBe('These 2 runs together: ≈ $0.00154.');
  });

  it('ranks by cost, cheapest first, with the difference to the first; by tokens, with the estimated total marked', () => {
    expect(byCost.attr('ranking', 'data-by')).toBe('cost');
    expect(byCost.all('rank-item').map((e) => attrOf(e, 'data-run-id'))).toEqual([codeId, reactId]);
    expect(textOf(byCost.all('rank-item')[1]!)).toContain('+138.6%');
    // Without cost rows the ranking is by tokens (the app's "tokens" button shows the same list).
    const byTokens = render(<Verdicts comparison={comparison} showCost={false} />);
    expect(byTokens.attr('ranking', 'data-by')).toBe('tokens');
    expect(textOf(byTokens.all('rank-item')[0]!)).toContain('≈ 960 tokens');
  });
});
