/**
 * "Run again" for the open comparison (the same task, model, columns, trials and settings, through the
 * composer's Run), and beside it a menu with "Edit in composer first". Keyboard: arrows, Enter, Esc.
 */
import { useEffect, useRef, useState, type KeyboardEvent } from 'react';
import { loadIntoComposer, runAgain } from '../../app/again-actions.js';
import { useApp } from '../../store/app-store.js';
import { comparisonSelectors } from '../../store/selectors.js';
import { IconChevronDown, IconRetry } from '../common/icons.js';

export function AgainMenu() {
  const [open, setOpen] = useState(false);
  const starting = useApp(comparisonSelectors.starting);
  const rootRef = useRef<HTMLDivElement>(null);

  useEffect(() => {
    if (!open) return;
    rootRef.current?.querySelector<HTMLButtonElement>('[role="menuitem"]')?.focus();
    const onDown = (e: MouseEvent) => {
      if (!rootRef.current?.contains(e.target as Node)) setOpen(false);
    };
    window.addEventListener('mousedown', onDown);
    return () => window.removeEventListener('mousedown', onDown);
  }, [open]);

  const onKey = (e: KeyboardEvent) => {
    const items = [...(rootRef.current?.querySelectorAll<HTMLButtonElement>('[role="menuitem"]') ?? [])];
    const i = items.indexOf(document.activeElement as HTMLButtonElement);
    if (e.key === 'Escape' && open) {
      e.preventDefault();
      e.stopPropagation();
      setOpen(false);
      rootRef.current?.querySelector<HTMLButtonElement>('.again-more')?.focus();
    } else if (open && (e.key === 'ArrowDown' || e.key === 'ArrowUp')) {
      e.preventDefault();
      items[(i + (e.key === 'ArrowDown' ? 1 : items.length - 1)) % items.length]?.focus();
    }
  };
  const choose = (action: () => void) => {
    setOpen(false);
    action();
  };

  return (
    <div className="menu-root split-btn" ref={rootRef} onKeyDown={onKey}>
      <button
        type="button"
        className="btn btn-sm"
        disabled={starting}
        onClick={() => void runAgain()}
        title="Start this comparison again: the same task, model, columns, trials and settings (a new fixture)"
        aria-label="Run again"
        data-testid="run-again"
      >
        <IconRetry size={14} /> <span className="btn-label">Run again</span>
      </button>
      <button
        type="button"
        className="btn btn-sm again-more"
        aria-haspopup="menu"
        aria-expanded={open}
        aria-label="More ways to run it again"
        onClick={() => setOpen(!open)}
        data-testid="run-again-more"
      >
        <IconChevronDown size={12} />
      </button>
      {open ? (
        <div className="menu" role="menu" aria-label="Run again">
          <button
            type="button"
            role="menuitem"
            className="menu-item"
            onClick={() => choose(() => void runAgain())}
            data-testid="again-run"
          >
            <span className="menu-item-label">Run again now</span>
            <span className="menu-item-hint">The same task, model, columns, trials and settings</span>
          </button>
          <button
            type="button"
            role="menuitem"
            className="menu-item"
            onClick={() => choose(() => loadIntoComposer())}
            data-testid="again-edit"
          >
            <span className="menu-item-label">Edit in composer…</span>
            <span className="menu-item-hint">
              Load its settings into New comparison, change what you like, then Run
            </span>
          </button>
        </div>
      ) : null}
    </div>
  );
}
