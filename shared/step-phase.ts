/**
 * A step's phase: the kind of step a mode made it (its prepareStep's `phase`, recorded on the step's
 * model-request), e.g. 'planning' for a step that asks for a plan and runs no tool. Absent: an ordinary step.
 * Every surface names a step through stepTitle, so a new kind of step is a word a mode declares, not a new event
 * type: the timeline, the HTML and Markdown reports, the CLI's live lines and the waterfall all show it one way.
 */
import type { StepEvent } from './step-event.js';

/** The form a phase takes: a lowercase word or words joined by '-', so it reads the same in HTML, Markdown and a terminal. */
export const STEP_PHASE_PATTERN = /^[a-z][a-z0-9]*(-[a-z0-9]+)*$/;

/** ' · planning' after a step's number, or '' for an ordinary step. */
export const phaseSuffix = (phase: string | undefined): string => (phase ? ` · ${phase.replace(/-/g, ' ')}` : '');

/** How every surface names a step: "Step 3", or "Step 1 · planning" for a step with a phase. */
export const stepTitle = (step: number, phase?: string): string => `Step ${step}${phaseSuffix(phase)}`;

/** Each step's phase, from its model-request (steps without one are absent). */
export function stepPhases(events: readonly StepEvent[]): ReadonlyMap<number, string> {
  const phases = new Map<number, string>();
  for (const e of events) if (e.type === 'model-request' && e.phase) phases.set(e.step, e.phase);
  return phases;
}
