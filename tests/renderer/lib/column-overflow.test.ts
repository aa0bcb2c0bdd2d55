import { describe, expect, it } from 'vitest';
import { hiddenColumns } from '../../../renderer/lib/column-overflow.js';

const cols = (n: number, width = 300, gap = 10, start = 50) => Array.from({ length: n }, (_, i) => ({ left: start + i * (width + gap), right: start + i * (width + gap) + width }));

describe('hiddenColumns', () => {
  it('counts columns out of view on each side', () => {
    // Four columns of 300 px in a 700 px view starting at 50: two in view, two to the right.
    const c = cols(4);
    const h = hiddenColumns(c, { left: 50, right: 750 });
    expect([h.left, h.right]).toEqual([0, 2]);
    expect(h.firstRight).toEqual(c[2]);
    // Scrolled 620 px: the first two are out of view on the left.
    const s = hiddenColumns(c.map((x) => ({ left: x.left - 620, right: x.right - 620 })), { left: 50, right: 750 });
    expect([s.left, s.right]).toEqual([2, 0]);
  });

  it('does not count a column mostly in view', () => {
    const h = hiddenColumns([{ left: 0, right: 300 }, { left: 310, right: 610 }], { left: 0, right: 480 });
    expect([h.left, h.right]).toEqual([0, 0]); // the second shows 170 of 300 px
    expect(hiddenColumns([{ left: 310, right: 610 }], { left: 0, right: 440 }).right).toBe(1); // 130 of 300
  });

  it('has nothing hidden when every column fits', () => {
    expect(hiddenColumns(cols(2), { left: 0, right: 2000 })).toEqual({ left: 0, right: 0, firstRight: null, lastLeft: null });
  });
});
