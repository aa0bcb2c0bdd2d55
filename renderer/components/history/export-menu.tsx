/** Export the open comparison in a report format (report:export) or send its trace to an OTLP endpoint. Keyboard: arrows, Enter, Esc. */
import { useEffect, useRef, type KeyboardEvent } from 'react';
import { REPORT_FORMAT_INFO, REPORT_FORMATS } from '../../../shared/report-formats.js';
import { exportReport } from '../../app/actions.js';
import { openOtlpDialog } from '../../app/otlp-actions.js';
import { useApp } from '../../store/app-store.js';
import { comparisonSelectors, uiSelectors } from '../../store/selectors.js';
import { IconChevronDown, IconDownload } from '../common/icons.js';

export function ExportMenu() {
  const open = useApp(uiSelectors.exportMenuOpen);
  const setOpen = useApp((s) => s.setExportMenuOpen);
  const meta = useApp(comparisonSelectors.meta);
  const rootRef = useRef<HTMLDivElement>(null);

  useEffect(() => {
    if (!open) return;
    rootRef.current?.querySelector<HTMLButtonElement>('[role="menuitem"]')?.focus();
    const onDown = (e: MouseEvent) => {
      if (!rootRef.current?.contains(e.target as Node)) setOpen(false);
    };
    window.addEventListener('mousedown', onDown);
    return () => window.removeEventListener('mousedown', onDown);
  }, [open, setOpen]);

  const onKey = (e: KeyboardEvent) => {
    const items = [...(rootRef.current?.querySelectorAll<HTMLButtonElement>('[role="menuitem"]') ?? [])];
    const i = items.indexOf(document.activeElement as HTMLButtonElement);
    if (e.key === 'Escape') {
      e.preventDefault();
      e.stopPropagation();
      setOpen(false);
      rootRef.current?.querySelector<HTMLButtonElement>('.export-trigger')?.focus();
    } else if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
      e.preventDefault();
      items[(i + (e.key === 'ArrowDown' ? 1 : items.length - 1)) % items.length]?.focus();
    }
  };

  return (
    <div className="menu-root" ref={rootRef} onKeyDown={onKey}>
      <button
        type="button"
        className="btn btn-sm export-trigger"
        aria-haspopup="menu"
        aria-expanded={open}
        disabled={!meta}
        onClick={() => setOpen(!open)}
        data-testid="export-button"
      >
        <IconDownload size={14} /> Export <IconChevronDown size={12} />
      </button>
      {open && meta ? (
        <div className="menu" role="menu" aria-label="Export report">
          {REPORT_FORMATS.map((f) => (
            <button
              key={f}
              type="button"
              role="menuitem"
              className="menu-item"
              onClick={() => void exportReport(f)}
              data-testid={`export-${f}`}
            >
              <span className="menu-item-label">{REPORT_FORMAT_INFO[f].label}</span>
              <span className="menu-item-hint">{REPORT_FORMAT_INFO[f].hint}</span>
            </button>
          ))}
          <div className="menu-separator" role="separator" />
          <button
            type="button"
            role="menuitem"
            className="menu-item"
            onClick={() => openOtlpDialog()}
            data-testid="export-otlp-send"
          >
            <span className="menu-item-label">Send to OTLP endpoint…</span>
            <span className="menu-item-hint">The trace, to Langfuse, Phoenix or an OpenTelemetry collector</span>
          </button>
        </div>
      ) : null}
    </div>
  );
}
