/**
 * The verdicts a comparison gives — "fewest tokens" and "cheapest" — with the honesty rules every surface
 * shares: only answered runs whose answer did not fail validation compete (a wrong answer is not a cheap
 * win); a verdict built on estimated figures says so; one that would rest on
 * missing figures (usage the provider never sent, a cost with no price) is withheld with the reason, so a
 * run with no usage is never a winner from zeros.
 */
import { costText, isEstimated } from './cost.js';
import { NO_PRICE_HINT } from './pricing.js';
import { MODE_LABELS } from './run-spec.js';
import type { RunSummary } from './summary.js';

export interface Verdict {
  /** The winner (the first in run order on a tie), or null when none answered or the verdict is withheld. */
  readonly runId: string | null;
  /** The figures compared include estimated usage: the verdict is shown with "≈ estimated". */
  readonly estimated: boolean;
  /** Why no verdict is given although runs answered, else null. */
  readonly withheld: string | null;
  /** The answered runs, best first, when the verdict is given. */
  readonly ranking: readonly string[];
}

const NONE: Verdict = { runId: null, estimated: false, withheld: null, ranking: [] };

/**
 * The runs that compete, or the reason none does although some answered: an answer that failed validation
 * does not compete (no validator — a free-text task — is not a failure).
 */
function contenders(
  runs: readonly RunSummary[],
  what: 'token' | 'cost',
): { runs: readonly RunSummary[]; withheld: string | null } {
  const answered = runs.filter((r) => r.status === 'answered');
  const passed = answered.filter((r) => r.validation?.ok !== false);
  if (answered.length > 0 && passed.length === 0) {
    return { runs: [], withheld: `No ${what} verdict: no answer passed validation (${names(answered)}).` };
  }
  return { runs: passed, withheld: null };
}

function names(runs: readonly RunSummary[]): string {
  const labels = [...new Set(runs.map((r) => MODE_LABELS[r.mode] ?? r.mode))];
  return labels.length <= 1 ? labels.join('') : `${labels.slice(0, -1).join(', ')} and ${labels[labels.length - 1]}`;
}

function ranked(answered: readonly RunSummary[], value: (r: RunSummary) => number, estimated: boolean): Verdict {
  // Array.prototype.sort is stable: on a tie the run listed first stays first.
  const order = [...answered].sort((a, b) => value(a) - value(b));
  return { runId: order[0].runId, estimated, withheld: null, ranking: order.map((r) => r.runId) };
}

export function fewestTokensVerdict(runs: readonly RunSummary[]): Verdict {
  const { runs: answered, withheld } = contenders(runs, 'token');
  if (withheld) return { ...NONE, withheld };
  if (answered.length === 0) return NONE;
  const missing = answered.filter((r) => r.usageSource === 'missing');
  if (missing.length > 0) {
    return {
      ...NONE,
      withheld: `No token verdict: the provider sent no usage for some steps of ${names(missing)}, so ${missing.length === 1 ? 'its totals are' : 'their totals are'} incomplete.`,
    };
  }
  return ranked(
    answered,
    (r) => r.totals.total,
    answered.some((r) => isEstimated(r.usageSource)),
  );
}

export function cheapestVerdict(runs: readonly RunSummary[]): Verdict {
  const { runs: answered, withheld } = contenders(runs, 'cost');
  if (withheld) return { ...NONE, withheld };
  if (answered.length === 0) return NONE;
  const unknown = answered.filter((r) => r.cost.usd === null);
  if (unknown.length > 0) {
    const kinds = new Set(unknown.map((r) => r.cost.kind));
    const [kind] = kinds;
    const why =
      kinds.size === 1 && kind !== 'priced' && unknown.every((r) => r.cost.costedSteps === 0)
        ? NO_PRICE_HINT[kind].replace(/^./, (c) => c.toLowerCase())
        : `the cost of ${names(unknown)} is not known (${costText(unknown[0].cost)}).`;
    return { ...NONE, withheld: `No cost verdict: ${why}` };
  }
  return ranked(
    answered,
    (r) => r.cost.usd!,
    answered.some((r) => r.cost.estimated),
  );
}
