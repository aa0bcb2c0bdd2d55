/**
 * The one bar every chart draws: a recharts <Bar> shape that is the bar's rect with its figures as data attributes
 * (what a test, or anyone reading the DOM, checks), and nothing at all for a row without a value, so a step a run
 * never reached is no bar rather than a zero one.
 */
import type { CSSProperties } from 'react';
import type { BarShapeProps } from 'recharts';

type DataAttributes = { readonly [name: `data-${string}`]: string | number | boolean | undefined };

export interface BarLook {
  readonly style: CSSProperties;
  readonly data: DataAttributes;
}

/** `rounded: false` for stacked segments, whose corners would leave gaps between them. */
export function barShape<Row>(
  valueOf: (row: Row) => number | undefined,
  look: (row: Row, value: number, width: number) => BarLook,
  { rounded = true }: { rounded?: boolean } = {},
) {
  return (props: BarShapeProps) => {
    const row = props.payload as Row | undefined;
    const value = row === undefined ? undefined : valueOf(row);
    if (row === undefined || value === undefined) return <g />;
    const { x = 0, y = 0, width = 0, height = 0 } = props;
    const { style, data } = look(row, value, width);
    return (
      <rect
        x={x}
        y={y}
        width={Math.max(0, width)}
        height={Math.max(0, height)}
        rx={rounded ? Math.min(2, width / 4) : undefined}
        style={style}
        {...data}
      />
    );
  };
}
