/**
 * The Answers tab: two runs' answers side by side, word by word (shared/answer-diff.ts), any two of the
 * comparison picked above them; by default the first two that answered in the shown trial.
 */
import { useMemo } from 'react';
import { diffAnswers, type DiffPart } from '../../../shared/answer-diff.js';
import { useApp } from '../../store/app-store.js';
import { answerChoices, resolvePair, type AnswerChoice } from '../../store/answer-pair.js';
import { comparisonSelectors, trialSelectors } from '../../store/selectors.js';
import { fmtInt } from '../../lib/display-format.js';
import { SimBadge, StatusBadge, ValidationBadge, type AnyStatus } from '../common/badges.js';
import { MarkdownView } from './markdown-view.js';

function Parts({ parts }: { parts: readonly DiffPart[] }) {
  return (
    <>
      {parts.map((p, i) =>
        p.kind === 'removed' ? (
          <del key={i}>{p.text}</del>
        ) : p.kind === 'added' ? (
          <ins key={i}>{p.text}</ins>
        ) : (
          <span key={i}>{p.text}</span>
        ),
      )}
    </>
  );
}

function Picker({
  side,
  value,
  choices,
  onPick,
}: {
  side: string;
  value: string;
  choices: readonly AnswerChoice[];
  onPick: (runId: string) => void;
}) {
  return (
    <label className="diff-pick">
      <span className="muted small">{side}</span>
      <select
        className="input input-sm"
        value={value}
        onChange={(e) => onPick(e.target.value)}
        data-testid={`diff-pick-${side.toLowerCase()}`}
      >
        {choices.map((c) => (
          <option key={c.runId} value={c.runId}>
            {c.label}
            {c.answered ? (c.validation?.ok === false ? ' (failed validation)' : '') : ' (last reply)'}
          </option>
        ))}
      </select>
    </label>
  );
}

export function AnswersView() {
  const all = useApp(comparisonSelectors.allModeRuns);
  const shown = useApp(comparisonSelectors.modeRuns);
  const trials = useApp(trialSelectors.count);
  const simulated = useApp(comparisonSelectors.simulated);
  const picked = useApp((s) => s.diffPair);
  const setPair = useApp((s) => s.setDiffPair);
  const answerRaw = useApp((s) => s.answerRaw);
  const choices = useMemo(() => answerChoices(all, trials), [all, trials]);
  const pair = resolvePair(choices, shown, picked);
  const left = pair?.[0].answer;
  const right = pair?.[1].answer;
  const diff = useMemo(
    () => (left !== undefined && right !== undefined ? diffAnswers(left, right) : null),
    [left, right],
  );

  if (!pair || !diff)
    return (
      <div className="answers-view empty" data-testid="answers-view">
        <p className="empty-title">Nothing to compare yet</p>
        <p className="empty-text">
          Two runs need a final answer; the answers appear here word by word as soon as they do.
        </p>
      </div>
    );
  const [a, b] = pair;
  return (
    <div className="answers-view" data-testid="answers-view">
      <div className="answers-bar">
        <Picker side="Left" value={a.runId} choices={choices} onPick={(id) => setPair([id, b.runId])} />
        <Picker side="Right" value={b.runId} choices={choices} onPick={(id) => setPair([a.runId, id])} />
        {simulated ? <SimBadge /> : null}
        <span className="muted small" data-testid="diff-stats">
          {!diff.ok
            ? diff.reason
            : diff.diff.identical
              ? 'The two answers are identical.'
              : `${fmtInt(diff.diff.changed.removed)} words and spaces only on the left (struck), ${fmtInt(diff.diff.changed.added)} only on the right (underlined).`}
        </span>
      </div>
      <div className="answer-diff" data-testid="answer-diff" data-left={a.runId} data-right={b.runId}>
        {[a, b].map((side, i) => (
          <section key={side.runId} className="answer-diff-side" aria-label={`${side.label}'s answer`}>
            <h3 className="answer-side-head">
              {side.label} <StatusBadge status={side.status as AnyStatus} validation={side.validation} />{' '}
              {side.validation ? <ValidationBadge validation={side.validation} /> : null}
            </h3>
            {side.validation && !side.validation.ok ? (
              <p className="answer-fail" data-testid={`answer-fail-${i === 0 ? 'left' : 'right'}`}>
                {side.validation.detail}
              </p>
            ) : null}
            <pre className="diff-text" data-testid={`diff-${i === 0 ? 'left' : 'right'}`}>
              {diff.ok ? <Parts parts={i === 0 ? diff.diff.left : diff.diff.right} /> : side.answer}
            </pre>
            {answerRaw ? null : (
              <details className="diff-rendered">
                <summary>Rendered</summary>
                <MarkdownView text={side.answer} />
              </details>
            )}
          </section>
        ))}
      </div>
    </div>
  );
}
