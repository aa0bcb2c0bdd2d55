/**
 * The cue that columns are out of view: a fade at the edge they are hidden behind and a button that says how
 * many ("2 more columns →") and scrolls the next one into view.
 */
import { useCallback, useLayoutEffect, useRef, useState, type RefObject } from 'react';
import { hiddenColumns, type Span } from '../../lib/column-overflow.js';

interface Hidden {
  readonly left: number;
  readonly right: number;
}

function measure(el: HTMLElement): { hidden: ReturnType<typeof hiddenColumns>; view: Span } {
  const box = el.getBoundingClientRect();
  const gutter = el.querySelector('.gutter-head')?.getBoundingClientRect();
  const view = { left: gutter ? gutter.right : box.left, right: box.left + el.clientWidth };
  const cols = [...el.querySelectorAll('.timeline-head .column-head')].map((c) => {
    const r = c.getBoundingClientRect();
    return { left: r.left, right: r.right };
  });
  return { hidden: hiddenColumns(cols, view), view };
}

/**
 * Hidden columns of the scroll area, kept current on resize, when `columns` changes and on scroll: the returned
 * scroll handler measures only when the area moved sideways (most scrolling is down the steps, and measuring
 * reads every column head's box).
 */
export function useHiddenColumns(ref: RefObject<HTMLElement | null>, columns: number): [Hidden, () => void, (side: 'left' | 'right') => void] {
  const [hidden, setHidden] = useState<Hidden>({ left: 0, right: 0 });
  const measuredLeft = useRef<number | null>(null);
  const update = useCallback(() => {
    const el = ref.current;
    if (!el) return;
    measuredLeft.current = el.scrollLeft;
    const { hidden: h } = measure(el);
    setHidden((old) => (old.left === h.left && old.right === h.right ? old : { left: h.left, right: h.right }));
  }, [ref]);
  useLayoutEffect(() => {
    const el = ref.current;
    if (!el) return;
    update();
    const ro = new ResizeObserver(update);
    ro.observe(el);
    return () => ro.disconnect();
  }, [ref, update, columns]);
  const reveal = useCallback(
    (side: 'left' | 'right') => {
      const el = ref.current;
      if (!el) return;
      const { hidden: h, view } = measure(el);
      const target = side === 'right' ? h.firstRight : h.lastLeft;
      if (!target) return;
      const by = side === 'right' ? target.right - view.right + 8 : target.left - view.left - 8;
      el.scrollBy({ left: by, behavior: 'smooth' });
    },
    [ref],
  );
  const scrolled = useCallback(() => {
    if (ref.current && ref.current.scrollLeft !== measuredLeft.current) update();
  }, [ref, update]);
  return [hidden, scrolled, reveal];
}

const plural = (n: number) => `${n} more column${n === 1 ? '' : 's'}`;

export function ColumnOverflowHints({ hidden, reveal }: { hidden: Hidden; reveal: (side: 'left' | 'right') => void }) {
  return (
    <>
      {hidden.left > 0 ? (
        <button type="button" className="scroll-hint is-left" onClick={() => reveal('left')} data-testid="scroll-hint-left" data-count={hidden.left} title="Columns out of view on the left: click to scroll, or Shift + wheel">
          ← {plural(hidden.left)}
        </button>
      ) : null}
      {hidden.right > 0 ? (
        <button type="button" className="scroll-hint is-right" onClick={() => reveal('right')} data-testid="scroll-hint-right" data-count={hidden.right} title="Columns out of view on the right: click to scroll, or Shift + wheel">
          {plural(hidden.right)} →
        </button>
      ) : null}
    </>
  );
}
