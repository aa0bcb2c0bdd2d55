/**
 * Marks the searched text inside the Timeline's matching cells with the CSS Custom Highlight API: no element is
 * added to the step cards, and rows the virtualizer mounts later are marked as they appear.
 */
import { useEffect, type RefObject } from 'react';

const NAME = 'step-filter-hit';

function mark(root: HTMLElement, needle: string): void {
  const ranges: Range[] = [];
  for (const cell of root.querySelectorAll<HTMLElement>('.cell[data-match="true"]')) {
    const walk = document.createTreeWalker(cell, NodeFilter.SHOW_TEXT);
    for (let n = walk.nextNode(); n; n = walk.nextNode()) {
      const hay = (n.nodeValue ?? '').toLowerCase();
      for (
        let at = hay.indexOf(needle);
        at >= 0 && ranges.length < 2000;
        at = hay.indexOf(needle, at + needle.length)
      ) {
        const r = new Range();
        r.setStart(n, at);
        r.setEnd(n, at + needle.length);
        ranges.push(r);
      }
    }
  }
  CSS.highlights.set(NAME, new Highlight(...ranges));
}

export function useTextHighlight(ref: RefObject<HTMLElement | null>, text: string): void {
  useEffect(() => {
    const root = ref.current;
    const needle = text.trim().toLowerCase();
    if (typeof CSS === 'undefined' || !('highlights' in CSS)) return;
    if (!root || !needle) {
      CSS.highlights.delete(NAME);
      return;
    }
    let frame = 0;
    const again = () => {
      cancelAnimationFrame(frame);
      frame = requestAnimationFrame(() => mark(root, needle));
    };
    again();
    const mo = new MutationObserver(again);
    mo.observe(root, {
      subtree: true,
      childList: true,
      characterData: true,
      attributes: true,
      attributeFilter: ['data-match'],
    });
    return () => {
      cancelAnimationFrame(frame);
      mo.disconnect();
      CSS.highlights.delete(NAME);
    };
  }, [ref, text]);
}
