/**
 * Cost and usage-source pieces of the summary tables: the "≈" mark on estimated figures, the cost and usage
 * rows, and the verdicts with the ranking by cost — in the same words as the CLI and the reports (shared/cost.ts).
 */
import { useState } from 'react';
import { runOutcome } from '../../../shared/run-outcome.js';
import {
  costHint,
  costText,
  ESTIMATED_HINT,
  formatUsd,
  isEstimated,
  markEstimated,
  MISSING_HINT,
  priceDates,
  USAGE_SOURCE_TEXT,
} from '../../../shared/cost.js';
import { ColumnSwatch, useSlotOf } from '../common/column-swatch.js';
import {
  formatPercent,
  percentDiff,
  type ComparisonSummary,
  type ModeAggregate,
  type RunSummary,
} from '../../../shared/summary.js';
import { openPriceEditor } from '../../app/price-actions.js';

/** "≈" before a figure Parallax counted because the provider sent no usage. */
export function EstMark({ on }: { on: boolean }) {
  return on ? (
    <span className="est-mark" title={ESTIMATED_HINT} data-testid="estimated-mark">
      ≈{' '}
    </span>
  ) : null;
}

/** A figure as shared/cost.ts words it, with its leading "≈ " drawn as the mark (colour and hint). */
export function Marked({ text }: { text: string }) {
  return text.startsWith('≈ ') ? (
    <>
      <EstMark on />
      {text.slice(2)}
    </>
  ) : (
    <>{text}</>
  );
}

/**
 * Whether cost rows say anything: a run has a price, a provider-reported cost, an unpriced real model, or
 * usage that was not simply reported. A comparison of the simulated model alone gets a note instead.
 */
export function costShown(runs: readonly RunSummary[]): boolean {
  return runs.some(
    (r) =>
      (r.cost.kind !== 'simulated' && r.cost.kind !== 'unrecorded') ||
      r.cost.costedSteps > 0 ||
      r.usageSource !== 'reported',
  );
}

export const runEstimated = (r: RunSummary): boolean => isEstimated(r.usageSource);

/** The summary table's cost and usage rows, with the cost difference against the first run. */
export function CostRows({ comparison, blanks }: { comparison: ComparisonSummary; blanks: number }) {
  const runs = comparison.runs;
  const base = runs[0];
  return (
    <>
      <tr data-metric="cost">
        <th scope="row" title="USD, at the price each run recorded when it started, or as the provider reported it">
          Cost (USD)
        </th>
        {runs.map((r) => (
          <td
            key={r.runId}
            className={`num ${r.cost.usd === null ? 'muted' : ''}`}
            data-testid={`sum-cost-${r.column.key}`}
            data-value={r.cost.usd ?? ''}
            title={costHint(r.cost)}
          >
            {r.status === 'running' && r.perStep.length === 0 ? '—' : <Marked text={costText(r.cost)} />}
          </td>
        ))}
        {runs.slice(1).map((r) => {
          const p = r.cost.usd !== null && base?.cost.usd != null ? percentDiff(r.cost.usd, base.cost.usd) : null;
          const tone = p === null || p === 0 ? '' : p < 0 ? 'is-less' : 'is-more';
          return (
            <td key={`d${r.runId}`} className={`num diff ${tone}`} data-value={p ?? ''}>
              {p === null ? '—' : formatPercent(p)}
            </td>
          );
        })}
      </tr>
      <tr data-metric="usage-source">
        <th scope="row" title="Where the token figures come from">
          Usage
        </th>
        {runs.map((r) => (
          <td
            key={r.runId}
            className={`num usage-${r.usageSource}`}
            data-testid={`sum-usage-${r.column.key}`}
            data-value={r.usageSource}
            title={
              r.usageSource === 'missing'
                ? MISSING_HINT
                : runEstimated(r)
                  ? ESTIMATED_HINT
                  : 'As the provider reported it'
            }
          >
            {USAGE_SOURCE_TEXT[r.usageSource]}
          </td>
        ))}
        {Array.from({ length: blanks }, (_, i) => (
          <td key={`b${i}`} />
        ))}
      </tr>
    </>
  );
}

/** "(≈ estimated)" after a verdict built on estimated usage, the full reason in its hint. */
function EstimatedNote({ on }: { on: boolean }) {
  return on ? (
    <span className="est-note" title={`Built on estimated usage. ${ESTIMATED_HINT}`}>
      {' '}
      (≈ estimated)
    </span>
  ) : null;
}

