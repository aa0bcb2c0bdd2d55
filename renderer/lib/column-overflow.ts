/** Which columns of a sideways-scrolling area are out of view, on each side (the timeline's scroll hint). */

export interface Span {
  readonly left: number;
  readonly right: number;
}

/**
 * Columns less than `minVisible` in view count as hidden, on the side their middle lies; one mostly in view
 * is not (a sliver cut off at the edge needs no hint).
 */
export function hiddenColumns(
  cols: readonly Span[],
  view: Span,
  minVisible = 0.5,
): { left: number; right: number; firstRight: Span | null; lastLeft: Span | null } {
  let left = 0;
  let right = 0;
  let firstRight: Span | null = null;
  let lastLeft: Span | null = null;
  const middle = (view.left + view.right) / 2;
  for (const c of cols) {
    const width = c.right - c.left;
    if (width <= 0) continue;
    const shown = Math.max(0, Math.min(c.right, view.right) - Math.max(c.left, view.left));
    if (shown / width >= minVisible) continue;
    if ((c.left + c.right) / 2 < middle) {
      left++;
      lastLeft = c;
    } else {
      right++;
      firstRight ??= c;
    }
  }
  return { left, right, firstRight, lastLeft };
}

/** The columns a view reaches, as an index range [first, last]: those that touch it widened by `margin` on each side. */
export interface Reach {
  readonly first: number;
  readonly last: number;
}

/**
 * Which columns are drawn (the Timeline mounts the cells of these only): every column within `margin` px of
 * the view, so a sideways scroll of up to that much finds its cells already there. None measured: all of them.
 */
export function columnsInReach(cols: readonly Span[], view: Span, margin: number): Reach {
  let first = -1;
  let last = -1;
  cols.forEach((c, i) => {
    if (c.right < view.left - margin || c.left > view.right + margin) return;
    if (first < 0) first = i;
    last = i;
  });
  return first < 0 ? { first: 0, last: cols.length - 1 } : { first, last };
}
