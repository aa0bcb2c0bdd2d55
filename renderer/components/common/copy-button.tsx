/** Copies a text (a program, an output, an answer, an id) to the clipboard, and says so for a moment. */
import { useEffect, useState } from 'react';
import { useApp } from '../../store/app-store.js';

export function CopyButton({
  text,
  what,
  className = '',
  label = 'Copy',
}: {
  text: string;
  what: string;
  className?: string;
  label?: string;
}) {
  const [copied, setCopied] = useState(false);
  const pushToast = useApp((s) => s.pushToast);
  useEffect(() => {
    if (!copied) return;
    const t = setTimeout(() => setCopied(false), 1500);
    return () => clearTimeout(t);
  }, [copied]);
  return (
    <button
      type="button"
      className={`copy-btn ${copied ? 'is-copied' : ''} ${className}`}
      onClick={async (e) => {
        e.stopPropagation();
        try {
          await navigator.clipboard.writeText(text);
          setCopied(true);
        } catch (err) {
          pushToast({
            kind: 'error',
            title: `Could not copy the ${what}`,
            detail: err instanceof Error ? err.message : String(err),
          });
        }
      }}
      // The name starts with the words shown, so voice control ("click Copy id") finds the button.
      aria-label={copied ? `Copied the ${what}` : label === 'Copy' ? `Copy the ${what}` : `${label} (the ${what})`}
      title={`Copy the ${what}`}
      data-testid="copy-btn"
      data-what={what}
    >
      {copied ? 'Copied' : label}
    </button>
  );
}
