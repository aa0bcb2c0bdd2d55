/** Status, validation and "simulated" badges: the same words and colours everywhere a run is shown. */
import type { Validation } from '../../../shared/step-event.js';
import type { ReactNode } from 'react';
import type { DisplayStatus } from '../../store/trial-model.js';
import { IconAlert, IconCheck, IconSpinner, IconX } from './icons.js';

export type AnyStatus = DisplayStatus;

const STATUS_TEXT: Record<AnyStatus, string> = {
  answered: 'Answered',
  'no-policy': 'No policy (simulated)',
  'max-steps': 'Max steps',
  cancelled: 'Cancelled',
  error: 'Error',
  crashed: 'Crashed',
  running: 'Running',
  pending: 'Starting',
  interrupted: 'Interrupted',
  'never-started': 'Never started',
  waiting: 'Waiting',
};

const STATUS_TONE: Record<AnyStatus, string> = {
  answered: 'ok',
  'no-policy': 'warn',
  'max-steps': 'warn',
  cancelled: 'neutral',
  error: 'err',
  crashed: 'err',
  running: 'live',
  pending: 'live',
  interrupted: 'warn',
  'never-started': 'neutral',
  waiting: 'neutral',
};

export function StatusBadge({ status, compact }: { status: AnyStatus; compact?: boolean }) {
  const live = status === 'running' || status === 'pending';
  return (
    <span className={`badge badge-${STATUS_TONE[status]}`} data-testid="run-status" data-status={status}>
      {live ? <IconSpinner size={11} /> : <span className="badge-dot" aria-hidden="true" />}
      {compact ? null : STATUS_TEXT[status]}
      {compact ? <span className="visually-hidden">{STATUS_TEXT[status]}</span> : null}
    </span>
  );
}

export function ValidationBadge({ validation }: { validation: Validation | null }) {
  if (!validation) return <span className="badge badge-neutral" title="This task has no validator, or the run gave no answer.">Not validated</span>;
  return (
    <span className={`badge ${validation.ok ? 'badge-ok' : 'badge-err'}`} data-testid="validation" data-ok={validation.ok} title={validation.detail}>
      {validation.ok ? <IconCheck size={11} /> : <IconX size={11} />}
      {validation.ok ? 'Pass' : 'Fail'}
    </span>
  );
}

export function SimBadge({ title }: { title?: string }) {
  return (
    <span className="badge badge-sim" data-testid="sim-badge" title={title ?? 'Produced by the simulated model: scripted replies, token counts measured with a real tokenizer. Not a real provider.'}>
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
