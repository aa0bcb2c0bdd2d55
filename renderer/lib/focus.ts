/** Focus for modal dialogs: back where it was on close, or to a stand-in when that control is gone; Tab kept inside. */

/** Focuses `previous` if it is still on the page (a menu item that opened the dialog is not), else `fallback`. */
export function restoreFocus(previous: Element | null, fallback: string): void {
  const target =
    previous instanceof HTMLElement && previous.isConnected && previous !== document.body
      ? previous
      : document.querySelector<HTMLElement>(fallback);
  target?.focus();
}

const FOCUSABLE =
  'a[href], button:not([disabled]), input:not([disabled]), select:not([disabled]), textarea:not([disabled]), [tabindex]:not([tabindex="-1"])';

/** On Tab at the dialog's last control (Shift+Tab at its first), wraps around instead of leaving it. */
export function keepTabInside(e: KeyboardEvent, box: HTMLElement | null): void {
  if (e.key !== 'Tab' || !box) return;
  const items = [...box.querySelectorAll<HTMLElement>(FOCUSABLE)];
  const first = items[0];
  const last = items[items.length - 1];
  if (!first || !last) return;
  const inside = box.contains(document.activeElement);
  if (e.shiftKey && (document.activeElement === first || !inside)) {
    e.preventDefault();
    last.focus();
  } else if (!e.shiftKey && (document.activeElement === last || !inside)) {
    e.preventDefault();
    first.focus();
  }
}
