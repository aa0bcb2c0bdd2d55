/**
 * A block of text clipped to a few lines with a toggle to see all of it. The open/closed choice is kept
 * outside React (keyed by id) so it survives the row being unmounted by virtualization.
 */
import { useState } from 'react';
import { fmtInt } from '../../lib/display-format.js';
import { CopyButton } from '../common/copy-button.js';
import { MarkdownView } from '../answers/markdown-view.js';

const expanded = new Set<string>();

export function useExpanded(id: string): [boolean, (open: boolean) => void] {
  const [open, setOpen] = useState(() => expanded.has(id));
  return [
    open,
    (next: boolean) => {
      if (next) expanded.add(id);
      else expanded.delete(id);
      setOpen(next);
    },
  ];
}

/**
 * `copy` names what the text is ("output", "answer"…) and adds a copy button; empty texts have none.
 * `markdown` shows the text rendered (an answer), clipped the same way.
 */
export function ExpandableText({
  id,
  text,
  lines = 8,
  className = '',
  label,
  copy,
  markdown = false,
}: {
  id: string;
  text: string;
  lines?: number;
  className?: string;
  label?: string;
  copy?: string;
  markdown?: boolean;
}) {
  const [open, setOpen] = useExpanded(id);
  const lineCount = text.split('\n').length;
  const long = lineCount > lines || text.length > lines * 110;
  return (
    <div className={`expandable ${className} ${long && !open ? 'is-clipped' : ''}`}>
      {copy && text ? <CopyButton text={text} what={copy} className="copy-corner" /> : null}
      {markdown ? (
        <div
          className="expandable-text is-md"
          style={long && !open ? { maxHeight: `${lines * 1.5}em` } : undefined}
          aria-label={label}
        >
          <MarkdownView text={text} />
        </div>
      ) : (
        <pre
          className="expandable-text"
          style={long && !open ? { maxHeight: `${lines * 1.5}em` } : undefined}
          aria-label={label}
        >
          {text}
        </pre>
      )}
      {long ? (
        <button type="button" className="expand-btn" aria-expanded={open} onClick={() => setOpen(!open)}>
          {open ? 'Show less' : `Show all · ${fmtInt(text.length)} chars, ${fmtInt(lineCount)} lines`}
        </button>
      ) : null}
    </div>
  );
}
