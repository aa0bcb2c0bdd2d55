/** The plan the simulated model reads from an M3ToolEval instruction, by the task's domain (web browsing has its own policies). */
import type { M3Task } from '../m3-tasks.js';
import type { Plan } from './plan.js';
import { readDecoder, readDna } from './read-decoder-dna.js';
import { readTrade } from './read-trade.js';
import { readTravel } from './read-travel.js';

const READERS: Readonly<Record<string, (text: string) => Plan | null>> = {
  message_decoder: readDecoder,
  dna_sequencer: readDna,
  trade_calculator: readTrade,
  travel_itinerary_planning: readTravel,
};

export function readPlan(task: M3Task): Plan | null {
  return READERS[task.domain.id]?.(task.instruction) ?? null;
}
