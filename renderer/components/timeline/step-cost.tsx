/** One step's cost on its card: from the provider's own figure or the price the run recorded; "no price" otherwise. */
import { ESTIMATED_HINT, formatUsd, priceSummary, PROVIDER_COST_HINT, stepCost } from '../../../shared/cost.js';
import { NO_PRICE_HINT, NO_PRICE_TEXT, type PriceKind } from '../../../shared/pricing.js';
import type { ModelPrice, ModelResponseEvent } from '../../../shared/step-event.js';

export function StepCost({
  response,
  price,
  kind,
}: {
  response: ModelResponseEvent;
  price: ModelPrice | null;
  kind: PriceKind;
}) {
  const c = stepCost(response, price);
  if (c.usd === null) {
    // The simulated model and runs recorded before prices existed get no cost chip at all: nothing to tell.
    if (kind === 'simulated' || kind === 'unrecorded' || kind === 'priced') return null;
    return (
      <span className="step-cost is-none" title={NO_PRICE_HINT[kind]} data-testid="step-cost" data-value="">
        {NO_PRICE_TEXT[kind]}
      </span>
    );
  }
  const title =
    c.from === 'provider'
      ? PROVIDER_COST_HINT
      : `Cost of this request at the ${priceSummary(price!)}.${c.estimated ? ` ${ESTIMATED_HINT}` : ''}`;
  return (
    <span className="step-cost" title={title} data-testid="step-cost" data-value={c.usd}>
      {c.estimated ? '≈ ' : ''}
      {formatUsd(c.usd)}
    </span>
  );
}
