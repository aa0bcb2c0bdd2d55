/** A modal confirmation (delete). Focus starts on the safe choice; Esc cancels; Tab stays inside. */
import { useEffect, useRef } from 'react';
import { useApp } from '../../store/app-store.js';
import { uiSelectors } from '../../store/selectors.js';

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
      } else if (e.key === 'Tab' && boxRef.current) {
        const items = [...boxRef.current.querySelectorAll<HTMLElement>('button')];
        const first = items[0];
        const last = items[items.length - 1];
        if (e.shiftKey && document.activeElement === first) {
          e.preventDefault();
          last?.focus();
        } else if (!e.shiftKey && document.activeElement === last) {
          e.preventDefault();
          first?.focus();
        }
      }
    };
    window.addEventListener('keydown', onKey, true);
    return () => {
      window.removeEventListener('keydown', onKey, true);
      previous?.focus?.();
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
        <h2 id="confirm-title" className="modal-title">{confirm.title}</h2>
        <p id="confirm-body" className="modal-body">{confirm.body}</p>
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
