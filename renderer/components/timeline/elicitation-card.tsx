/**
 * An MCP server's form waiting for the person, in its run's column: the server's message and one control per
 * field read from its schema (shared/mcp-elicitation.ts bounds it), checked here as typed and again by the
 * engine. Send (accept), Decline or Cancel; only this call waits. The card leaves when the run records the
 * outcome (an `elicitation` event: the answer, a cancel, or the wait running out), which the call's notes show.
 */
import { useId, useState, type FormEvent } from 'react';
import type { ElicitationReply } from '../../../shared/ipc-contract.js';
import { readElicitValue, type ElicitField, type ElicitValue } from '../../../shared/mcp-elicitation.js';
import type { ElicitationRequestedEvent } from '../../../shared/step-event.js';
import { inert } from '../../../shared/inert-text.js';
import { answerElicitation } from '../../app/actions.js';
import { fmtMs } from '../../lib/display-format.js';
import { IconAlert, IconSpinner } from '../common/icons.js';

type Typed = string | boolean | readonly string[];

function initial(f: ElicitField): Typed {
  if (f.kind === 'boolean') return f.default === true;
  if (f.kind === 'choices') return Array.isArray(f.default) ? f.default : [];
  return f.default === undefined ? '' : String(f.default);
}

/** The whole form read: the values to send, or one message per field that does not fit. */
function readForm(
  fields: readonly ElicitField[],
  typed: Readonly<Record<string, Typed>>,
): { content: Record<string, ElicitValue>; errors: Record<string, string> } {
  const content: Record<string, ElicitValue> = {};
  const errors: Record<string, string> = {};
  for (const f of fields) {
    const r = readElicitValue(f, typed[f.key] ?? initial(f));
    if (r.error) errors[f.key] = r.error;
    else if (r.value !== undefined) content[f.key] = r.value;
  }
  return { content, errors };
}

function FieldControl({
  field: f,
  id,
  value,
  error,
  onChange,
}: {
  field: ElicitField;
  id: string;
  value: Typed;
  error?: string;
  onChange(v: Typed): void;
}) {
  const describedBy = [f.description ? `${id}-d` : '', error ? `${id}-e` : ''].filter(Boolean).join(' ') || undefined;
  const common = {
    id,
    'aria-invalid': error ? true : undefined,
    'aria-describedby': describedBy,
    'aria-required': f.required || undefined,
    'data-testid': `elicit-field-${f.key}`,
  } as const;
  const label = (
    <>
      {inert(f.title)}
      {f.required ? <span aria-hidden="true"> *</span> : <span className="label-hint"> (optional)</span>}
    </>
  );
  const notes = (
    <>
      {f.description ? (
        <p id={`${id}-d`} className="field-hint">
          {inert(f.description)}
        </p>
      ) : null}
      {error ? (
        <p id={`${id}-e`} className="field-error" data-testid={`elicit-error-${f.key}`}>
          {inert(error)}
        </p>
      ) : null}
    </>
  );
  if (f.kind === 'boolean') {
    return (
      <div className="elicit-field">
        <label className="elicit-check">
          <input type="checkbox" {...common} checked={value === true} onChange={(e) => onChange(e.target.checked)} />{' '}
          {label}
        </label>
        {notes}
      </div>
    );
  }
  if (f.kind === 'choices') {
    const chosen = new Set(Array.isArray(value) ? value : []);
    return (
      <fieldset
        id={id}
        className="elicit-field elicit-set"
        aria-describedby={describedBy}
        aria-invalid={error ? true : undefined}
        data-testid={`elicit-field-${f.key}`}
      >
        <legend className="label">{label}</legend>
        {(f.options ?? []).map((o) => (
          <label key={o.value} className="elicit-check">
            <input
              type="checkbox"
              value={o.value}
              checked={chosen.has(o.value)}
              onChange={(e) =>
                onChange(
                  (f.options ?? [])
                    .map((x) => x.value)
                    .filter((v) => (v === o.value ? e.target.checked : chosen.has(v))),
                )
              }
            />{' '}
            {inert(o.label)}
          </label>
        ))}
        {notes}
      </fieldset>
    );
  }
  return (
    <div className="elicit-field">
      <label className="label" htmlFor={id}>
        {label}
      </label>
      {f.kind === 'choice' ? (
        <select className="input select" {...common} value={String(value)} onChange={(e) => onChange(e.target.value)}>
          {!f.required || value === '' ? <option value="">{f.required ? 'Choose…' : '(none)'}</option> : null}
          {(f.options ?? []).map((o) => (
            <option key={o.value} value={o.value}>
              {inert(o.label)}
            </option>
          ))}
        </select>
      ) : (
        <input
          className={`input${error ? ' is-invalid' : ''}`}
          {...common}
          value={String(value)}
          onChange={(e) => onChange(e.target.value)}
          type={
            f.kind === 'number' || f.kind === 'integer'
              ? 'number'
              : f.format === 'email'
                ? 'email'
                : f.format === 'uri'
                  ? 'url'
                  : 'text'
          }
          {...(f.kind === 'integer' ? { step: 1 } : f.kind === 'number' ? { step: 'any' } : {})}
          {...(f.kind === 'number' || f.kind === 'integer' ? { min: f.min, max: f.max } : { maxLength: f.max })}
          autoComplete="off"
        />
      )}
      {notes}
    </div>
  );
}

