/** A modal confirmation (delete). Focus starts on the safe choice; Esc cancels; Tab stays inside. */
import { useEffect, useRef } from 'react';
import { useApp } from '../../store/app-store.js';
import { uiSelectors } from '../../store/selectors.js';
import { keepTabInside, restoreFocus } from '../../lib/focus.js';

export function ConfirmDialog() {
  const confirm = useApp(uiSelectors.confirm);
  const close = useApp((s) => s.askConfirm);
  const cancelRef = useRef<HTMLButtonElement>(null);
  const boxRef = useRef<HTMLDivElement>(null);

  useEffect(() => {
    if (!confirm) return;
    const previous = document.activeElement as HTMLElement | null;
    cancelRef.current?.focus();
    const onKey = (e: KeyboardEvent) => {
      if (e.key === 'Escape') {
        e.preventDefault();
        close(null);
      } else keepTabInside(e, boxRef.current);
    };
    window.addEventListener('keydown', onKey, true);
    return () => {
      window.removeEventListener('keydown', onKey, true);
      // Deleting removed the control that asked: the side panel's tab stands in for it.
      restoreFocus(previous, '#side-panel [role=tab][aria-selected=true]');
    };
  }, [confirm, close]);

  if (!confirm) return null;
  return (
    <div className="modal-backdrop" onMouseDown={() => close(null)}>
      <div
        className="modal"
        role="alertdialog"
        aria-modal="true"
        aria-labelledby="confirm-title"
        aria-describedby="confirm-body"
        ref={boxRef}
        onMouseDown={(e) => e.stopPropagation()}
        data-testid="confirm-dialog"
      >
        <h2 id="confirm-title" className="modal-title">
          {confirm.title}
        </h2>
        <p id="confirm-body" className="modal-body">
          {confirm.body}
        </p>
        <div className="modal-actions">
          <button className="btn" ref={cancelRef} onClick={() => close(null)}>
            Cancel
          </button>
          <button
            className={`btn ${confirm.danger ? 'btn-danger' : 'btn-primary'}`}
            onClick={() => {
              close(null);
              confirm.onConfirm();
            }}
          >
            {confirm.confirmLabel}
          </button>
        </div>
      </div>
    </div>
  );
}
