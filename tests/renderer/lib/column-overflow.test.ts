import { describe, expect, it } from 'vitest';
import { columnsInReach, hiddenColumns } from '../../../renderer/lib/column-overflow.js';

const cols = (n: number, width = 300, gap = 10, start = 50) =>
  Array.from({ length: n }, (_, i) => ({ left: start + i * (width + gap), right: start + i * (width + gap) + width }));

describe('hiddenColumns', () => {
  it('counts columns out of view on each side', () => {
    // Four columns of 300 px in a 700 px view starting at 50: two in view, two to the right.
    const c = cols(4);
    const h = hiddenColumns(c, { left: 50, right: 750 });
    expect([h.left, h.right]).toEqual([0, 2]);
    expect(h.firstRight).toEqual(c[2]);
    // Scrolled 620 px: the first two are out of view on the left.
    const s = hiddenColumns(
      c.map((x) => ({ left: x.left - 620, right: x.right - 620 })),
      { left: 50, right: 750 },
    );
    expect([s.left, s.right]).toEqual([2, 0]);
  });

  it('does not count a column mostly in view', () => {
    const h = hiddenColumns(
      [
        { left: 0, right: 300 },
        { left: 310, right: 610 },
      ],
      { left: 0, right: 480 },
    );
    expect([h.left, h.right]).toEqual([0, 0]); // the second shows 170 of 300 px
    expect(hiddenColumns([{ left: 310, right: 610 }], { left: 0, right: 440 }).right).toBe(1); // 130 of 300
  });

  it('has nothing hidden when every column fits', () => {
    expect(hiddenColumns(cols(2), { left: 0, right: 2000 })).toEqual({
      left: 0,
      right: 0,
      firstRight: null,
      lastLeft: null,
    });
  });
});

describe('columnsInReach', () => {
  it('reaches the columns in view and those within the margin on each side', () => {
    // 30 columns of 300 px + 10 px gap from x = 50; a 1,000 px view scrolled so columns 10–13 are in it.
    const c = cols(30).map((x) => ({ left: x.left - 3100, right: x.right - 3100 }));
    expect(columnsInReach(c, { left: 50, right: 1050 }, 0)).toEqual({ first: 10, last: 13 });
    expect(columnsInReach(c, { left: 50, right: 1050 }, 310)).toEqual({ first: 9, last: 14 });
  });

  it('stops at the ends and reaches every column that fits', () => {
    expect(columnsInReach(cols(30), { left: 50, right: 1050 }, 400)).toEqual({ first: 0, last: 4 });
    expect(columnsInReach(cols(3), { left: 0, right: 2000 }, 0)).toEqual({ first: 0, last: 2 });
  });

  it('reaches all columns when none is measured in view (nothing laid out yet)', () => {
    expect(
      columnsInReach(
        cols(5).map((x) => ({ left: x.left + 9000, right: x.right + 9000 })),
        { left: 0, right: 1000 },
        0,
      ),
    ).toEqual({ first: 0, last: 4 });
  });
});
