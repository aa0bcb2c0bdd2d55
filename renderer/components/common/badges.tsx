/** Status, validation and "simulated" badges: the same words and colours everywhere a run is shown. */
import type { Validation } from '../../../shared/step-event.js';
import type { ReactNode } from 'react';
import type { DisplayStatus } from '../../store/trial-model.js';
import { IconAlert, IconCheck, IconSpinner, IconX } from './icons.js';

export type AnyStatus = DisplayStatus;

const STATUS_TEXT: Record<AnyStatus, string> = {
  answered: 'Answered',
  'no-policy': 'No policy (simulated)',
  refused: 'Refused',
  truncated: 'Cut short',
  empty: 'Empty reply',
  'max-steps': 'Step limit',
  cancelled: 'Cancelled',
  error: 'Error',
  crashed: 'Crashed',
  running: 'Running',
  pending: 'Starting',
  interrupted: 'Interrupted',
  'never-started': 'Never started',
  waiting: 'Waiting',
};

/** A status in the words of its badge (the live region says them too). */
export const statusText = (status: AnyStatus): string => STATUS_TEXT[status];

const STATUS_TONE: Record<AnyStatus, string> = {
  answered: 'ok',
  'no-policy': 'warn',
  refused: 'err',
  truncated: 'err',
  empty: 'err',
  'max-steps': 'err',
  cancelled: 'neutral',
  error: 'err',
  crashed: 'err',
  running: 'live',
  pending: 'live',
  interrupted: 'warn',
  'never-started': 'neutral',
  waiting: 'neutral',
};

/**
 * A run's status. `validation`: an answer that failed it reads "Wrong answer" in the colour of failure, never
 * "Answered" in green; a status this code does not know (one added later) reads as itself, as a failure.
 */
export function StatusBadge({
  status,
  compact,
  validation,
}: {
  status: AnyStatus;
  compact?: boolean;
  validation?: Validation | null;
}) {
  const live = status === 'running' || status === 'pending';
  const wrong = status === 'answered' && validation?.ok === false;
  const text = wrong ? 'Wrong answer' : (STATUS_TEXT[status] ?? String(status));
  const tone = wrong ? 'err' : (STATUS_TONE[status] ?? 'err');
  return (
    <span
      className={`badge badge-${tone}`}
      data-testid="run-status"
      data-status={status}
      data-outcome={wrong ? 'wrong-answer' : status === 'answered' ? 'passed' : status}
      title={wrong ? `Answered, but the answer failed validation: ${validation!.detail}` : undefined}
    >
      {live ? (
        <IconSpinner size={11} />
      ) : wrong ? (
        <IconX size={11} />
      ) : (
        <span className="badge-dot" aria-hidden="true" />
      )}
      {compact ? null : text}
      {compact ? <span className="visually-hidden">{text}</span> : null}
    </span>
  );
}

export function ValidationBadge({ validation }: { validation: Validation | null }) {
  if (!validation)
    return (
      <span className="badge badge-neutral" title="This task has no validator, or the run gave no answer.">
        Not validated
      </span>
    );
  return (
    <span
      className={`badge ${validation.ok ? 'badge-ok' : 'badge-err'}`}
      data-testid="validation"
      data-ok={validation.ok}
      title={validation.detail}
    >
      {validation.ok ? <IconCheck size={11} /> : <IconX size={11} />}
      {validation.ok ? 'Pass' : 'Fail'}
    </span>
  );
}

export function SimBadge({ title }: { title?: string }) {
  return (
    <span
      className="badge badge-sim"
      data-testid="sim-badge"
      title={
        title ??
        'Produced by the simulated model: scripted replies, token counts measured with a real tokenizer. Not a real provider.'
      }
    >
      simulated
    </span>
  );
}

export function WarnBadge({ children, title }: { children: ReactNode; title?: string }) {
  return (
    <span className="badge badge-warn" title={title}>
      <IconAlert size={11} />
      {children}
    </span>
  );
}
