/**
 * The history summary asked for just before a step's request (`summarize:K`): which steps it replaced and the
 * tokens they held, what the summary request cost (in the run's totals, not in the step's usage), and the
 * summary as sent. A failed request says why, in the colour of a failure; the history then went on whole.
 */
import type { HistorySummaryEvent } from '../../../shared/step-event.js';
import { fmtInt, fmtMs } from '../../lib/display-format.js';
import { SimBadge } from '../common/badges.js';
import { ExpandableText } from './expandable-text.js';

export function HistorySummaryCard({
  id,
  summary: e,
  simulated,
}: {
  id: string;
  summary: HistorySummaryEvent;
  simulated: boolean;
}) {
  const range = e.fromStep === e.toStep ? `step ${e.fromStep}` : `steps ${e.fromStep}–${e.toStep}`;
  const est = e.usage && e.usageSource === 'estimated' ? '≈ ' : '';
  const failed = e.error !== null;
  return (
    <div
      className={`history-summary ${failed ? 'is-failed' : ''}`}
      data-testid="history-summary"
      data-state={failed ? 'failed' : 'done'}
      data-prompt={e.usage?.prompt ?? 0}
      data-completion={e.usage?.completion ?? 0}
      data-replaced={e.replacedTokens}
    >
      <div className="history-summary-head">
        <span className="history-summary-title">
          {failed ? 'History summary failed' : `History summary of ${range}`}
        </span>
        {e.usage ? (
          <span className="num" title="Tokens of the summary request: in the run's totals, not in this step's usage">
            {est}
            {fmtInt(e.usage.prompt)} in · {est}
            {fmtInt(e.usage.completion)} out
          </span>
        ) : (
          <span className="muted">no usage reported</span>
        )}
        <span className="num muted">{fmtMs(e.latencyMs)}</span>
        {simulated ? <SimBadge /> : null}
      </div>
      {failed ? (
        <p className="history-summary-error">{e.error}</p>
      ) : (
        <>
          <p className="small">
            Replaced {e.replacedMessages} message{e.replacedMessages === 1 ? '' : 's'} ({fmtInt(e.replacedTokens)}{' '}
            prompt tokens) with the summary the run's model wrote; its request is counted in the run's totals, not in
            this step.
          </p>
          <ExpandableText id={`${id}:summary`} text={e.text} lines={3} label="Sent instead of those steps" />
        </>
      )}
    </div>
  );
}
