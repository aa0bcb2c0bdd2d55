/**
 * "Send to OTLP endpoint": endpoint and headers, then one send of the open comparison's trace (report:send-otlp).
 * A failure is shown here in the host's words, with the fields kept, so the user fixes one thing and sends again;
 * the comparison itself is stored either way. Esc or the backdrop closes it.
 */
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { closeOtlpDialog, sendToOtlp } from '../../app/otlp-actions.js';
import { errorText } from '../../app/actions.js';
import { useApp } from '../../store/app-store.js';
import { uiSelectors } from '../../store/selectors.js';
import { keepTabInside, restoreFocus } from '../../lib/focus.js';

export function OtlpDialog() {
  const comparisonId = useApp(uiSelectors.otlpDialog);
  const saved = useApp(uiSelectors.otlpTarget);
  const [endpoint, setEndpoint] = useState(saved.endpoint);
  const [headers, setHeaders] = useState(saved.headers);
  const [sending, setSending] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const endpointRef = useRef<HTMLInputElement>(null);
  const boxRef = useRef<HTMLFormElement>(null);

  useEffect(() => {
    if (!comparisonId) return;
    setEndpoint(saved.endpoint);
    setHeaders(saved.headers);
    setError(null);
    const previous = document.activeElement as HTMLElement | null;
    endpointRef.current?.focus();
    const onKey = (e: KeyboardEvent) => {
      if (e.key === 'Escape') {
        e.preventDefault();
        closeOtlpDialog();
      } else keepTabInside(e, boxRef.current);
    };
    window.addEventListener('keydown', onKey, true);
    return () => {
      window.removeEventListener('keydown', onKey, true);
      // The menu item that opened the dialog closed with its menu: back to the Export button then.
      restoreFocus(previous, '[data-testid=export-button]');
    };
    // Opening the dialog (a new comparison id) starts from what was typed last; typing does not re-run this.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [comparisonId]);

  if (!comparisonId) return null;

  const onSubmit = async (e: FormEvent) => {
    e.preventDefault();
    setSending(true);
    setError(null);
    try {
      await sendToOtlp(comparisonId, endpoint, headers);
      closeOtlpDialog();
    } catch (err) {
      setError(errorText(err));
    } finally {
      setSending(false);
    }
  };

  return (
    <div className="modal-backdrop" onMouseDown={() => closeOtlpDialog()}>
      <form
        className="modal otlp-dialog"
        ref={boxRef}
        role="dialog"
        aria-modal="true"
        aria-labelledby="otlp-title"
        onMouseDown={(e) => e.stopPropagation()}
        onSubmit={(e) => void onSubmit(e)}
        data-testid="otlp-dialog"
      >
        <h2 id="otlp-title" className="modal-title">
          Send to OTLP endpoint
        </h2>
        <p className="modal-body">
          The comparison as an OpenTelemetry trace (GenAI spans: one per run, model request and tool call), sent once as
          OTLP/JSON over HTTP.
        </p>
        <label className="otlp-field">
          <span>Endpoint</span>
          <input
            ref={endpointRef}
            className="input mono"
            value={endpoint}
            onChange={(e) => setEndpoint(e.target.value)}
            placeholder="http://127.0.0.1:4318"
            spellCheck={false}
            required
            data-testid="otlp-endpoint"
          />
          <span className="field-hint">A collector's base URL (/v1/traces is added) or its full traces URL.</span>
        </label>
        <label className="otlp-field">
          <span>Headers</span>
          <textarea
            className="textarea mono"
            rows={3}
            value={headers}
            onChange={(e) => setHeaders(e.target.value)}
            placeholder={'Authorization: Basic …'}
            spellCheck={false}
            autoComplete="off"
            data-testid="otlp-headers"
          />
          <span className="field-hint">One a line. Kept in memory until the app closes; never saved or logged.</span>
        </label>
        {error ? (
          <p className="otlp-error" role="alert" data-testid="otlp-error">
            {error}
          </p>
        ) : null}
        <div className="modal-actions">
          <button type="button" className="btn" onClick={() => closeOtlpDialog()}>
            Cancel
          </button>
          <button
            type="submit"
            className="btn btn-primary"
            disabled={sending || !endpoint.trim()}
            data-testid="otlp-send"
          >
            {sending ? 'Sending…' : 'Send'}
          </button>
        </div>
      </form>
    </div>
  );
}
