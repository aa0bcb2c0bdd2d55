/**
 * The text of a failed tool call as it goes back to the model: the one place it is built. Under the
 * `errorHints` knob's 'corrective' value (shared/run-knobs.ts) the error is followed by what to do next, by the
 * kind of failure, as seed 002 rewrites its tool errors (self-correction rose from under 30 % to over 70 % in
 * its author's runs). 'plain' keeps the message as it was.
 */
import type { ErrorHintsSetting } from '../../../shared/run-knobs.js';

/** The words a corrective hint starts with (the simulated model reads them as a real model would). */
export const NEXT_STEP_LEAD = 'What to do next:';

/** What the loop knows of a failed call: why it was not run, or that the tool itself failed. */
export interface FailedCall {
  /** The reply was cut inside the call, so its arguments are unfinished. */
  readonly cut?: boolean;
  /** The model named a tool that is not offered. */
  readonly unknownTool?: boolean;
  /** The arguments did not parse (or a forwarder refused them) before the tool ran. */
  readonly badArguments?: boolean;
}

const NOT_FOUND = /\b(no such file|no (file|folder) at|not found|does not exist|ENOENT)\b/i;
const ARGUMENTS = /^(Invalid arguments for |\S+ takes (at most|its arguments))/;

/** The corrective next step for a failure, by its kind. */
export function nextStep(error: string, call: FailedCall): string {
  if (call.cut) return 'send the call again with shorter arguments, or split the work into several calls.';
  if (call.unknownTool)
    return 'pick one of the available tools listed above and call it by its exact name; do not call this name again.';
  if (call.badArguments || ARGUMENTS.test(error)) {
    return "check each argument's name and type against the tool's parameters, then call it again with one JSON object of them.";
  }
  if (NOT_FOUND.test(error)) {
    return 'the path may be in another folder or have another extension: list the folders the message names with list_dir, or try the likely path, then use the file whose name matches.';
  }
  return 'do not repeat this call unchanged; change its arguments or use another tool, and if the task cannot be done, say why in your answer.';
}

/** The `tool` message of a failed call: `Error: …`, and under 'corrective' the next step on its own line. */
export function toolErrorText(error: string, call: FailedCall, hints: ErrorHintsSetting | undefined): string {
  const plain = `Error: ${error}`;
  return hints === 'corrective' ? `${plain}\n${NEXT_STEP_LEAD} ${nextStep(error, call)}` : plain;
}
