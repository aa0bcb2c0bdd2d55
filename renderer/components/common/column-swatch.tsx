/** A column's colour: the palette slot of its column (store/columns.ts), a shade of its mode when the mode has several. */
import type { ColumnSlot } from '../../../shared/column-shades.js';
import type { ModeId } from '../../../shared/modes.js';
import type { ColumnRef } from '../../../shared/variants.js';
import { slotOf } from '../../store/columns.js';
import { useApp } from '../../store/app-store.js';
import { comparisonSelectors } from '../../store/selectors.js';

/** The slot of any run or aggregate of the active comparison: `slot({mode, column})`. */
export function useSlotOf(): (r: { readonly mode: ModeId; readonly column: ColumnRef }) => ColumnSlot {
  const slots = useApp(comparisonSelectors.slots);
  return (r) => slotOf(slots, r);
}

export function ColumnSwatch({ slot }: { readonly slot: ColumnSlot }) {
  return <span className={`mode-swatch mode-${slot}`} aria-hidden="true" />;
}
