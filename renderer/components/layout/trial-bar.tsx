/**
 * The trial picker, shown only for comparisons with several trials per mode: which trial's runs fill the
 * columns and the charts (or all of them). Live, it follows the round in progress until the user picks one.
 * A radio group: arrow keys, Home and End move the choice; Tab leaves it.
 */
import type { KeyboardEvent } from 'react';
import { useRef } from 'react';
import { useApp } from '../../store/app-store.js';
import type { ModeRun } from '../../store/derived.js';
import { comparisonSelectors, trialSelectors } from '../../store/selectors.js';
import { displayStatus, type DisplayStatus, type TrialChoice, type TrialState } from '../../store/trial-model.js';
import { IconSpinner } from '../common/icons.js';

const STATE_TEXT: Record<TrialState, string> = { waiting: 'waiting', running: 'running', done: 'done' };

/** done-ok: every run answered and none failed its check; done-warn: one did not (error, max steps, wrong answer…). */
function tone(state: TrialState, runs: readonly ModeRun[], statuses: readonly DisplayStatus[]): string {
  if (state !== 'done') return state;
  const ok = statuses.every((s) => s === 'answered') && runs.every((m) => m.run?.finished?.validation?.ok !== false);
  return ok ? 'done-ok' : 'done-warn';
}

/** A trial none of whose runs ran (cancelled before its round began): shown apart, never as a trial that failed. */
const NEVER_RAN = 'never ran: cancelled before its round began';

function TrialMark({ state, tone }: { state: TrialState; tone: string }) {
  if (state === 'running') return <IconSpinner size={10} />;
  return <span className={`trial-mark is-${tone}`} aria-hidden="true" />;
}

export function TrialBar() {
  const count = useApp(trialSelectors.count);
  const states = useApp(trialSelectors.states);
  const ran = useApp(trialSelectors.ran);
  const shown = useApp(trialSelectors.shown);
  const choice = useApp(trialSelectors.choice);
  const live = useApp(trialSelectors.live);
  const all = useApp(comparisonSelectors.allModeRuns);
  const interrupted = useApp(comparisonSelectors.interrupted);
  const choose = useApp((s) => s.chooseTrial);
  const groupRef = useRef<HTMLDivElement>(null);
  if (count <= 1) return null;

  const options: TrialChoice[] = [...Array.from({ length: count }, (_, i) => i + 1), 'all'];
  const runsOf = (k: number): ModeRun[] => all.filter((m) => m.trial === k);
  const describe = (k: number) => {
    const runs = runsOf(k);
    const statuses = runs.map((m) => displayStatus(m.run, m.runId, m.trial, states, interrupted));
    const text = runs
      .map(
        (m, i) =>
          `${m.column.label} ${statuses[i]}${m.run?.finished?.validation?.ok === false ? ' (check failed)' : ''}`,
      )
      .join(', ');
    return { runs, statuses, text };
  };
  const pick = (c: TrialChoice) => {
    choose(c);
    groupRef.current?.querySelector<HTMLButtonElement>(`[data-trial="${c}"]`)?.focus();
  };
  const onKey = (e: KeyboardEvent) => {
    const i = options.indexOf(shown);
    const next =
      e.key === 'ArrowRight' || e.key === 'ArrowDown'
        ? i + 1
        : e.key === 'ArrowLeft' || e.key === 'ArrowUp'
          ? i - 1
          : e.key === 'Home'
            ? 0
            : e.key === 'End'
              ? options.length - 1
              : null;
    if (next === null) return;
    e.preventDefault();
    pick(options[(next + options.length) % options.length]!);
  };
  const doneCount = states.filter((s) => s === 'done').length;
  const ranCount = ran.filter(Boolean).length;
  const summary =
    live !== null
      ? `Round ${live} of ${count} running`
      : doneCount < count
        ? `${doneCount} of ${count} trials ended`
        : ranCount < count
          ? `Cancelled: ${ranCount} of ${count} trials ran`
          : `${count} trials per mode`;

  return (
    <div className="trial-bar" data-testid="trial-bar">
      <span className="visually-hidden" id="trial-bar-label">
        Trial shown in the columns and charts
      </span>
      <div className="segmented" role="radiogroup" aria-labelledby="trial-bar-label" ref={groupRef} onKeyDown={onKey}>
        {options.map((o) => {
          const selected = shown === o;
          const common = {
            type: 'button' as const,
            role: 'radio',
            'aria-checked': selected,
            tabIndex: selected ? 0 : -1,
            className: `segment ${selected ? 'is-active' : ''}`,
            'data-testid': 'trial-option',
            'data-trial': String(o),
            onClick: () => choose(o),
          };
          if (o === 'all')
            return (
              <button key="all" {...common} title="Every run side by side, all trials">
                All
              </button>
            );
          const state = states[o - 1] ?? 'waiting';
          const d = describe(o);
          const never = ran[o - 1] === false;
          return (
            <button
              key={o}
              {...common}
              data-state={never ? 'never-ran' : state}
              title={
                never ? `Trial ${o}: ${NEVER_RAN}` : `Trial ${o}: ${STATE_TEXT[state]}${d.text ? ` — ${d.text}` : ''}`
              }
              aria-label={`Trial ${o}, ${never ? 'never ran' : STATE_TEXT[state]}`}
            >
              <TrialMark state={state} tone={never ? 'never-ran' : tone(state, d.runs, d.statuses)} />
              {o === 1 ? 'Trial 1' : o}
            </button>
          );
        })}
      </div>
      <span className="trial-bar-status" role="status" data-testid="trial-status">
        {summary}
        {shown === 'all' ? ' · every run side by side' : ''}
      </span>
      {choice !== null && live !== null && shown !== live ? (
        <button type="button" className="link-btn trial-follow" onClick={() => choose(null)} data-testid="trial-follow">
          Follow round {live}
        </button>
      ) : null}
    </div>
  );
}
