/**
 * The `repeatGuard` knob (shared/run-knobs.ts): under 'on', a tool call identical to one that already ran in the
 * run — the same tool and the same arguments, compared as canonical JSON (key order does not matter) — is not
 * run again; the model gets a note naming the earlier call instead (seed 002's guard against a model that calls
 * the same tool again and again). A call whose earlier result the history knob cleared runs again: the model
 * cannot see that result any more, so asking again is a re-read, not a repeat.
 */

import { canonicalJson } from '../../../shared/canonical-json.js';

/** The words a repeat note starts with (the simulated model reads them as a real model would). */
export const REPEAT_NOTE_LEAD = 'Not run again:';

export interface EarlierCall {
  readonly step: number;
  readonly callId: string;
}

export class RepeatGuard {
  private readonly ran = new Map<string, EarlierCall>();
  private readonly keyOf = new Map<string, string>();

  /**
   * The earlier call this one repeats, or null; a call that is not a repeat is remembered at once (before it
   * runs), so two identical calls of one step are told apart in the order the model wrote them.
   */
  check(name: string, args: Record<string, unknown>, at: EarlierCall): EarlierCall | null {
    const key = `${name}\u0000${canonicalJson(args)}`;
    const earlier = this.ran.get(key);
    if (earlier) return earlier;
    this.ran.set(key, at);
    this.keyOf.set(at.callId, key);
    return null;
  }

  /** The call's result no longer reaches the model (the history knob cleared it): the same call may run again. */
  forget(callId: string): void {
    const key = this.keyOf.get(callId);
    if (key !== undefined && this.ran.get(key)?.callId === callId) this.ran.delete(key);
  }
}

/** The note sent instead of a repeated call's result. */
export function repeatNote(name: string, args: Record<string, unknown>, earlier: EarlierCall, step: number): string {
  const where = earlier.step === step ? 'earlier in this step' : `in step ${earlier.step}`;
  const shown = canonicalJson(args);
  return `${REPEAT_NOTE_LEAD} ${name} was already called with these arguments (${shown.length > 200 ? `${shown.slice(0, 199)}…` : shown}) ${where}, and its result is above. Use that result, or call with other arguments.`;
}
