/**
 * The cue that columns are out of view: a fade at the edge they are hidden behind and a button that says how
 * many ("2 more columns →") and scrolls the next one into view. And which columns are near enough the view to
 * be drawn: every trial at once is 30 columns, of which a 1280 px window shows five.
 */
import { useCallback, useLayoutEffect, useRef, useState, type RefObject } from 'react';
import { columnsInReach, hiddenColumns, type Reach, type Span } from '../../lib/column-overflow.js';

interface Hidden {
  readonly left: number;
  readonly right: number;
}

function measure(el: HTMLElement): { hidden: ReturnType<typeof hiddenColumns>; view: Span; cols: Span[] } {
  const box = el.getBoundingClientRect();
  const gutter = el.querySelector('.gutter-head')?.getBoundingClientRect();
  const view = { left: gutter ? gutter.right : box.left, right: box.left + el.clientWidth };
  const cols = [...el.querySelectorAll('.timeline-head .column-head')].map((c) => {
    const r = c.getBoundingClientRect();
    return { left: r.left, right: r.right };
  });
  return { hidden: hiddenColumns(cols, view), view, cols };
}

interface ColumnView {
  readonly hidden: Hidden;
  /** The columns whose cells are drawn: those in view and a view's width to each side. */
  readonly reach: Reach;
  /** The scroll handler: measures again when the area moved sideways. */
  readonly scrolled: () => void;
  readonly reveal: (side: 'left' | 'right') => void;
}

/**
 * Hidden and reached columns of the scroll area, kept current on resize, when `columns` changes and on scroll:
 * the scroll handler measures only when the area moved sideways (most scrolling is down the steps, and measuring
 * reads every column head's box). Before the first measure, the columns a window's width of the narrowest
 * columns can hold are reached, so the first render never draws all of them.
 */
export function useColumnView(ref: RefObject<HTMLElement | null>, columns: number, minColumnPx: number): ColumnView {
  const [hidden, setHidden] = useState<Hidden>({ left: 0, right: 0 });
  const [reach, setReach] = useState<Reach>(() => ({
    first: 0,
    last: Math.min(columns, Math.ceil((2 * window.innerWidth) / minColumnPx)) - 1,
  }));
  const measuredLeft = useRef<number | null>(null);
  const update = useCallback(() => {
    const el = ref.current;
    // A pane kept hidden is not laid out: its boxes are empty, and what it drew stays as it was.
    if (!el || el.clientWidth === 0) return;
    measuredLeft.current = el.scrollLeft;
    const { hidden: h, view, cols } = measure(el);
    setHidden((old) => (old.left === h.left && old.right === h.right ? old : { left: h.left, right: h.right }));
    const r = columnsInReach(cols, view, view.right - view.left);
    setReach((old) => (old.first === r.first && old.last === r.last ? old : r));
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
  return { hidden, reach, scrolled, reveal };
}

const plural = (n: number) => `${n} more column${n === 1 ? '' : 's'}`;

export function ColumnOverflowHints({ hidden, reveal }: { hidden: Hidden; reveal: (side: 'left' | 'right') => void }) {
  return (
    <>
      {hidden.left > 0 ? (
        <button
          type="button"
          className="scroll-hint is-left"
          onClick={() => reveal('left')}
          data-testid="scroll-hint-left"
          data-count={hidden.left}
          title="Columns out of view on the left: click to scroll, or Shift + wheel"
        >
          ← {plural(hidden.left)}
        </button>
      ) : null}
      {hidden.right > 0 ? (
        <button
          type="button"
          className="scroll-hint is-right"
          onClick={() => reveal('right')}
          data-testid="scroll-hint-right"
          data-count={hidden.right}
          title="Columns out of view on the right: click to scroll, or Shift + wheel"
        >
          {plural(hidden.right)} →
        </button>
      ) : null}
    </>
  );
}
