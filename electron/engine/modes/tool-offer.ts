/**
 * What a mode offers of a run's tools, tool by tool: how the model sees it (a native schema, a function in the
 * run_code catalog, a line of the text prompt) and whether it is visible from the first step or found with
 * search_tools. `parallax tools` prints it; each mode's definition says it (ModeDefinition.offers, built from
 * offers.ts), read from the same constants its adapter uses.
 */
import type { ModeId } from '../../../shared/modes.js';
import type { RunSettings } from '../../../shared/run-spec.js';
import { modeDefinition } from './index.js';
import type { ToolOffer } from './offers.js';
import type { Toolset } from './toolsets.js';

export type { OfferedAs, ToolOffer } from './offers.js';

export function toolOffers(mode: ModeId, toolset: Toolset, returnTypes: boolean): ToolOffer[] {
  return modeDefinition(mode).offers(toolset, returnTypes);
}

/** The mode's own tools (run_code, search_tools, call_tool), which no profile lists. */
export function ownTools(mode: ModeId, settings: Pick<RunSettings, 'toolSearch'>): readonly string[] {
  return modeDefinition(mode).ownTools(settings);
}