/** The verdicts under the summary, a ranking by cost or by tokens, and where the prices come from. */
export function Verdicts({ comparison, showCost }: { comparison: ComparisonSummary; showCost: boolean }) {
  const [by, setBy] = useState<'cost' | 'tokens'>(showCost && comparison.cheapest.runId ? 'cost' : 'tokens');
  const slot = useSlotOf();
  const runs = comparison.runs;
  if (runs.length < 2 || !runs.some((r) => r.status === 'answered')) return null;
  const name = (id: string | null) => {
    const r = runs.find((x) => x.runId === id);
    return r ? r.column.label : '';
  };
  const lines: { key: string; text: string; lead?: string; estimated?: boolean }[] = [];
  const f = comparison.fewestTokens;
  // Only passing runs compete: when some did not, say so, so a cheaper failed run is not read as overlooked.
  const out = runs.filter((r) => !runOutcome(r).passed);
  const among = out.length
    ? ` — among the runs that passed (left out: ${out.map((r) => `${r.column.label}, ${runOutcome(r).word.toLowerCase()}`).join('; ')})`
    : '';
  if (f.runId)
    lines.push({ key: 'tokens', lead: `Fewest tokens: ${name(f.runId)}`, text: among, estimated: f.estimated });
  else if (f.withheld) lines.push({ key: 'tokens', text: f.withheld });
  if (showCost) {
    const c = comparison.cheapest;
    const winner = runs.find((r) => r.runId === c.runId);
    if (winner)
      lines.push({
        key: 'cost',
        lead: `Cheapest: ${name(c.runId)}`,
        text: ` — ${costText(winner.cost)}`,
        estimated: c.estimated,
      });
    else if (c.withheld) lines.push({ key: 'cost', text: c.withheld });
  }
  const ranking = by === 'cost' ? comparison.cheapest.ranking : comparison.fewestTokens.ranking;
  const ranked = ranking.map((id) => runs.find((r) => r.runId === id)!).filter(Boolean);
  const first = ranked[0];
  const dates = priceDates(runs.map((r) => r.cost));
  return (
    <div className="verdicts" data-testid="verdicts">
      {lines.map((l) => (
        <p key={l.key} className="verdict" data-testid={`verdict-${l.key}`}>
          {l.lead ? <strong>{l.lead}</strong> : null}
          {l.text}
          <EstimatedNote on={!!l.estimated} />
        </p>
      ))}
      {ranked.length > 1 ? (
        <div className="ranking" data-testid="ranking" data-by={by}>
          <span className="ranking-label">Rank by</span>
          <span className="segmented" role="group" aria-label="Rank by">
            {showCost ? (
              <button
                type="button"
                className={`segment ${by === 'cost' ? 'is-active' : ''}`}
                aria-pressed={by === 'cost'}
                disabled={!comparison.cheapest.ranking.length}
                onClick={() => setBy('cost')}
                data-testid="rank-by-cost"
              >
                cost
              </button>
            ) : null}
            <button
              type="button"
              className={`segment ${by === 'tokens' ? 'is-active' : ''}`}
              aria-pressed={by === 'tokens'}
              disabled={!comparison.fewestTokens.ranking.length}
              onClick={() => setBy('tokens')}
              data-testid="rank-by-tokens"
            >
              tokens
            </button>
          </span>
          <ol className="ranking-list" aria-label={`Ranked by ${by}, lowest first`}>
            {ranked.map((r, i) => {
              const value = by === 'cost' ? r.cost.usd! : r.totals.total;
              const text =
                by === 'cost'
                  ? costText(r.cost)
                  : markEstimated(`${value.toLocaleString('en-US')} tokens`, runEstimated(r));
              const base = by === 'cost' ? first.cost.usd! : first.totals.total;
              return (
                <li key={r.runId} data-testid="rank-item" data-run-id={r.runId}>
                  <span className="rank-no" aria-hidden="true">
                    {i + 1}.
                  </span>
                  <ColumnSwatch slot={slot(r)} /> {r.column.label}{' '}
                  <span className="num">
                    <Marked text={text} />
                  </span>
                  {i > 0 ? <span className="muted num"> {formatPercent(percentDiff(value, base))}</span> : null}
                </li>
              );
            })}
          </ol>
        </div>
      ) : null}
      {showCost ? (
        <p className="chart-subtitle price-note" data-testid="price-note">
          {dates.length
            ? `Costs in USD at the prices of ${dates.join(' and ')}, recorded when each run started. `
            : 'No run has a price. '}
          {comparison.totalCost.usd !== null && runs.length > 1 ? (
            <span data-testid="total-cost" data-value={comparison.totalCost.usd}>
              These {runs.length} runs together:{' '}
              <Marked text={markEstimated(formatUsd(comparison.totalCost.usd), comparison.totalCost.estimated)} />.
            </span>
          ) : null}{' '}
          <button type="button" className="link-btn" onClick={() => openPriceEditor(runs[0]?.provider?.model ?? null)}>
            Edit prices
          </button>
        </p>
      ) : null}
    </div>
  );
}

/** The average table's cost cells: mean (with the lowest–highest) over finished runs, or why there is none. */
export function meanCostText(a: ModeAggregate): string {
  if (a.finished === 0) return '—';
  if (!a.cost) return 'not known';
  return markEstimated(formatUsd(a.cost.mean), a.costEstimated);
}