export function ElicitationCard({ runId, request: q }: { runId: string; request: ElicitationRequestedEvent }) {
  const base = useId();
  const [typed, setTyped] = useState<Record<string, Typed>>(() =>
    Object.fromEntries(q.fields.map((f) => [f.key, initial(f)])),
  );
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [sent, setSent] = useState<ElicitationReply['action'] | null>(null);
  const send = async (reply: ElicitationReply) => {
    setSent(reply.action);
    if (!(await answerElicitation(runId, q.elicitationId, reply))) setSent(null);
  };
  const submit = (e: FormEvent) => {
    e.preventDefault();
    const read = readForm(q.fields, typed);
    setErrors(read.errors);
    const first = q.fields.findIndex((f) => read.errors[f.key]);
    if (first >= 0) {
      // The person is taken to the first field that does not fit; nothing is sent.
      const el = document.getElementById(`${base}-${first}`);
      (el?.tagName === 'FIELDSET' ? el.querySelector('input') : el)?.focus();
      return;
    }
    void send({ action: 'accept', content: read.content });
  };
  const title = `MCP server ${q.server} asks you`;
  return (
    <form
      className="approval-card elicitation-card"
      role="dialog"
      aria-label={title}
      aria-describedby={`${base}-m`}
      noValidate
      onSubmit={submit}
      data-testid="elicitation-card"
      data-elicitation-id={q.elicitationId}
    >
      <header className="approval-head">
        <IconAlert size={14} />
        <strong>
          MCP server{' '}
          <span className="mono" data-testid="elicitation-server">
            {inert(q.server)}
          </span>{' '}
          asks you
        </strong>
        <span className="muted small">this call waits · cancelled after {fmtMs(q.timeoutMs)} without an answer</span>
      </header>
      <p id={`${base}-m`} className="elicit-message" data-testid="elicitation-message">
        {inert(q.message) || '(no message)'}
      </p>
      {q.fields.map((f, i) => (
        <FieldControl
          key={f.key}
          field={f}
          id={`${base}-${i}`}
          value={typed[f.key] ?? initial(f)}
          error={errors[f.key]}
          onChange={(v) => {
            setTyped((t) => ({ ...t, [f.key]: v }));
            if (errors[f.key]) setErrors(({ [f.key]: _gone, ...rest }) => rest);
          }}
        />
      ))}
      <div className="approval-actions">
        <button
          type="submit"
          className="btn btn-sm btn-primary"
          disabled={sent !== null}
          data-testid="elicitation-accept"
        >
          {sent === 'accept' ? <IconSpinner size={12} /> : null} Send answer
        </button>
        <button
          type="button"
          className="btn btn-sm"
          disabled={sent !== null}
          onClick={() => void send({ action: 'decline' })}
          data-testid="elicitation-decline"
          title="Tell the server you will not answer; the tool goes on without your values"
        >
          {sent === 'decline' ? <IconSpinner size={12} /> : null} Decline
        </button>
        <button
          type="button"
          className="btn btn-sm"
          disabled={sent !== null}
          onClick={() => void send({ action: 'cancel' })}
          data-testid="elicitation-cancel"
          title="Dismiss the form without an answer"
        >
          {sent === 'cancel' ? <IconSpinner size={12} /> : null} Cancel
        </button>
      </div>
    </form>
  );
}

/** The forms a call waits on; a run that stopped while one waited says so instead of offering it. */
export function ElicitationCards({
  runId,
  asking,
  live,
}: {
  runId: string;
  asking?: readonly ElicitationRequestedEvent[];
  live: boolean;
}) {
  if (!asking?.length) return null;
  return (
    <div className="approvals">
      {asking.map((q) =>
        live ? (
          <ElicitationCard key={q.elicitationId} runId={runId} request={q} />
        ) : (
          <p key={q.elicitationId} className="approval-record is-denied" data-testid="elicitation-unanswered">
            <IconAlert size={12} />{' '}
            <span>
              MCP server <span className="mono">{inert(q.server)}</span> was waiting for your answer when the run
              stopped.
            </span>
          </p>
        ),
      )}
    </div>
  );
}
