/** Transient notices (export saved, key stored, errors of background actions). Polite live region. */
import { useEffect, useState } from 'react';
import { useApp } from '../../store/app-store.js';
import { uiSelectors } from '../../store/selectors.js';
import type { Toast } from '../../store/ui-slice.js';
import { IconAlert, IconCheck, IconX } from './icons.js';

function ToastItem({ toast }: { toast: Toast }) {
  const dismiss = useApp((s) => s.dismissToast);
  const close = () => {
    dismiss(toast.id);
    toast.onClose?.();
  };
  // Under the pointer or holding focus, a toast waits (WCAG 2.2.1): its Undo must not go while it is being reached.
  const [hovered, setHovered] = useState(false);
  const [focused, setFocused] = useState(false);
  const held = hovered || focused;
  useEffect(() => {
    // Errors stay until dismissed: they may hold a message to copy.
    if (toast.kind === 'error' || held) return;
    const t = setTimeout(() => {
      dismiss(toast.id);
      toast.onClose?.();
    }, 6000);
    return () => clearTimeout(t);
  }, [toast, dismiss, held]);
  return (
    <div
      className={`toast toast-${toast.kind}`}
      role={toast.kind === 'error' ? 'alert' : 'status'}
      data-testid="toast"
      data-held={held || undefined}
      onMouseEnter={() => setHovered(true)}
      onMouseLeave={() => setHovered(false)}
      onFocus={() => setFocused(true)}
      onBlur={(e) => setFocused(e.currentTarget.contains(e.relatedTarget))}
    >
      <span className="toast-icon">{toast.kind === 'error' ? <IconAlert /> : <IconCheck />}</span>
      <div className="toast-body">
        <div className="toast-title">{toast.title}</div>
        {toast.detail ? <div className="toast-detail mono">{toast.detail}</div> : null}
      </div>
      {toast.action ? (
        <button
          className="btn btn-sm toast-action"
          onClick={() => {
            dismiss(toast.id);
            toast.action!.run();
          }}
          data-testid="toast-action"
        >
          {toast.action.label}
        </button>
      ) : null}
      <button className="icon-btn" onClick={close} aria-label="Dismiss" data-testid="toast-dismiss">
        <IconX size={14} />
      </button>
    </div>
  );
}

export function Toasts() {
  const toasts = useApp(uiSelectors.toasts);
  return (
    <div className="toasts" aria-live="polite">
      {toasts.map((t) => (
        <ToastItem key={t.id} toast={t} />
      ))}
    </div>
  );
}
