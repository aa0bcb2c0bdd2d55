/**
 * The columns of the active comparison (shared/variants.ts): which column each run belongs to, and which palette
 * slot each column draws with. A comparison without variants has one plain column per mode (key = mode, label =
 * the mode's name, slot = the mode), so it looks exactly as before variants existed. Pure: no React, no DOM.
 */
import type { ColumnSlot } from '../../shared/column-shades.js';
import type { ComparisonMeta } from '../../shared/ipc-contract.js';
import type { RunSummary } from '../../shared/summary.js';
import { columnOf, columnSlots, plainColumns, type ColumnRef, type VariantRecord } from '../../shared/variants.js';
import type { RunView } from './run-model.js';

type MetaRun = ComparisonMeta['runs'][number];

/** The comparison's columns in order: its recorded variants, else one plain column per mode it ran. */
export function metaColumns(meta: Pick<ComparisonMeta, 'runs' | 'variants'>): readonly VariantRecord[] {
  return meta.variants ?? plainColumns([...new Set(meta.runs.map((r) => r.mode))]);
}

/** A run's column: the one meta.json names, else the one its run-started recorded, else its mode's plain column. */
export function runColumn(meta: Pick<ComparisonMeta, 'variants'>, r: MetaRun, run: RunView | undefined): ColumnRef {
  const recorded = r.variant !== undefined ? meta.variants?.find((v) => v.key === r.variant) : undefined;
  if (recorded) return { key: recorded.key, label: recorded.label };
  return columnOf({ mode: r.mode, ...(run?.started?.variant ? { variant: run.started.variant } : {}) });
}

/** Each column key's palette slot (its mode, or a shade of it); a plain comparison's slots are its modes. */
export function slotsOf(
  meta: Pick<ComparisonMeta, 'runs' | 'variants'> | null | undefined,
): ReadonlyMap<string, ColumnSlot> {
  return meta ? columnSlots(metaColumns(meta)) : new Map();
}

/** The slot a summary's column draws with: its recorded slot, else its own mode's (plain column, stored run). */
export const slotOf = (slots: ReadonlyMap<string, ColumnSlot>, r: Pick<RunSummary, 'mode' | 'column'>): ColumnSlot =>
  slots.get(r.column.key) ?? r.mode;
