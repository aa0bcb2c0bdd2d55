/** A column's colour: the palette slot of its column (store/columns.ts), so two columns of one mode differ. */
import type { ModeId } from '../../../shared/modes.js';
import type { ColumnRef } from '../../../shared/variants.js';
import { slotOf } from '../../store/columns.js';
import { useApp } from '../../store/app-store.js';
import { comparisonSelectors } from '../../store/selectors.js';

/** The slot of any run or aggregate of the active comparison: `slot({mode, column})`. */
export function useSlotOf(): (r: { readonly mode: ModeId; readonly column: ColumnRef }) => ModeId {
  const slots = useApp(comparisonSelectors.slots);
  return (r) => slotOf(slots, r);
}

export function ColumnSwatch({ slot }: { readonly slot: ModeId }) {
  return <span className={`mode-swatch mode-${slot}`} aria-hidden="true" />;
}
