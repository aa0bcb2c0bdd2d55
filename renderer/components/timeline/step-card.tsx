/** One model round trip of one run: its tokens and latency, retries, the assistant's text (a text ReAct reply as parsed) and its tool calls. */
import { memo } from 'react';
import { fmtInt, fmtMs } from '../../lib/display-format.js';
import type { StepView } from '../../store/run-model.js';
import { IconRetry, IconSpinner } from '../common/icons.js';
import { CodeRun } from './code-run.js';
import { ExpandableText } from './expandable-text.js';
import { ParsedReplyView } from './parsed-reply.js';
import { ToolCall } from './tool-call.js';
import { StepCost } from './step-cost.js';
import { HistorySummaryCard } from './history-summary-card.js';
import type { ModelPrice, ModelResponseEvent } from '../../../shared/step-event.js';
import type { PriceKind } from '../../../shared/pricing.js';
import { ESTIMATED_HINT } from '../../../shared/cost.js';
import { replyEnding } from '../../../shared/reply-ending.js';
import { stepTitle } from '../../../shared/step-phase.js';

/** Memoised: a batch copies only the steps it touched, so untouched cards keep their props and skip rendering. */
export const StepCard = memo(function StepCard({
  runId,
  step,
  truncateChars,
  stopped,
  price = null,
  priceKind = 'unrecorded',
  simulated = false,
}: {
  runId: string;
  step: StepView;
  truncateChars: number | null;
  stopped: boolean;
  price?: ModelPrice | null;
  priceKind?: PriceKind;
  simulated?: boolean;
}) {
  const r = step.response;
  const attempts = step.requests.length;
  const u = r?.usage ?? null;
  // "≈": the provider sent no usage, Parallax counted these tokens itself.
  const est = r?.usageSource === 'estimated' ? '≈ ' : '';
  return (
    <article
      className={`step-card ${r ? '' : 'is-pending'}`}
      data-testid="step-card"
      data-step={step.step}
      data-run-id={runId}
      data-state={r ? 'done' : 'waiting'}
    >
      <header className="step-head">
        <span className="step-title">{stepTitle(step.step, step.requests[0]?.phase)}</span>
        {r ? (
          u ? (
            <span
              className={`step-usage num ${est ? 'is-estimated' : ''}`}
              data-testid="step-usage"
              data-prompt={u.prompt}
              data-completion={u.completion}
              data-usage-source={r.usageSource ?? 'reported'}
            >
              <span
                title={
                  est
                    ? `Prompt tokens (input) of this request. ${ESTIMATED_HINT}`
                    : 'Prompt tokens (input) of this request'
                }
              >
                <span className="usage-key">in</span> {est}
                {fmtInt(u.prompt)}
              </span>
              <span
                title={
                  est
                    ? `Completion tokens (output) of this reply. ${ESTIMATED_HINT}`
                    : 'Completion tokens (output) of this reply'
                }
              >
                <span className="usage-key">out</span> {est}
                {fmtInt(u.completion)}
              </span>
              {u.cached ? (
                <span title="Prompt tokens served from the provider's cache">
                  <span className="usage-key">cached</span> {fmtInt(u.cached)}
                </span>
              ) : null}
              {u.cacheWrite ? (
                <span title="Prompt tokens written to the provider's cache (priced at the cache-write rate)">
                  <span className="usage-key">cache write</span> {fmtInt(u.cacheWrite)}
                </span>
              ) : null}
              {u.reasoning ? (
                <span title="Reasoning tokens (part of the completion)">
                  <span className="usage-key">reasoning</span> {fmtInt(u.reasoning)}
                </span>
              ) : null}
              <StepCost response={r} price={price} kind={priceKind} />
            </span>
          ) : (
            <span
              className="step-usage muted"
              data-testid="step-usage"
              title="The provider sent no usage for this reply; it counts as 0."
            >
              no usage reported
            </span>
          )
        ) : null}
        <span className="step-latency num" title="Time from request to the last streamed chunk">
          {r ? fmtMs(r.latencyMs) : null}
        </span>
      </header>
      {step.summary ? (
        <HistorySummaryCard id={`${runId}:${step.step}`} summary={step.summary} simulated={simulated} />
      ) : null}
      {step.retries.length > 0 ? (
        <ul className="retries">
          {step.retries.map((x) => (
            <li key={x.seq} className="retry" data-testid="retry">
              <IconRetry size={12} />
              <span>
                Attempt {x.attempt} failed{x.status !== null ? ` (${x.status})` : ''}: {x.message}
                {x.delayMs > 0 ? ` — retrying in ${fmtMs(x.delayMs)}` : ''}
              </span>
            </li>
          ))}
        </ul>
      ) : null}
      {!r ? (
        stopped ? (
          <p className="muted small">No reply: the run stopped while this request was in flight.</p>
        ) : (
          <p className="waiting">
            <IconSpinner size={13} /> Waiting for the model{attempts > 1 ? ` · attempt ${attempts}` : ''}…
          </p>
        )
      ) : null}
      {r?.reasoningText ? (
        <details className="reasoning">
          <summary>Reasoning · {fmtInt(r.reasoningText.length)} chars</summary>
          <ExpandableText id={`${runId}:${step.step}:reasoning`} text={r.reasoningText} lines={6} />
        </details>
      ) : null}
      {r?.parsed ? (
        <ParsedReplyView id={`${runId}:${step.step}`} response={r} parsed={r.parsed} />
      ) : r?.text ? (
        <ExpandableText
          id={`${runId}:${step.step}:text`}
          text={r.text}
          lines={6}
          className="assistant-text"
          label="Assistant text"
          copy="reply"
        />
      ) : null}
      {step.calls.map((c) =>
        c.name === 'run_code' || c.codeRun ? (
          <CodeRun
            key={c.callId}
            call={c}
            idPrefix={`${runId}:${c.callId}`}
            truncateChars={truncateChars}
            runId={runId}
            live={!stopped}
          />
        ) : (
          <ToolCall
            key={c.callId}
            call={c}
            idPrefix={`${runId}:${c.callId}`}
            truncateChars={truncateChars}
            runId={runId}
            live={!stopped}
          />
        ),
      )}
      {r ? <EndingNote r={r} /> : null}
    </article>
  );
});

/** Why a reply is no answer, when it is none: refused or filtered (its calls not run), cut short, or empty. */
function EndingNote({ r }: { r: ModelResponseEvent }) {
  const ending = replyEnding(r);
  const reason = `${r.stopReason !== undefined ? 'stop reason' : 'finish reason'}: ${r.stopReason ?? r.finishReason ?? 'none'}`;
  const calls = r.toolCalls.length;
  if (ending === 'filtered') {
    return (
      <p className="step-note-bad small" data-testid="filtered-note">
        {r.refusal ? 'Refused by the model' : 'Refused or filtered by the provider'} ({reason})
        {calls ? `; its ${calls} tool call${calls === 1 ? '' : 's'} not run` : ''}: not an answer.
      </p>
    );
  }
  if (calls > 0) return null;
  if (ending === 'cut-short')
    return (
      <p className="step-note-bad small" data-testid="cut-short-note">
        Cut short at the token limit ({reason}): not an answer.
      </p>
    );
  if (ending === 'empty')
    return (
      <p className="muted small" data-testid="empty-reply-note">
        Empty reply ({reason}): not an answer.
      </p>
    );
  return null;
}
